/**
 * Wrong passwords are counted per email, whether or not an account has it, so that the answers say nothing of
 * which emails exist: from the third wrong password in a row the email is held back for 1 s, then 2, 4 ... and
 * at the limit (SIGN_IN_MAX_FAILURES) refused for SIGN_IN_LOCK_SECONDS. Defaults and reasons: docs/abuse-limits.md.
 */
import {
  countFailure,
  forgetFailures,
  heldFor,
  holdSubjects,
  type AttemptSubject,
} from '../../platform/db/attempts.ts';
import type { Config } from '../../platform/config.ts';
import type { Em } from '../../platform/db/orm.ts';
import { errors } from '../../platform/errors.ts';
import { sha256Hex } from '../../platform/secrets.ts';

/** The wrong password that starts the slow-down, and its first wait. */
const SLOW_DOWN = { after: 3, seconds: 1 };

function subjectOf(email: string, config: Config): AttemptSubject {
  const { maxFailures, lockSeconds } = config.signIn;
  return {
    kind: 'sign_in',
    // A hash, so that the table of counts is not a list of the emails someone tried.
    subject: `email:${sha256Hex(email).slice(0, 40)}`,
    rule: {
      maxFailures,
      windowSeconds: lockSeconds,
      lockSeconds,
      maxLockSeconds: lockSeconds * 4,
      slowDown: SLOW_DOWN,
    },
  };
}

/** Answers 429 at once while the email is held back: no password is hashed for it. */
export async function refuseWhileHeld(em: Em, email: string, config: Config): Promise<void> {
  const wait = await heldFor(em, subjectOf(email, config));
  if (wait > 0) throw errors.signInLocked(wait);
}

/**
 * Records the verdict on a password already checked. The email's row is held from the lock check to the count,
 * so that sign-ins sent at once are judged one after another: a right password that arrives after the lock is
 * refused like a wrong one, and no more than the limit of wrong ones is ever judged.
 */
export async function recordVerdict(em: Em, email: string, right: boolean, config: Config): Promise<void> {
  const subject = subjectOf(email, config);
  const wait = await em.transactional(async (tx) => {
    const held = await holdSubjects(tx, [subject]);
    if (held > 0) return held;
    if (right) await forgetFailures(tx, subject);
    else await countFailure(tx, [subject]);
    return 0;
  });
  if (wait > 0) throw errors.signInLocked(wait);
}
