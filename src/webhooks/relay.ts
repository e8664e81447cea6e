import pg from 'pg';
import type { Client } from '@temporalio/client';
import type { Config } from '../config.ts';
import type { Orm } from '../db/orm.ts';
import { claimOutbox, fanOut, orphanedDeliveries, prepare, recordAttempts, type AttemptRecord, type DeliveryRow, type OutboxRow, type Receivers } from '../db/webhookDeliveryRepo.ts';
import { endpointsFor } from '../db/webhookEndpointRepo.ts';
import { settingsOfBusinesses } from '../db/webhookSettingsRepo.ts';
import type { Logger } from '../logger.ts';
import { ATTEMPTS_IN_FLIGHT, sendAttempt, type SendOptions } from './deliver.ts';
import { eachInPool } from './pool.ts';
import { startRetryWorkflows, type RoundToDrive } from './retryWorkflows.ts';

const BATCH = 100;
/**
 * Batches whose first attempts may be under way at once: the next batch is claimed and sent while earlier ones
 * wait on their receivers, so one slow receiver does not hold back every event behind it.
 */
const BATCHES_IN_FLIGHT = 3;
/** Safety net for a missed notification and for deliveries whose driver died. */
const SWEEP_MS = 5_000;
const ORPHAN_AFTER_SEC = 30;
/** Wait before listening again after the LISTEN connection was lost. */
const LISTEN_RETRY_MS = 1_000;

interface Batch {
  events: OutboxRow[];
  receivers: Receivers;
  created: DeliveryRow[];
}

export interface RelayDeps {
  orm: Orm;
  temporal: Client;
  config: Config;
  databaseUrl: string;
  log: Logger;
}

/**
 * The outbox relay: woken by NOTIFY, it claims events with SKIP LOCKED, fans them out to the configured
 * endpoints and makes each first attempt at once. Only a failed attempt starts a retry workflow.
 */
export class OutboxRelay {
  private readonly deps: RelayDeps;
  private readonly send: SendOptions;
  private listener?: pg.Client;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;
  private readonly sending = new Set<Promise<void>>();

  constructor(deps: RelayDeps) {
    this.deps = deps;
    this.send = { publicBaseUrl: deps.config.publicBaseUrl, allowPrivateTargets: deps.config.webhookAllowPrivateTargets };
  }

  async start(): Promise<void> {
    await this.listen();
    this.timer = setInterval(() => this.wake(true), SWEEP_MS);
    this.wake(true);
  }

  /** LISTENs on a connection of its own. When that connection is lost (restart, failover), a new one replaces it. */
  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.deps.databaseUrl });
    client.on('notification', () => this.wake());
    client.on('error', (err: Error & { code?: string }) => {
      // 57P01 admin_shutdown: PostgreSQL is stopping (Ctrl-C under `npm start` reaches it too), not a fault.
      if (err.code === '57P01') this.deps.log.info('outbox listener closed: the database is shutting down; listening again once it is back');
      else this.deps.log.warn({ err: { message: err.message, code: err.code } }, 'outbox listener lost; listening again shortly, the sweep covers the gap');
    });
    try {
      await client.connect();
      await client.query('listen outbox_event');
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    client.once('end', () => void this.listenAgain());
    this.listener = client;
  }

  private async listenAgain(): Promise<void> {
    while (!this.stopped) {
      await new Promise((r) => setTimeout(r, LISTEN_RETRY_MS));
      if (this.stopped) return;
      try {
        await this.listen();
        this.wake(true);
        return;
      } catch (err) {
        this.deps.log.warn({ err: { message: (err as Error).message } }, 'outbox listener not back yet; trying again');
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
    await Promise.all(this.sending);
    await this.listener?.end().catch(() => undefined);
  }

  /** Coalesces wake-ups: one pass at a time, and one more if something arrived meanwhile. */
  private wake(sweep = false): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass(sweep)
      .catch((err: unknown) => this.deps.log.error({ err }, 'outbox relay pass failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async pass(sweep: boolean): Promise<void> {
    while (!this.stopped) {
      while (this.sending.size >= BATCHES_IN_FLIGHT) await Promise.race(this.sending);
      const batch = await this.relayBatch();
      const sent: Promise<void> = this.firstAttempts(batch)
        .catch((err: unknown) => this.deps.log.error({ err }, 'first attempts of a relay batch failed; the sweep adopts its deliveries'))
        .finally(() => this.sending.delete(sent));
      this.sending.add(sent);
      if (batch.events.length < BATCH) break;
    }
    if (sweep) await this.adoptOrphans();
  }

  private async relayBatch(): Promise<Batch> {
    return this.deps.orm.em.fork().transactional(async (tx) => {
      const events = await claimOutbox(tx, BATCH);
      if (events.length === 0) return { events, receivers: { settings: [], endpoints: [] }, created: [] };
      const businesses = [...new Set(events.map((e) => e.business_id))];
      const providers = [...new Set(events.flatMap((e) => (e.provider_id === null ? [] : [e.provider_id])))];
      const receivers = { settings: await settingsOfBusinesses(tx, businesses), endpoints: await endpointsFor(tx, businesses, providers) };
      return { events, receivers, created: await fanOut(tx, events, receivers) };
    });
  }

  /** The first attempt of each new delivery (claimed at fan-out), sent concurrently and logged in one write. */
  private async firstAttempts({ events, receivers, created }: Batch): Promise<void> {
    if (created.length === 0) return;
    const eventOf = new Map(events.map((e) => [e.id, e]));
    const settingsOf = new Map(receivers.settings.map((s) => [s.id, s]));
    const endpointOf = new Map(receivers.endpoints.map((ep) => [ep.id, ep]));
    const records: AttemptRecord[] = [];
    await eachInPool(created, ATTEMPTS_IN_FLIGHT, async (d) => {
      const e = eventOf.get(d.outbox_event_id)!;
      const prepared = d.endpoint_id !== null ? prepare(e, { endpoint: endpointOf.get(d.endpoint_id)! }) : prepare(e, { settings: settingsOf.get(d.settings_id!)! });
      records.push(await sendAttempt(d, 1, prepared, this.send));
    });
    await recordAttempts(this.deps.orm.em.fork(), records);
    const byId = new Map(created.map((d) => [d.id, d]));
    const failed = records.filter((r) => r.outcome === 'retrying');
    await this.startRetries(failed.map((r) => ({
      id: r.deliveryId, sender: byId.get(r.deliveryId)!.sender, businessId: r.businessId, round: 0, attemptsMade: 1, roundBase: 0, lastAttemptAt: r.attemptedAt,
    })));
  }

  /** Deliveries left open by a crash (between fan-out and first attempt, or before the retry workflow started). */
  private async adoptOrphans(): Promise<void> {
    const orphans = await orphanedDeliveries(this.deps.orm.em.fork(), ORPHAN_AFTER_SEC, BATCH);
    await this.startRetries(orphans.map((o) => ({ id: o.id, sender: o.sender, businessId: o.business_id, round: o.round, attemptsMade: o.attempts - o.round_base, roundBase: o.round_base })));
  }

  private async startRetries(rounds: RoundToDrive[]): Promise<void> {
    await startRetryWorkflows({ ...this.deps, em: this.deps.orm.em.fork() }, rounds);
  }
}
