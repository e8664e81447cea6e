import { executeBound, type Em } from './orm.ts';

/** A subject's window after counting: its count so far, its seconds left, and when it started (which window it is). */
export interface WindowCount {
  subject: string;
  hits: number;
  resetSeconds: number;
  startedMs: number;
}

/**
 * Adds `counts[i]` requests to `subjects[i]`'s window of `policy`: a fixed window that starts with the subject's
 * first request and lasts `windowSeconds`; requests after it open a new one. One statement for every subject,
 * so concurrent counts from several API processes each see their own total.
 */
export async function addHits(
  em: Em,
  policy: string,
  windowSeconds: number,
  subjects: string[],
  counts: number[],
): Promise<WindowCount[]> {
  const rows = await executeBound<{ subject: string; hits: number; reset_seconds: number; started_ms: number }>(
    em,
    `insert into rate_limit_window as w (policy, subject, window_started_at, hits)
     select $1, t.subject, now(), t.n from unnest($2::text[], $3::int[]) as t(subject, n)
     on conflict (policy, subject) do update set
       hits = case when w.window_started_at <= now() - make_interval(secs => $4) then excluded.hits else w.hits + excluded.hits end,
       window_started_at = case when w.window_started_at <= now() - make_interval(secs => $4) then now() else w.window_started_at end
     returning subject, hits, greatest(1, ceil(extract(epoch from window_started_at + make_interval(secs => $4) - now())))::int as reset_seconds,
       (extract(epoch from window_started_at) * 1000)::float8 as started_ms`,
    [policy, subjects, counts, windowSeconds],
  );
  return rows.map((r) => ({
    subject: r.subject,
    hits: r.hits,
    resetSeconds: r.reset_seconds,
    startedMs: r.started_ms,
  }));
}

/** Deletes windows that ended more than a day ago and code-attempt rows with neither a count nor a lock left in force. */
export async function pruneLimitRows(em: Em): Promise<{ windows: number; attempts: number }> {
  const count = async (sql: string) =>
    (await em.execute<{ n: number }[]>(`with gone as (${sql} returning 1) select count(*)::int as n from gone`))[0]!.n;
  return {
    windows: await count(`delete from rate_limit_window where window_started_at < now() - interval '1 day'`),
    attempts: await count(`delete from code_attempt where window_started_at < now() - interval '1 day'
      and (locked_until is null or locked_until < now() - interval '1 day')`),
  };
}
