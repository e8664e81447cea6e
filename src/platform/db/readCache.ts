import type { Logger } from '../logger.ts';
import { Listener } from './listener.ts';

/** Longest an entry is kept even if nothing says it changed, and most entries kept. */
const MAX_AGE_MS = 60_000;
const MAX_ENTRIES = 10_000;

/**
 * A process-local cache of reads that are made on almost every request and change rarely: who a session token
 * belongs to, a business's switches. It empties whenever PostgreSQL reports a change of the tables behind them
 * (NOTIFY read_cache, sent on commit by triggers: migrations/Migration20261124000000ReadCacheNotify.ts), so a
 * signed-out token or a switched-off module is refused by every API process as soon as the notification
 * arrives, a few milliseconds after the commit.
 *
 * While the LISTEN connection is down nothing is cached and every read goes to the database; it empties again
 * when the connection is back, since the notifications sent meanwhile are lost. A read that was under way when a
 * change arrived is answered but not kept: it may have read the row before the change.
 */
export class ReadCache {
  private readonly entries = new Map<string, { value: unknown; until: number }>();
  private generation = 0;
  private live = false;
  private listener?: Listener;
  /** The payload of the last notification heard: notifications arrive in commit order, so a test can send one
   * and wait for it to know that every change committed before it has been heard. */
  lastHeard?: string;

  /** Listens for changes; until this resolves, nothing is kept. */
  async start(databaseUrl: string, log: Logger): Promise<void> {
    this.listener = new Listener({
      databaseUrl,
      channel: 'read_cache',
      log,
      what: 'read cache listener',
      hooks: {
        onNotify: (payload) => {
          this.lastHeard = payload;
          this.clear();
        },
        onUp: () => {
          this.clear();
          this.live = true;
        },
        onDown: () => {
          this.live = false;
          this.clear();
        },
      },
    });
    await this.listener.start();
    this.live = true;
  }

  async stop(): Promise<void> {
    this.live = false;
    this.clear();
    await this.listener?.stop();
  }

  /**
   * The value kept under `key`, else what `load` reads (kept unless null). `until` bounds how long a value may be
   * kept (a token's expiry), below the cache's own limit.
   */
  async get<T>(key: string, load: () => Promise<T | null>, until?: (value: T) => number): Promise<T | null> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value as T;
    const generation = this.generation;
    const value = await load();
    if (value !== null && this.live && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      // Kept values are shared by every request that reads them: frozen, so that none can change them for the others.
      this.entries.set(key, {
        value: typeof value === 'object' ? Object.freeze(value) : value,
        until: Math.min(now + MAX_AGE_MS, until?.(value) ?? Infinity),
      });
    }
    return value;
  }

  /** How many times the cache has emptied (a change heard, the connection lost or back). */
  get clears(): number {
    return this.generation;
  }

  /** Empties the cache now: this process has just committed a change the notification will also report. */
  changed(): void {
    this.clear();
  }

  private clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
