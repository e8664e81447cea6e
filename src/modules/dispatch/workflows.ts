import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import {
  autoAssignQuery,
  OFFER_EXPIRED,
  OFFER_NOT_YOURS,
  offerAnswerUpdate,
  orderGoneSignal,
  reportUpdate,
  type AutoAssignActivities,
  type AutoAssignInput,
  type AutoAssignOutcome,
  type AutoAssignSnapshot,
  type OfferAnswerArgs,
  type OfferSnapshot,
  type DriverReport,
  type ReportOutcome,
  type RouteDayActivities,
  type RouteDayInput,
} from './contract.ts';
import { judgeReport, MAX_OFFERS_DEFAULT } from './domain.ts';

const activityOptions = {
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
} as const;
const { rankDrivers, makeOffer, settleOffer } = proxyActivities<AutoAssignActivities>(activityOptions);
const { reportState, applyReport } = proxyActivities<RouteDayActivities>(activityOptions);

const refuse = (type: string, message: string) => ApplicationFailure.create({ type, message, nonRetryable: true });

/**
 * Auto-assign (docs/routes.md, "Dispatch and the driver's day"): ranks the active, on-duty drivers with the order's
 * skills by distance, then offers the order to each in turn. An offer puts the order on the driver's route at once
 * (order.assigned, source auto_assign); the driver's answer is the update `offerAnswer`, taken only from that driver
 * and before the deadline (a server timer: a worker's restart loses nothing). Accept ends the process `accepted`;
 * reject or no answer takes the order off the route and offers the next driver; none left ends it `exhausted`.
 * The order's cancellation (signal orderGone) withdraws the offer and ends it `cancelled`. An offer ends as its row
 * says (settleOffer's answer): an accept that lost to the deadline, a cancellation or a suspension is not `accepted`.
 * At most `maxOffers` (MAX_OFFERS_DEFAULT by default) drivers are offered; the process continues as new, with the
 * drivers left, when its history grows long.
 */
export async function autoAssignWorkflow(input: AutoAssignInput): Promise<AutoAssignOutcome> {
  let state: AutoAssignSnapshot['state'] = 'ranking';
  let offer: OfferSnapshot | null = null;
  let answer: OfferAnswerArgs | null = null;
  let gone = false;
  let offered = 0;
  /** The driver an offer is being written for (the activity makeOffer runs). */
  let making: number | null = null;
  const end = async (outcome: AutoAssignOutcome): Promise<AutoAssignOutcome> => {
    state = outcome;
    await condition(allHandlersFinished);
    return outcome;
  };

  const limit = input.maxOffers ?? MAX_OFFERS_DEFAULT;
  setHandler(autoAssignQuery, () => ({ state, offer, offered, maxOffers: limit }));
  setHandler(orderGoneSignal, () => {
    gone = true;
  });
  setHandler(
    offerAnswerUpdate,
    async (args) => {
      // An answer to the offer being written waits for it (the driver may read the committed offer first).
      await condition(() => gone || making === null || offer?.driverId === args.driverId);
      const current = offer;
      if (gone || !current || current.status !== 'open' || current.driverId !== args.driverId || answer !== null)
        throw refuse(OFFER_EXPIRED, 'no offer of the order is open');
      answer = args;
      await condition(() => current.status !== 'open');
      return { ...current };
    },
    {
      validator: (args) => {
        if (gone) throw refuse(OFFER_EXPIRED, 'the order was cancelled');
        if (making !== null) {
          if (args.driverId !== making) throw refuse(OFFER_NOT_YOURS, 'the order is offered to another driver');
          return;
        }
        if (!offer || offer.status !== 'open' || answer !== null)
          throw refuse(OFFER_EXPIRED, 'no offer of the order is open');
        if (args.driverId !== offer.driverId) throw refuse(OFFER_NOT_YOURS, 'the order is offered to another driver');
        if (Date.now() >= Date.parse(offer.deadline)) throw refuse(OFFER_EXPIRED, "the offer's deadline has passed");
      },
    },
  );

  const ranked = input.ranked ?? (await rankDrivers({ orderId: input.orderId, businessId: input.businessId }));
  if (ranked === null) return end(gone ? 'cancelled' : 'not_dispatchable');
  const runId = workflowInfo().runId;
  for (const [i, driverId] of ranked.entries()) {
    if (gone || offered >= limit) break;
    if (offered > 0 && workflowInfo().continueAsNewSuggested) {
      await condition(allHandlersFinished);
      if (!gone)
        await continueAsNew<typeof autoAssignWorkflow>({
          ...input,
          maxOffers: limit - offered,
          ranked: ranked.slice(i),
        });
      break;
    }
    making = driverId;
    const made = await makeOffer({
      orderId: input.orderId,
      businessId: input.businessId,
      driverId,
      runId,
      seq: offered + 1,
      timeoutSeconds: input.offerTimeoutSeconds,
      actorId: input.actorId,
    });
    const current: OfferSnapshot | null = typeof made === 'string' ? null : { ...made };
    if (current) {
      offer = current;
      answer = null;
    }
    making = null;
    if (made === 'driver_unavailable') continue;
    if (!current) return end(gone ? 'cancelled' : 'not_dispatchable');
    offered += 1;
    state = 'offering';
    await condition(() => answer !== null || gone, Math.max(1, Date.parse(current.deadline) - Date.now()));
    const given = answer as OfferAnswerArgs | null;
    const outcome = given ? (given.accept ? 'accepted' : 'rejected') : gone ? 'withdrawn' : 'timed_out';
    // The row says how the offer ended: withdrawn by a cancellation, or timed out (a suspended driver's accept).
    const settled = await settleOffer({ offerId: current.offerId, outcome, reason: given?.reason ?? null });
    current.status = settled;
    if (settled === 'accepted') return end('accepted');
    if (settled === 'withdrawn') return end('cancelled');
  }
  return end(gone ? 'cancelled' : 'exhausted');
}

/**
 * The driver's day (docs/routes.md): started by the route's first report (update-with-start), it judges each report
 * against the order's stops, one at a time, and applies a step in one transaction (activity applyReport). It ends
 * when every order stop of the route is finished, or at the end of the day after the route's date; it continues as
 * new when its history grows long.
 */
export async function routeDayWorkflow(input: RouteDayInput): Promise<'completed' | 'day_ended'> {
  let completed = false;
  /** The reports in the order they came: each starts when the one before has ended (FIFO). */
  let queue: Promise<unknown> = Promise.resolve();
  /** Numbers the reports of this run: the report id applyReport tells a retry by. */
  let received = 0;
  const judge = async (report: DriverReport, reportId: string): Promise<ReportOutcome> => {
    // The route's driver now (not the one the process started with) is checked by the activities: a report racing
    // a handover finds the order no longer on its route (not_on_route).
    const at = { routeId: input.routeId, businessId: input.businessId };
    const state = await reportState({ ...at, orderId: report.orderId, driverId: report.driverId });
    const judged = judgeReport(state, report.step);
    if (!judged.applied) {
      if (state.routeStatus === 'completed') completed = true;
      return { applied: false, reason: judged.reason, statusId: null };
    }
    const outcome = await applyReport({ ...at, report, reportId });
    if (outcome.applied && outcome.routeStatus === 'completed') completed = true;
    return outcome;
  };
  setHandler(reportUpdate, (report): Promise<ReportOutcome> => {
    received += 1;
    const reportId = `${workflowInfo().runId}/${received}`;
    const run = queue.then(() => judge(report, reportId));
    queue = run.catch(() => undefined);
    return run;
  });
  const dayEnds = Date.parse(input.dayEnds);
  await condition(() => completed || workflowInfo().continueAsNewSuggested, Math.max(1, dayEnds - Date.now()));
  await condition(allHandlersFinished);
  if (!completed && Date.now() < dayEnds && workflowInfo().continueAsNewSuggested)
    await continueAsNew<typeof routeDayWorkflow>(input);
  return completed ? 'completed' : 'day_ended';
}
