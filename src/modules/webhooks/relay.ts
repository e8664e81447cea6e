import { Listener } from '../../platform/db/listener.ts';
import type { Client } from '@temporalio/client';
import type { Config } from '../../platform/config.ts';
import type { Em, Orm } from '../../platform/db/orm.ts';
import {
  CLAIM_IDLE_LIMIT_SEC,
  claimOutbox,
  extendClaimIdleLimit,
  insertPendingDeliveries,
  markPublished,
  orphanedDeliveries,
  prepare,
  recordAttempts,
  recordFirstAttempts,
  type AttemptOutcome,
} from './repo/deliveries.ts';
import type { Logger } from '../../platform/logger.ts';
import { ATTEMPTS_IN_FLIGHT, sendAttempt, type SendOptions } from './deliver.ts';
import { REQUEST_TIMEOUT_MS } from './outbound.ts';
import { planDeliveries, type PlannedDelivery } from './fanOut.ts';
import type { EventRouting } from './routing.ts';
import { eachInPool } from './pool.ts';
import { relayLag } from '../../platform/telemetry/metrics.ts';
import { startRetryWorkflows, type RoundToDrive } from './retryWorkflows.ts';

const BATCH = 200;
/**
 * Batches whose first attempts may be under way at once: the next batch is claimed and sent while earlier ones
 * wait on their receivers, so one slow receiver does not hold back every event behind it.
 */
const BATCHES_IN_FLIGHT = 3;
/** Events of failed batches remembered at most (see `suspects`). */
const SUSPECTS_KEPT = 10_000;

type Sent = { delivery: PlannedDelivery['delivery']; attempt: AttemptOutcome };
/** A careful batch once committed: what is left to send, and the ids of the deliveries written for it. */
type Written = { planned: PlannedDelivery[]; written: Map<string, number> };

/** How long first attempts may take at worst (every one timing out, 32 at a time), plus the margin for the write. */
const worstSendSec = (planned: PlannedDelivery[], marginSec: number) =>
  Math.ceil(planned.length / ATTEMPTS_IN_FLIGHT) * (REQUEST_TIMEOUT_MS / 1000) + marginSec;

/** The failed first attempts of written deliveries, as rounds for retry workflows. */
function failures(sent: Sent[], written: Map<string, number>): RoundToDrive[] {
  return sent.flatMap(({ delivery: d, attempt: a }) => {
    const id = written.get(d.delivery_key);
    return id !== undefined && a.outcome === 'retrying'
      ? [
          {
            id,
            sender: d.sender,
            businessId: d.business_id,
            round: 0,
            attemptsMade: 1,
            roundBase: 0,
            lastAttemptAt: a.attemptedAt,
          },
        ]
      : [];
  });
}

export interface RelayDeps {
  orm: Orm;
  temporal: Client;
  config: Config;
  databaseUrl: string;
  log: Logger;
  routing: EventRouting;
}

/**
 * The outbox relay: woken by NOTIFY, it claims events with SKIP LOCKED, fans them out to the configured
 * endpoints and makes each first attempt at once, then writes the deliveries with those attempts and marks the
 * events published, all in the claiming transaction. Only a failed attempt starts a retry workflow.
 */
export class OutboxRelay {
  private readonly deps: RelayDeps;
  private readonly sendOptions: SendOptions;
  private listener?: Listener;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;
  /** Events whose batch failed: a batch holding any of them is written the careful way (see deliverBatch). */
  private readonly suspects = new Set<number>();
  private readonly sending = new Set<Promise<void>>();

  constructor(deps: RelayDeps) {
    this.deps = deps;
    this.sendOptions = {
      publicBaseUrl: deps.config.publicBaseUrl,
      allowPrivateTargets: deps.config.webhookAllowPrivateTargets,
    };
  }

  async start(): Promise<void> {
    // NOTIFY wakes the relay at once; while the listener is away, the sweep covers the gap.
    this.listener = new Listener({
      databaseUrl: this.deps.databaseUrl,
      channel: 'outbox_event',
      log: this.deps.log,
      what: 'outbox listener',
      hooks: { onNotify: () => this.wake(), onUp: () => this.wake(true) },
    });
    await this.listener.start();
    // The sweep (RELAY_SWEEP_MS, 5 s by default) is the safety net for a missed notification and for deliveries whose driver died.
    this.timer = setInterval(() => this.wake(true), this.deps.config.relaySweepMs);
    this.wake(true);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
    await Promise.all(this.sending);
    await this.listener?.stop();
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
      if (this.stopped) break;
      const { claimed, done } = this.relayBatch();
      const sent: Promise<void> = done
        .catch((err: unknown) =>
          this.deps.log.error(
            { err },
            'relay batch failed; unpublished events are claimed again, written deliveries adopted by the sweep',
          ),
        )
        .finally(() => this.sending.delete(sent));
      this.sending.add(sent);
      if ((await claimed) < BATCH) break;
    }
    if (sweep) await this.adoptOrphans();
  }

  /**
   * One batch in one transaction: claim (`claimed` resolves with the count, so the next claim can start), fan
   * out, first attempts, one write. A relay that dies before the write leaves its events unpublished: the next
   * claim sends them again under the same delivery keys. Retry workflows start once the write is committed.
   *
   * A batch holding an event whose batch failed before is careful instead: it commits its deliveries (pending,
   * leased) and the published mark first, and sends after. A write that keeps failing (a bug, a schema out of
   * step) then stops the batch before its receivers hear from it again, instead of sending them its events anew
   * on every claim; a delivery whose attempt could not be recorded is adopted by the sweep once its lease ends.
   */
  private relayBatch(): { claimed: Promise<number>; done: Promise<void> } {
    let count!: (n: number) => void;
    const claimed = new Promise<number>((resolve) => {
      count = resolve;
    });
    const done = (async () => {
      let ids: number[] = [];
      const outcome = await this.deps.orm.em
        .fork()
        .transactional(async (tx): Promise<{ toSend: Written } | { failed: RoundToDrive[] }> => {
          const { claimed, events, receivers, lagSeconds } = await claimOutbox(tx, BATCH);
          for (const lag of lagSeconds) relayLag.observe(lag);
          ids = events.map((e) => e.id);
          count(claimed);
          const planned = planDeliveries(this.deps.routing, events, receivers);
          if (events.some((e) => this.suspects.has(e.id))) return { toSend: await this.writeFirst(tx, planned, ids) };
          return { failed: events.length ? await this.sendThenWrite(tx, planned, ids) : [] };
        })
        .catch((err: unknown) => {
          for (const id of ids) this.suspects.add(id);
          for (const id of this.suspects) if (this.suspects.size > SUSPECTS_KEPT) this.suspects.delete(id);
          throw err;
        });
      for (const id of ids) this.suspects.delete(id);
      await this.startRetries('toSend' in outcome ? await this.sendWritten(outcome.toSend) : outcome.failed);
    })().finally(() => count(0));
    return { claimed, done };
  }

  /** Makes every first attempt, 32 at a time. */
  private async send(planned: PlannedDelivery[]): Promise<Sent[]> {
    const sent: Sent[] = [];
    await eachInPool(planned, ATTEMPTS_IN_FLIGHT, async ({ delivery, event, receiver }) => {
      sent.push({ delivery, attempt: await sendAttempt(delivery, 1, prepare(event, receiver), this.sendOptions) });
    });
    return sent;
  }

  /** The usual way: first attempts while the claim is held, then one write; answers the failures. */
  private async sendThenWrite(tx: Em, planned: PlannedDelivery[], eventIds: number[]): Promise<RoundToDrive[]> {
    // The claim must outlive its slowest first attempts, with room for the write.
    const worst = worstSendSec(planned, this.deps.config.webhookLeaseMarginSec);
    if (worst > CLAIM_IDLE_LIMIT_SEC) await extendClaimIdleLimit(tx, worst);
    const sent = await this.send(planned);
    const written = new Map((await recordFirstAttempts(tx, sent, eventIds)).map((w) => [w.delivery_key, w.id]));
    return failures(sent, written);
  }

  /** The careful way, first part: deliveries written (leased for as long as their attempts may take) and events published. */
  private async writeFirst(tx: Em, planned: PlannedDelivery[], eventIds: number[]): Promise<Written> {
    const written = new Map(
      (
        await insertPendingDeliveries(
          tx,
          planned.map((p) => p.delivery),
          worstSendSec(planned, this.deps.config.webhookLeaseMarginSec),
        )
      ).map((w) => [w.delivery_key, w.id]),
    );
    await markPublished(tx, eventIds);
    return { planned: planned.filter((p) => written.has(p.delivery.delivery_key)), written };
  }

  /** The careful way, once committed: first attempts, then their record; answers the failures. */
  private async sendWritten({ planned, written }: Written): Promise<RoundToDrive[]> {
    const sent = await this.send(planned);
    await recordAttempts(
      this.deps.orm.em.fork(),
      sent.map(({ delivery, attempt }) => ({ ...attempt, deliveryId: written.get(delivery.delivery_key)! })),
    );
    return failures(sent, written);
  }

  /**
   * Open deliveries nobody drives, once their lease has ended: failures whose retry workflow never started (the
   * relay died between its write and the start), and a careful batch's deliveries whose attempts were never
   * recorded (the relay died while sending, or the record failed).
   */
  private async adoptOrphans(): Promise<void> {
    const orphans = await orphanedDeliveries(this.deps.orm.em.fork(), this.deps.config.webhookLeaseMarginSec, BATCH);
    await this.startRetries(
      orphans.map((o) => ({
        id: o.id,
        sender: o.sender,
        businessId: o.business_id,
        round: o.round,
        attemptsMade: o.attempts - o.round_base,
        roundBase: o.round_base,
      })),
    );
  }

  private async startRetries(rounds: RoundToDrive[]): Promise<void> {
    if (rounds.length) await startRetryWorkflows({ ...this.deps, em: this.deps.orm.em.fork() }, rounds);
  }
}
