/**
 * Dispatch's Temporal contract (docs/routes.md, "Dispatch and the driver's day"), imported by the API and the
 * workflows: the auto-assign process `auto-assign-<order id>` (one at a time per order) and the driver's day
 * `route-<route id>` (started by the first report, update-with-start).
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import { PROCESS_QUEUE } from '../../platform/temporal/queues.ts';
import type { FailureReason, NotAppliedReason, ReportState, ReportStep } from './domain.ts';

export const DISPATCH_QUEUE = PROCESS_QUEUE;
export const AUTO_ASSIGN_WORKFLOW = 'autoAssignWorkflow';
export const ROUTE_DAY_WORKFLOW = 'routeDayWorkflow';
export const autoAssignWorkflowId = (orderId: number): string => `auto-assign-${orderId}`;
export const routeDayWorkflowId = (routeId: number): string => `route-${routeId}`;

// ---- Auto-assign ----

export interface AutoAssignInput {
  orderId: number;
  businessId: number;
  /** How long each driver has to answer. */
  offerTimeoutSeconds: number;
  /** The most drivers offered; null: MAX_OFFERS_DEFAULT (domain.ts). After continue-as-new: the offers left. */
  maxOffers: number | null;
  /** Who asked for it (the audit trail's actor of the offers). */
  actorId: number;
  /** Set by continue-as-new: the ranked drivers not offered yet (the new run does not rank again). */
  ranked?: number[];
}

/** The offer the process waits on. */
export interface OfferSnapshot {
  offerId: number;
  driverId: number;
  /** ISO 8601. */
  deadline: string;
  status: 'open' | 'accepted' | 'rejected' | 'timed_out' | 'withdrawn';
}

export interface AutoAssignSnapshot {
  state: 'ranking' | 'offering' | AutoAssignOutcome;
  offer: OfferSnapshot | null;
  /** Offers made by this run. */
  offered: number;
  /** The most offers this run makes (max_offers, MAX_OFFERS_DEFAULT by default; what is left after continue-as-new). */
  maxOffers: number;
}

export type AutoAssignOutcome = 'accepted' | 'exhausted' | 'cancelled' | 'not_dispatchable';

export interface OfferAnswerArgs {
  driverId: number;
  accept: boolean;
  reason: string | null;
}

/** The driver answers the current offer; answers once the answer is written. */
export const offerAnswerUpdate = defineUpdate<OfferSnapshot, [OfferAnswerArgs]>('offerAnswer');
export const autoAssignQuery = defineQuery<AutoAssignSnapshot>('status');
/** The order was cancelled (the orderCancelled hook): the process withdraws its offer and ends. */
export const orderGoneSignal = defineSignal('orderGone');

/** Failure types of a refused answer. */
export const OFFER_NOT_YOURS = 'OfferNotYours';
export const OFFER_EXPIRED = 'OfferExpired';

export type MadeOffer = OfferSnapshot | 'not_dispatchable' | 'driver_unavailable';

export type AutoAssignActivities = {
  /** The active, on-duty drivers with the order's skills, nearest first; null when the order is not dispatchable. */
  rankDrivers(input: { orderId: number; businessId: number }): Promise<number[] | null>;
  /**
   * Offers the order to the driver in one transaction (the offer row, the order on the driver's route, trail 3085,
   * order.assigned source auto_assign). Idempotent on (runId, seq).
   */
  makeOffer(input: {
    orderId: number;
    businessId: number;
    driverId: number;
    runId: string;
    seq: number;
    timeoutSeconds: number;
    actorId: number;
  }): Promise<MadeOffer>;
  /**
   * Writes how the offer ended (idempotent: an offer no longer open is left): accepted (4001, order.accepted);
   * rejected (4002, order.rejected, then off the route: order.unassigned reason reject); timed_out (order.unassigned
   * reason timeout); withdrawn (nothing sent: the order was cancelled). An accept from a driver no longer active and
   * on duty is timed_out. Answers the offer's final status, which may differ from the outcome asked for (the offer was
   * withdrawn by a cancellation, or closed already).
   */
  settleOffer(input: {
    offerId: number;
    outcome: 'accepted' | 'rejected' | 'timed_out' | 'withdrawn';
    reason: string | null;
  }): Promise<Exclude<OfferSnapshot['status'], 'open'>>;
};

// ---- The driver's day ----

export interface RouteDayInput {
  routeId: number;
  businessId: number;
  driverId: number;
  /** ISO 8601: the process ends then at the latest (the end of the day after the route's date, UTC). */
  dayEnds: string;
}

export interface DriverReport {
  orderId: number;
  driverId: number;
  step: ReportStep;
  failureReason: FailureReason | null;
  /** ISO 8601, when it happened on the device. */
  occurredAt: string;
  lat: number | null;
  lng: number | null;
}

export type ReportOutcome =
  | { applied: true; statusId: number; routeStatus: string }
  | { applied: false; reason: NotAppliedReason; statusId: number | null };

/** A report from the driver app; judged by the process, applied in one transaction. */
export const reportUpdate = defineUpdate<ReportOutcome, [DriverReport]>('report');

export type RouteDayActivities = {
  /**
   * The order's stops on the route and the steps applied to them; no stops when it is not on it or the route is not
   * the driver's now (a handover).
   */
  reportState(input: {
    routeId: number;
    businessId: number;
    orderId: number;
    driverId: number;
  }): Promise<RouteReportState>;
  /**
   * Applies a judged step in one transaction (judged again under the route's lock; idempotent on (stop, step)):
   * status change, stop, trail, lifecycle event, tracking.event with proof files. `reportId` (given by the process)
   * tells a retry of this activity (applied) from another report of the same step (repeated).
   */
  applyReport(input: {
    routeId: number;
    businessId: number;
    report: DriverReport;
    reportId: string;
  }): Promise<ReportOutcome>;
};

/** Failure type of a report sent to another driver's route process (kept for runs started before the check moved into the activities). */
export const NOT_YOUR_ROUTE = 'NotYourRoute';

/** What the process reads before judging: the judge's state and the route's status. */
export type RouteReportState = ReportState & { routeStatus: string };
