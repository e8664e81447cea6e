import type { Em } from './orm.ts';

/** One request counted in its subject's window: the window's count so far (this one included) and its seconds left. */
export interface WindowCount {
  hits: number;
  resetSeconds: number;
}

/**
 * Counts a request against a fixed window that starts with the subject's first request and lasts `windowSeconds`;
 * a request after the window opens a new one. One statement, so concurrent requests from several API processes
 * each see their own count.
 */
export async function countHit(em: Em, policy: string, subject: string, windowSeconds: number): Promise<WindowCount> {
  const [row] = await em.execute<{ hits: number; reset_seconds: number }[]>(
    `insert into rate_limit_window as w (policy, subject, window_started_at, hits) values (?, ?, now(), 1)
     on conflict (policy, subject) do update set
       hits = case when w.window_started_at <= now() - make_interval(secs => ?) then 1 else w.hits + 1 end,
       window_started_at = case when w.window_started_at <= now() - make_interval(secs => ?) then now() else w.window_started_at end
     returning hits, greatest(1, ceil(extract(epoch from window_started_at + make_interval(secs => ?) - now())))::int as reset_seconds`,
    [policy, subject, windowSeconds, windowSeconds, windowSeconds]);
  return { hits: row!.hits, resetSeconds: row!.reset_seconds };
}

/** Deletes windows that ended more than a day ago and code-attempt rows with neither a count nor a lock left in force. */
export async function pruneLimitRows(em: Em): Promise<{ windows: number; attempts: number }> {
  const count = async (sql: string) => (await em.execute<{ n: number }[]>(`with gone as (${sql} returning 1) select count(*)::int as n from gone`))[0]!.n;
  return {
    windows: await count(`delete from rate_limit_window where window_started_at < now() - interval '1 day'`),
    attempts: await count(`delete from code_attempt where window_started_at < now() - interval '1 day'
      and (locked_until is null or locked_until < now() - interval '1 day')`),
  };
}
