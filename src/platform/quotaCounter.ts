import type { Quota } from './config.ts';
import { addHits, type WindowCount } from './db/rateLimits.ts';
import type { Em, Orm } from './db/orm.ts';
import type { Logger } from './logger.ts';

/** Requests a subject may send on local counts alone: while its known total stays this far below the quota. */
const MARGIN_SHARE = 0.1;
const MARGIN_MIN = 10;
/** How soon counts made in this process reach PostgreSQL. */
const FLUSH_MS = 100;
/** Most subjects whose window this process remembers; past it a new subject is counted in PostgreSQL every time. */
const MAX_SUBJECTS = 50_000;

interface Tally {
  policy: string;
  subject: string;
  windowSeconds: number;
  /** The total PostgreSQL last answered for the window, and this process's requests it has not been told of yet. */
  known: number;
  pending: number;
  startedMs: number;
  /** When the window ends, by this process's clock. */
  endsAt: number;
}

/**
 * The rate limits' counts (PostgreSQL's rate_limit_window, shared by every API process), made cheap far from the
 * quota and exact near it. A subject's first request of a window, and every request once its total is within a
 * margin of the quota (a tenth of it, at least 10), is counted in PostgreSQL before it is answered. Below that,
 * requests are counted here and added to PostgreSQL in one statement per limit within FLUSH_MS, so a busy client
 * far from its quota costs no write per request. Several processes can each accept up to the margin on counts
 * the others have not added yet; a client reaching the quota is held to it exactly. docs/abuse-limits.md.
 */
export class QuotaCounter {
  private readonly tallies = new Map<string, Tally>();
  private readonly orm: Orm;
  private readonly log: Logger;
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;
  private stopped = false;

  constructor(orm: Orm, log: Logger) {
    this.orm = orm;
    this.log = log;
  }

  /**
   * Counts one request of `subject` against `policy`; the answer counts it too. `em` may be given as a function, called
   * only when the count goes to PostgreSQL, so that a request counted here forks no entity manager.
   */
  async count(
    em: Em | (() => Em),
    policy: string,
    subject: string,
    quota: Quota,
  ): Promise<Omit<WindowCount, 'subject' | 'startedMs'>> {
    const key = `${policy}\n${subject}`;
    const t = this.tallies.get(key);
    const now = Date.now();
    const margin = Math.max(MARGIN_MIN, quota.limit * MARGIN_SHARE);
    if (t && now < t.endsAt - 1000 && t.known + t.pending + 1 <= quota.limit - margin) {
      t.pending++;
      this.schedule();
      return { hits: t.known + t.pending, resetSeconds: Math.max(1, Math.ceil((t.endsAt - now) / 1000)) };
    }
    // Exact: this request and whatever this process still holds for the subject, in one statement.
    const n = 1 + (t?.pending ?? 0);
    if (t) t.pending = 0;
    try {
      const [row] = await addHits(typeof em === 'function' ? em() : em, policy, quota.windowSeconds, [subject], [n]);
      this.learn(key, policy, quota.windowSeconds, row!, t === undefined);
      return { hits: row!.hits, resetSeconds: row!.resetSeconds };
    } catch (err) {
      if (t) t.pending += n - 1;
      throw err;
    }
  }

  /** Adds what is still held to PostgreSQL and stops counting here. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flushing;
    await this.flush();
  }

  private learn(key: string, policy: string, windowSeconds: number, row: WindowCount, isNew: boolean): void {
    const t = this.tallies.get(key);
    if (t && t.startedMs === row.startedMs) {
      t.known = Math.max(t.known, row.hits);
      return;
    }
    if (!t && isNew && this.tallies.size >= MAX_SUBJECTS) return;
    this.tallies.set(key, {
      policy,
      subject: row.subject,
      windowSeconds,
      known: row.hits,
      pending: t?.pending ?? 0,
      startedMs: row.startedMs,
      endsAt: Date.now() + row.resetSeconds * 1000,
    });
  }

  private schedule(): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flushing = this.flush().finally(() => {
        this.flushing = undefined;
      });
    }, FLUSH_MS);
    this.timer.unref();
  }

  /** One statement per limit for every subject with requests held here; forgets windows that have ended. */
  private async flush(): Promise<void> {
    const now = Date.now();
    const groups = new Map<string, Tally[]>();
    for (const [key, t] of this.tallies) {
      if (t.pending === 0) {
        if (t.endsAt <= now) this.tallies.delete(key);
        continue;
      }
      const group = `${t.policy}\n${t.windowSeconds}`;
      groups.set(group, [...(groups.get(group) ?? []), t]);
    }
    for (const tallies of groups.values()) {
      const { policy, windowSeconds } = tallies[0]!;
      const counts = tallies.map((t) => t.pending);
      for (const t of tallies) t.pending = 0;
      try {
        const rows = await addHits(
          this.orm.em.fork(),
          policy,
          windowSeconds,
          tallies.map((t) => t.subject),
          counts,
        );
        for (const row of rows) this.learn(`${policy}\n${row.subject}`, policy, windowSeconds, row, false);
      } catch (err) {
        tallies.forEach((t, i) => {
          t.pending += counts[i]!;
        });
        this.log.warn(
          { err: { message: (err as Error).message } },
          'rate limit counts not added; trying again shortly',
        );
        this.schedule();
      }
    }
  }
}
