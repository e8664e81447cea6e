import pg from 'pg';
import type { Logger } from '../logger.ts';

/** Wait before listening again after the LISTEN connection was lost. */
const LISTEN_RETRY_MS = 1_000;

export interface ListenerHooks {
  onNotify(payload: string | undefined): void;
  /** Listening again after the connection was lost: notifications sent meanwhile are gone. */
  onUp?(): void;
  /** The connection is lost; no notification arrives until onUp. */
  onDown?(): void;
}

/**
 * LISTENs on one channel over a connection of its own. When that connection is lost (restart, failover), a new
 * one replaces it every second until it is back. `what` names it in the log, with what covers the gap.
 */
export class Listener {
  private client?: pg.Client;
  private stopped = false;
  private readonly databaseUrl: string;
  private readonly channel: string;
  private readonly log: Logger;
  private readonly what: string;
  private readonly hooks: ListenerHooks;

  constructor(opts: { databaseUrl: string; channel: string; log: Logger; what: string; hooks: ListenerHooks }) {
    if (!/^[a-z_]+$/.test(opts.channel)) throw new Error(`not a plain channel name: ${opts.channel}`);
    this.databaseUrl = opts.databaseUrl;
    this.channel = opts.channel;
    this.log = opts.log;
    this.what = opts.what;
    this.hooks = opts.hooks;
  }

  /** Connects and listens; throws when the first connection fails. */
  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on('notification', (n) => this.hooks.onNotify(n.payload));
    client.on('error', (err: Error & { code?: string }) => {
      // 57P01 admin_shutdown: PostgreSQL is stopping (Ctrl-C under `npm start` reaches it too), not a fault.
      if (err.code === '57P01')
        this.log.info(`${this.what} closed: the database is shutting down; listening again once it is back`);
      else
        this.log.warn({ err: { message: err.message, code: err.code } }, `${this.what} lost; listening again shortly`);
    });
    try {
      await client.connect();
      await client.query(`listen ${this.channel}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    client.once('end', () => {
      if (this.stopped) return;
      this.hooks.onDown?.();
      void this.listenAgain();
    });
    this.client = client;
  }

  private async listenAgain(): Promise<void> {
    while (!this.stopped) {
      await new Promise((r) => setTimeout(r, LISTEN_RETRY_MS));
      if (this.stopped) return;
      try {
        await this.start();
        this.hooks.onUp?.();
        return;
      } catch (err) {
        this.log.warn({ err: { message: (err as Error).message } }, `${this.what} not back yet; trying again`);
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.client?.end().catch(() => undefined);
  }
}
