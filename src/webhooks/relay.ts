import pg from 'pg';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import type { Config } from '../config.ts';
import type { Orm } from '../db/orm.ts';
import { claimOutbox, fanOut, markRetryWorkflowStarted, orphanedDeliveries, recordAttempts, type AttemptRecord, type DeliveryRow, type OutboxRow } from '../db/webhookDeliveryRepo.ts';
import { settingsOfBusinesses, type WebhookSettingsRow } from '../db/webhookSettingsRepo.ts';
import type { Logger } from '../logger.ts';
import { NO_DUPLICATES } from '../temporal/startOptions.ts';
import { SA } from '../temporal/searchAttributes.ts';
import { WEBHOOK_DELIVERY_WORKFLOW, webhookDeliveryWorkflowId, type WebhookDeliveryInput } from '../temporal/webhookContract.ts';
import { sendAttempt } from './deliver.ts';
import type { DeliverySender } from './schedule.ts';

const BATCH = 100;
const FIRST_ATTEMPTS_IN_FLIGHT = 32;
/** Safety net for a missed notification and for deliveries whose driver died. */
const SWEEP_MS = 5_000;
const ORPHAN_AFTER_SEC = 30;

interface Batch {
  events: OutboxRow[];
  settings: WebhookSettingsRow[];
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
  private listener?: pg.Client;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(deps: RelayDeps) {
    this.deps = deps;
  }

  async start(): Promise<void> {
    this.listener = new pg.Client({ connectionString: this.deps.databaseUrl });
    this.listener.on('notification', () => this.wake());
    this.listener.on('error', (err) => this.deps.log.warn({ err }, 'outbox listener lost; the sweep keeps the relay going'));
    await this.listener.connect();
    await this.listener.query('listen outbox_event');
    this.timer = setInterval(() => this.wake(true), SWEEP_MS);
    this.wake(true);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
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
      const batch = await this.relayBatch();
      await this.firstAttempts(batch);
      if (batch.events.length < BATCH) break;
    }
    if (sweep) await this.adoptOrphans();
  }

  private async relayBatch(): Promise<Batch> {
    return this.deps.orm.em.fork().transactional(async (tx) => {
      const events = await claimOutbox(tx, BATCH);
      if (events.length === 0) return { events, settings: [], created: [] };
      const settings = await settingsOfBusinesses(tx, [...new Set(events.map((e) => e.business_id))]);
      return { events, settings, created: await fanOut(tx, events, settings) };
    });
  }

  /** The first attempt of each new delivery (claimed at fan-out), sent concurrently and logged in one write. */
  private async firstAttempts({ events, settings, created }: Batch): Promise<void> {
    if (created.length === 0) return;
    const payloadOf = new Map(events.map((e) => [e.id, e.payload]));
    const secretOf = new Map(settings.map((s) => [s.id, s.sign_secret]));
    const queue = [...created];
    const records: AttemptRecord[] = [];
    await Promise.all(Array.from({ length: Math.min(FIRST_ATTEMPTS_IN_FLIGHT, queue.length) }, async () => {
      for (let d = queue.shift(); d; d = queue.shift()) {
        records.push(await sendAttempt(d, 1, payloadOf.get(d.outbox_event_id)!, secretOf.get(d.settings_id) ?? null, this.deps.config.publicBaseUrl));
      }
    }));
    await recordAttempts(this.deps.orm.em.fork(), records);
    const byId = new Map(created.map((d) => [d.id, d]));
    await this.startRetries(records.filter((r) => r.outcome === 'retrying').map((r) => ({ id: r.deliveryId, sender: byId.get(r.deliveryId)!.sender, attempts: 1, businessId: r.businessId })));
  }

  /** Deliveries left open by a crash (between fan-out and first attempt, or before the retry workflow started). */
  private async adoptOrphans(): Promise<void> {
    const orphans = await orphanedDeliveries(this.deps.orm.em.fork(), ORPHAN_AFTER_SEC, BATCH);
    await this.startRetries(orphans.map((o) => ({ ...o, businessId: null })));
  }

  private async startRetries(items: { id: number; sender: DeliverySender; attempts: number; businessId: number | null }[]): Promise<void> {
    const started: number[] = [];
    for (const item of items) {
      const input: WebhookDeliveryInput = { deliveryId: item.id, sender: item.sender, attemptsMade: item.attempts, scale: this.deps.config.webhookRetryScale };
      try {
        await this.deps.temporal.workflow.start(WEBHOOK_DELIVERY_WORKFLOW, {
          workflowId: webhookDeliveryWorkflowId(item.id),
          taskQueue: this.deps.config.taskQueue,
          args: [input],
          ...(item.businessId !== null && { typedSearchAttributes: new TypedSearchAttributes([{ key: SA.businessId, value: item.businessId }]) }),
          ...NO_DUPLICATES,
        });
        started.push(item.id);
      } catch (err) {
        if (err instanceof WorkflowExecutionAlreadyStartedError) started.push(item.id);
        else this.deps.log.warn({ err, deliveryId: item.id }, 'retry workflow not started; the sweep will try again');
      }
    }
    await markRetryWorkflowStarted(this.deps.orm.em.fork(), started);
  }
}
