/**
 * The one rule for every code this service checks (pickup codes today; partner locker codes and device keys to
 * come): wrong codes are counted per subject (the device order) and per caller, across API processes, and a run of
 * them locks checks for a while. During a lock even the right code is refused, so guessing gains nothing.
 * Defaults and reasons: docs/code-attempts.md.
 */
import { countFailure, forgetFailures, holdSubjects, type AttemptRule, type AttemptSubject } from './db/attempts.ts';
import type { Em } from './db/orm.ts';
import { errors } from './errors.ts';

export const CODE_RULES = {
  /** One subject: 5 wrong codes within 15 minutes lock it for 15 minutes, then 30, 60 ... at most a day. */
  subject: { maxFailures: 5, windowSeconds: 15 * 60, lockSeconds: 15 * 60, maxLockSeconds: 24 * 3600 },
  /** One caller, whatever the subjects: 20 wrong codes within an hour lock the caller's checks for an hour, doubling up to a day. */
  caller: { maxFailures: 20, windowSeconds: 3600, lockSeconds: 3600, maxLockSeconds: 24 * 3600 },
} as const satisfies Record<string, AttemptRule>;

export interface CodeCheck {
  /** The kind of code, such as pickup_code. */
  kind: string;
  /** What the code opens, such as device_order:42. */
  subject: string;
  callerId: number;
  /** Compares the code; called only when nothing is locked. */
  verify: () => boolean;
  /** Runs in the failure's transaction when this wrong code locks the subject: history, an exception for the operator. */
  onSubjectLocked?: (tx: Em) => Promise<void>;
  /** The subject's rule, CODE_RULES.subject when absent. */
  subjectRule?: AttemptRule;
  /** Whose wrong codes add up across subjects, `caller:<callerId>` when absent (a locker screen counts as its device). */
  callerSubject?: string;
}

/**
 * True for the right code. A wrong one answers false, or 429 (TOO_MANY_ATTEMPTS with Retry-After) when it locks
 * the subject or the caller; a check during a lock answers 429 without looking at the code.
 */
export async function checkCode(em: Em, check: CodeCheck): Promise<boolean> {
  const subject: AttemptSubject = {
    kind: check.kind,
    subject: check.subject,
    rule: check.subjectRule ?? CODE_RULES.subject,
  };
  const caller: AttemptSubject = {
    kind: check.kind,
    subject: check.callerSubject ?? `caller:${check.callerId}`,
    rule: CODE_RULES.caller,
  };
  // One transaction holds both rows from the lock check to the count; the 429 is thrown after it commits.
  const outcome = await em.transactional(async (tx): Promise<{ right: boolean; wait: number }> => {
    const wait = await holdSubjects(tx, [subject, caller]);
    if (wait > 0) return { right: false, wait };
    if (check.verify()) {
      await forgetFailures(tx, subject);
      return { right: true, wait: 0 };
    }
    const locked = await countFailure(tx, [subject, caller]);
    if (locked.some((l) => l.subject === subject)) await check.onSubjectLocked?.(tx);
    return { right: false, wait: Math.max(0, ...locked.map((l) => l.seconds)) };
  });
  if (outcome.wait > 0) throw errors.tooManyAttempts(outcome.wait);
  return outcome.right;
}
