/**
 * The labels module's processes (docs/labels.md): a label's tracking from its hand-over to the parcel's last carrier
 * event, the sweep of interrupted purchases and the prune of rates. Deterministic code only; ids and small scalars
 * cross into history. The scheduled end of day (`labelEndOfDay`) is in workflowEndOfDay.ts, exported from here.
 */
import { condition, continueAsNew, proxyActivities, setHandler } from '@temporalio/workflow';
import {
  HAND_OVER_CHECKS,
  handedOverSignal,
  journeyQuery,
  TRACKING_POLLS_PER_RUN,
  voidedSignal,
  type JourneyProgress,
  type LabelActivities,
  type LabelTrackingInput,
  type LabelTrackingOutcome,
} from './contract.ts';

/**
 * A poll asks the carrier under its deadline (LABEL_CARRIER_TIMEOUT_MS, 10 s) and ingests in one transaction; a
 * timeout or the carrier's outage is retried here, backing off to 5 minutes, for as long as it lasts.
 */
const { labelTrackingStart, pollCarrierEvents } = proxyActivities<LabelActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '5 minutes' },
});

/** The sweep may finish many purchases, each a carrier call; it heartbeats per label. */
const { sweepLabelPurchases, pruneLabelRates } = proxyActivities<LabelActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumAttempts: 3 },
});

/**
 * `label-tracking-<order id>` (docs/labels.md, "Tracking of sandbox labels"): waits for the label's hand-over (at
 * most 30 compressed days: a label never used), then polls its carrier until the journey's last event, sleeping
 * until the time the carrier names; `voided` ends it at any point. After TRACKING_POLLS_PER_RUN polls it continues
 * as new with where the journey stands.
 */
export async function labelTracking(input: LabelTrackingInput): Promise<LabelTrackingOutcome> {
  let state: JourneyProgress['state'] = 'waiting_hand_over';
  let handedOverAt: string | null = input.resume?.handedOverAt ?? null;
  let lastEventId: string | null = input.resume?.lastEventId ?? null;
  let polls = 0;
  let voided = false;
  setHandler(handedOverSignal, ({ at }) => {
    handedOverAt ??= at;
  });
  setHandler(voidedSignal, () => {
    voided = true;
  });
  setHandler(journeyQuery, () => ({ state, handedOverAt, lastEventId, polls }));
  const end = (outcome: LabelTrackingOutcome): LabelTrackingOutcome => {
    state = 'ended';
    return outcome;
  };

  if (!input.resume) {
    // The hand-over's signal is sent after its commit; should it be lost (Temporal unreachable at that moment), the
    // label's own state says it: read again after each 1/HAND_OVER_CHECKS of the wait.
    let start = await labelTrackingStart({ orderId: input.orderId });
    for (let check = 1; ; check++) {
      if (start.voided) return end('voided');
      handedOverAt ??= start.handedOverAt;
      const step = (start.handOverWaitSeconds * 1000) / HAND_OVER_CHECKS;
      if (await condition(() => handedOverAt !== null || voided, step)) break;
      if (check === HAND_OVER_CHECKS) return end('not_handed_over');
      start = await labelTrackingStart({ orderId: input.orderId });
    }
  }
  if (voided) return end('voided');
  state = 'tracking';
  for (;;) {
    const answer = await pollCarrierEvents({ orderId: input.orderId, since: lastEventId, handedOverAt: handedOverAt! });
    polls += 1;
    lastEventId = answer.lastEventId;
    if (answer.voided) return end('voided');
    if (answer.nextCheckAt === null) return end('journey_ended');
    const wait = Date.parse(answer.nextCheckAt) - Date.now();
    if (voided || (wait > 0 && (await condition(() => voided, wait)))) return end('voided');
    if (polls >= TRACKING_POLLS_PER_RUN)
      return continueAsNew<typeof labelTracking>({
        orderId: input.orderId,
        businessId: input.businessId,
        resume: { handedOverAt: handedOverAt!, lastEventId },
      });
  }
}

/**
 * Run every minute by the schedule `label-purchase-sweep`: finishes the purchases left pending for over 2 minutes
 * (a process killed between the carrier's answer and its write; the carrier key buys once) and starts the tracking
 * of bought labels that have none.
 */
export async function labelPurchaseSweep(): Promise<{ purchases: number; trackingStarted: number }> {
  return sweepLabelPurchases();
}

/** Run hourly by the schedule `label-rate-prune`: deletes the rates unused and expired for over a day. */
export async function labelRatePrune(): Promise<number> {
  return pruneLabelRates();
}

export { labelEndOfDay } from './workflowEndOfDay.ts';
