import type { Em } from './orm.ts';

/** How many wrong codes a subject may send in a window before it is locked, and for how long. */
export interface AttemptRule {
  maxFailures: number;
  windowSeconds: number;
  /** The first lock; each further lock of the same subject doubles it, up to maxLockSeconds. */
  lockSeconds: number;
  maxLockSeconds: number;
  /**
   * From the `after`-th failure in a window on, each failure below the limit holds the subject back for `seconds`,
   * doubled with every further failure: guesses slow down before the lock.
   */
  slowDown?: { after: number; seconds: number };
}

/** What is counted: a kind of code, a subject (a device order, a caller) and the rule it is held to. */
export interface AttemptSubject {
  kind: string;
  subject: string;
  rule: AttemptRule;
}

const pairs = (subjects: readonly AttemptSubject[]) => subjects.flatMap((s) => [s.kind, s.subject]);

/**
 * Takes the subjects' rows for this transaction (made when missing, always in the same order) and answers the whole
 * seconds until every subject may try again, 0 when none is locked. Holding the rows until commit makes concurrent
 * checks of a subject or a caller go one after another: twenty codes sent at once cannot all pass before a lock.
 */
export async function holdSubjects(em: Em, subjects: readonly AttemptSubject[]): Promise<number> {
  const ordered = [...subjects].sort((a, b) => `${a.kind} ${a.subject}`.localeCompare(`${b.kind} ${b.subject}`));
  await em.execute(
    `insert into code_attempt (kind, subject) values ${ordered.map(() => '(?, ?)').join(', ')} on conflict do nothing`,
    pairs(ordered),
  );
  const rows = await em.execute<{ seconds: number | null }[]>(
    `select ceil(extract(epoch from locked_until - now()))::int as seconds from code_attempt
     where (kind, subject) in (${ordered.map(() => '(?, ?)').join(', ')}) order by kind, subject for update`,
    pairs(ordered),
  );
  return Math.max(0, ...rows.map((r) => r.seconds ?? 0));
}

/**
 * Counts one wrong code against every subject, in the caller's transaction, and locks each one that reaches its
 * limit; answers the subjects this failure locked, with their lock's length. Run it in the transaction that holds
 * the subjects (holdSubjects), so that exactly one failure crosses a limit.
 */
export async function countFailure(
  em: Em,
  subjects: readonly AttemptSubject[],
): Promise<{ subject: AttemptSubject; seconds: number }[]> {
  const locked: { subject: AttemptSubject; seconds: number }[] = [];
  for (const s of subjects) {
    const { maxFailures, windowSeconds, lockSeconds, maxLockSeconds } = s.rule;
    const [counted] = await em.execute<{ failures: number }[]>(
      `insert into code_attempt as a (kind, subject, failures, window_started_at) values (?, ?, 1, now())
       on conflict (kind, subject) do update set
         failures = case when a.window_started_at < now() - make_interval(secs => ?) then 1 else a.failures + 1 end,
         window_started_at = case when a.window_started_at < now() - make_interval(secs => ?) then now() else a.window_started_at end
       returning failures`,
      [s.kind, s.subject, windowSeconds, windowSeconds],
    );
    if (counted!.failures < maxFailures) {
      const slow = s.rule.slowDown;
      if (!slow || counted!.failures < slow.after) continue;
      const [held] = await em.execute<{ seconds: number }[]>(
        `update code_attempt set locked_until = now() + make_interval(secs => ?) where kind = ? and subject = ?
         returning ceil(extract(epoch from locked_until - now()))::int as seconds`,
        [slow.seconds * 2 ** (counted!.failures - slow.after), s.kind, s.subject],
      );
      locked.push({ subject: s, seconds: held!.seconds });
      continue;
    }
    const [lock] = await em.execute<{ seconds: number }[]>(
      `update code_attempt set failures = 0, window_started_at = now(), locks = locks + 1,
         locked_until = now() + make_interval(secs => least(?::float8 * power(2, least(locks, 20)), ?::float8))
       where kind = ? and subject = ? returning ceil(extract(epoch from locked_until - now()))::int as seconds`,
      [lockSeconds, maxLockSeconds, s.kind, s.subject],
    );
    locked.push({ subject: s, seconds: lock!.seconds });
  }
  return locked;
}

/** Whole seconds until the subject may try again (0 when it is not held back), read without taking its row. */
export async function heldFor(em: Em, subject: AttemptSubject): Promise<number> {
  const [row] = await em.execute<{ seconds: number | null }[]>(
    'select ceil(extract(epoch from locked_until - now()))::int as seconds from code_attempt where kind = ? and subject = ?',
    [subject.kind, subject.subject],
  );
  return Math.max(0, row?.seconds ?? 0);
}

/**
 * An operator lifts the subjects' locks in force. Counts and lock history stay: a run of wrong codes after the lift
 * locks again as soon, and for as long, as it would have without it. Answers the whole seconds the longest of the
 * lifted locks still had to run, 0 when none was in force.
 */
export async function liftLocks(
  em: Em,
  subjects: readonly Pick<AttemptSubject, 'kind' | 'subject'>[],
): Promise<number> {
  if (subjects.length === 0) return 0;
  const rows = await em.execute<{ seconds: number }[]>(
    `update code_attempt a set locked_until = null from code_attempt held
     where held.kind = a.kind and held.subject = a.subject and held.locked_until > now()
       and (a.kind, a.subject) in (${subjects.map(() => '(?, ?)').join(', ')})
     returning ceil(extract(epoch from held.locked_until - now()))::int as seconds`,
    subjects.flatMap((s) => [s.kind, s.subject]),
  );
  return Math.max(0, ...rows.map((r) => r.seconds));
}

/** A right code: the subject starts afresh (its lock history too). */
export async function forgetFailures(em: Em, subject: AttemptSubject): Promise<void> {
  await em.execute('delete from code_attempt where kind = ? and subject = ?', [subject.kind, subject.subject]);
}
