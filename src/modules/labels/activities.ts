/**
 * The labels module's activities (docs/labels.md): a label's tracking process asks its carrier for the parcel's
 * events and ingests them through tracking's one ingest path; the sweep finishes interrupted purchases and starts
 * tracking that never started; the prune deletes rates nobody bought. The scheduled end of day's activity is in
 * endOfDayActivities.ts (merged with these in index.ts).
 */
import { processContext } from '../../../src/platform/catalog/processContext.ts';
import { Context } from '@temporalio/activity';
import type { BusinessContext } from '../../platform/catalog/types.ts';
import type { WorkerDeps } from '../../platform/module.ts';
import { QuotaCounter } from '../../platform/quotaCounter.ts';
import { checkDocument, ingestChecked, OTEP_VERSION } from '../tracking/index.ts';
import { CarrierError, type CarrierEvent } from './carriers/adapter.ts';
import {
  adapterFor,
  callCarrier,
  isCarrierCode,
  providerCodeOf,
  type CarrierCode,
  type CarrierEnv,
} from './carriers/registry.ts';
import type { LabelActivities, PollAnswer } from './contract.ts';
import { carrierKeyOf, PENDING_SWEEP_AFTER_MS } from './domain.ts';
import { runPurchase, type LabelEnv } from './operations/purchase.ts';
import { accountById, openAccount } from './repo/accounts.ts';
import { labelOrderById, stalePurchases } from './repo/labelOrders.ts';
import { providerIdOf } from './repo/orderFacts.ts';
import { pruneRates } from './repo/rates.ts';
import { handOverOf, packagesByCarrierNumber, untrackedLabels } from './repo/tracking.ts';
import { startLabelTracking } from './trackingProcess.ts';

/** Compressed days a label waits for its hand-over before its tracking process ends (docs/labels.md). */
export const HAND_OVER_WAIT_DAYS = 30;
/** After a carrier refusal that may not pass unchanged (a revoked key), the next poll is this much later. */
const REFUSED_POLL_RETRY_MS = 30 * 60_000;

const heartbeat = () => {
  try {
    Context.current().heartbeat();
  } catch {
    // Called outside an activity (a test calling the function directly): nothing to tell.
  }
};

export function createLabelActivities(deps: WorkerDeps): LabelActivities {
  const envOf = (): LabelEnv => ({
    em: deps.orm.em.fork(),
    config: deps.config,
    log: deps.log,
    temporal: deps.temporal,
  });

  return {
    async labelTrackingStart({ orderId }) {
      const label = await handOverOf(deps.orm.em.fork(), orderId);
      return {
        handOverWaitSeconds: HAND_OVER_WAIT_DAYS * deps.config.labels.sandboxDaySeconds,
        handedOverAt: label?.handed_over_at ? new Date(label.handed_over_at).toISOString() : null,
        voided: !label || label.state === 'voided',
      };
    },

    async pollCarrierEvents({ orderId, since, handedOverAt }): Promise<PollAnswer> {
      const em = deps.orm.em.fork();
      const log = deps.log.child({ orderId });
      const label = await labelOrderById(em, orderId);
      if (!label || label.state === 'voided') return { lastEventId: since, nextCheckAt: null, voided: true };
      if (!label.carrier_shipment_id || !isCarrierCode(label.carrier))
        throw new Error(`label order ${orderId} has no bought label of a known carrier`);
      const account = await accountById(em, label.business_id, label.carrier_account_id);
      if (!account) throw new Error(`label order ${orderId} has no carrier account ${label.carrier_account_id}`);
      const env: CarrierEnv = { em, config: deps.config, log };
      const adapter = adapterFor(label.carrier, env);
      let track;
      try {
        track = await callCarrier(env, adapter, openAccount(account), (call) =>
          adapter.track(
            call,
            {
              carrier_shipment_id: label.carrier_shipment_id!,
              tracking_numbers: label.carrier_tracking_numbers,
              idempotency_key: carrierKeyOf(orderId, label.attempt),
              handed_over_at: handedOverAt,
            },
            since,
          ),
        );
      } catch (err) {
        // A timeout or the carrier's outage: the activity's retries ask again.
        if (!(err instanceof CarrierError) || err.retryable) throw err;
        log.warn({ carrier: err.carrier, code: err.code, message: err.message }, 'the carrier refused a tracking poll');
        return { lastEventId: since, nextCheckAt: new Date(Date.now() + REFUSED_POLL_RETRY_MS).toISOString() };
      }
      if (track.events.length > 0) await ingestAsCarrier(deps, orderId, label.carrier, track.events, log);
      return { lastEventId: track.events.at(-1)?.id ?? since, nextCheckAt: track.next_check_at };
    },

    async sweepLabelPurchases() {
      const env = envOf();
      let purchases = 0;
      for (const orderId of await stalePurchases(env.em, PENDING_SWEEP_AFTER_MS)) {
        heartbeat();
        try {
          await runPurchase(envOf(), orderId);
          purchases += 1;
          deps.log.warn({ orderId }, 'a label purchase left pending was taken up by the sweep');
        } catch (err) {
          // One label's failure (its account gone) does not hold the others back; it is tried again next minute.
          deps.log.error({ err, orderId }, 'the sweep could not finish a label purchase');
        }
      }
      let trackingStarted = 0;
      for (const l of await untrackedLabels(env.em, PENDING_SWEEP_AFTER_MS)) {
        heartbeat();
        await startLabelTracking(deps.temporal, envOf().em, { orderId: l.order_id, businessId: l.business_id });
        trackingStarted += 1;
        deps.log.warn({ orderId: l.order_id }, 'the tracking of a bought label was started by the sweep');
      }
      return { purchases, trackingStarted };
    },

    async pruneLabelRates() {
      return pruneRates(deps.orm.em.fork());
    },
  };
}

/**
 * Writes a carrier's events through tracking's ingest as the carrier's provider business, as the carrier's own push
 * would (`otep_ingest`): each event names our package number (the carrier's number is its carrier_reference), so its
 * tracking.event webhooks, the OTEP timeline, public tracking and the order's status follow. Events of one moment
 * (a step, for every parcel) are one document, moments in order, so that a poll that finds several steps moves the
 * order through each of them as the carrier's pushes would have.
 */
async function ingestAsCarrier(
  deps: WorkerDeps,
  orderId: number,
  carrier: CarrierCode,
  events: readonly CarrierEvent[],
  log: WorkerDeps['log'],
): Promise<void> {
  const em = deps.orm.em.fork();
  const packages = await packagesByCarrierNumber(em, orderId);
  const moments = new Map<string, Record<string, unknown>[]>();
  for (const e of events) {
    const subject = packages.get(e.carrier_tracking_number);
    if (!subject) {
      log.warn({ eventId: e.id }, 'a carrier event names no package of its order');
      continue;
    }
    const moment = moments.get(e.occurred_at) ?? [];
    moments.set(e.occurred_at, moment);
    moment.push({
      otep_version: OTEP_VERSION,
      id: e.id,
      subject,
      occurred_at: e.occurred_at,
      status_code: e.status,
      description: e.description,
      ...(e.location ? { location: e.location } : {}),
    });
  }
  const providerId = await providerIdOf(em, providerCodeOf(carrier));
  const quotas = new QuotaCounter(deps.orm, deps.log);
  const ctx: BusinessContext = processContext(deps, {
    caller: {
      id: 0,
      name: carrier,
      email: '',
      role: 'delivery_provider',
      businessId: providerId,
      tokenHash: `label-tracking:${orderId}`,
      via: 'otep_key',
    },
    name: `label-tracking-${orderId}`,
    em,
    log,
    quotas,
  });
  try {
    const ordered = [...moments].sort(([a], [b]) => Date.parse(a) - Date.parse(b));
    for (const [, moment] of ordered) {
      const checked = checkDocument({ events: moment });
      const answer = await ingestChecked(ctx, 'otep', checked.events, checked.findings);
      for (const e of answer.events)
        if (e.status === 'rejected') log.warn({ event: e }, 'a carrier event was rejected on ingest');
    }
  } finally {
    await quotas.stop();
  }
}
