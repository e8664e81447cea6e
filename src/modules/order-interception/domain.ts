/**
 * The interception's rules (docs/orders.md, "Interception"): which orders can be intercepted, the statuses an order
 * takes at each step, and the operation type of each step by the channel it came through.
 */
import { ORDER_OPERATION, ORDER_STATUS } from '../orders/index.ts';
import type { EndStep, InterceptOutcome, RequestChannel } from './contract.ts';

/** How long the parcel has, once the interception is in effect, to be reported at a warehouse. */
export const HOLD_DEADLINE_HOURS = 72;

/** The statuses of an order in transit, which an interception can stop. */
export const INTERCEPTABLE_STATUSES: ReadonlySet<number> = new Set([
  ORDER_STATUS.ON_THE_WAY,
  ORDER_STATUS.DELIVERY_FAILED,
  ORDER_STATUS.PICKUP_STARTED,
  ORDER_STATUS.PICKED_UP,
  ORDER_STATUS.RESCHEDULE_NEEDED,
  ORDER_STATUS.REDISPATCH_LATER,
  ORDER_STATUS.AT_WAREHOUSE,
  ORDER_STATUS.CARRIER_AT_WAREHOUSE,
  ORDER_STATUS.CARRIER_ON_THE_WAY,
]);

export const REJECTION_REASONS = [
  'delivered',
  'cancelled',
  'returned_to_sender',
  'refused_by_recipient',
  'not_in_transit',
  'already_intercepted',
  'carrier_held',
  'cancel_pending',
  'order_gone',
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];
/** The reason of a failure: the parcel was not held at a warehouse in time. */
export const NOT_HELD_IN_TIME = 'not_held_in_time';

/** Why an order in this status cannot be intercepted, or null when it can. */
export function rejectionOf(statusId: number): RejectionReason | null {
  if (INTERCEPTABLE_STATUSES.has(statusId)) return null;
  switch (statusId) {
    case ORDER_STATUS.DELIVERED:
      return 'delivered';
    case ORDER_STATUS.CANCELLED:
      return 'cancelled';
    case ORDER_STATUS.RETURNED_TO_SENDER:
      return 'returned_to_sender';
    case ORDER_STATUS.REFUSED_BY_RECIPIENT:
      return 'refused_by_recipient';
    case ORDER_STATUS.INTERCEPTED:
      return 'already_intercepted';
    default:
      // NEW_ORDER, HOLD, LABEL_PURCHASE_FAILED: not gone out yet; hold, reroute or cancel it instead.
      return 'not_in_transit';
  }
}

/** What a request is judged on, read with the order locked. */
export interface RequestedOrder {
  statusId: number;
  /** The delivery provider holding the order (third-party delivery), or null when the business carries it. */
  carrierProviderId: number | null;
  /** A request to cancel the order waits for its delivery provider's answer (order_cancellation awaiting_provider). */
  cancelPending: boolean;
}

/**
 * Why a request is rejected, or null when the order is intercepted. A cancellation waiting for its provider decides
 * first (`cancel_pending`); then an order a delivery provider holds is the provider's to stop (`carrier_held`): it has
 * the parcel and would not be told, and its tracking would keep moving the order. Then the status decides.
 */
export function requestRejection(o: RequestedOrder): RejectionReason | null {
  if (o.cancelPending) return 'cancel_pending';
  if (o.carrierProviderId != null && INTERCEPTABLE_STATUSES.has(o.statusId)) return 'carrier_held';
  return rejectionOf(o.statusId);
}

/**
 * A parcel held at a warehouse this long with neither its outcome carried out nor the interception withdrawn is
 * listed by list_exceptions (kind `intercept-held`): the held state has no deadline of its own, a person decides.
 */
export const HELD_EXCEPTION_HOURS = 72;

/** The status the order takes when the outcome is carried out. */
export function statusAfterOutcome(outcome: InterceptOutcome): number {
  switch (outcome) {
    case 'return_to_sender':
      return ORDER_STATUS.RETURNED_TO_SENDER;
    case 'hold_at_warehouse':
      return ORDER_STATUS.HOLD;
    case 'redeliver':
      return ORDER_STATUS.AT_WAREHOUSE;
  }
}

/**
 * The status the order takes when the interception is withdrawn or fails: the one it had before, or, once its
 * parcel is held at a warehouse, the warehouse status (the carrier's for an order a carrier holds).
 */
export function statusAfterRelease(statusBefore: number, held: boolean, carried: boolean): number {
  if (!held) return statusBefore;
  return carried ? ORDER_STATUS.CARRIER_AT_WAREHOUSE : ORDER_STATUS.AT_WAREHOUSE;
}

const API: ReadonlySet<RequestChannel> = new Set(['api', 'customer']);

/** The operation type of the order's move into 48. */
export const appliedOperation = (channel: RequestChannel) =>
  API.has(channel) ? ORDER_OPERATION.INTERCEPTED_API : ORDER_OPERATION.INTERCEPTED_BACK_OFFICE;

/**
 * The operation type of an ending step's move out of 48: the outcome by the interception's channel (an interception
 * asked through the API is carried out as one), a withdrawal by the channel of who withdrew it, a failure 3047.
 */
export function endOperation(step: EndStep, requestChannel: RequestChannel, actorChannel: RequestChannel | null) {
  if (step === 'failed') return ORDER_OPERATION.INTERCEPT_FAILED;
  if (step === 'outcome_executed')
    return API.has(requestChannel)
      ? ORDER_OPERATION.INTERCEPT_OUTCOME_API
      : ORDER_OPERATION.INTERCEPT_OUTCOME_BACK_OFFICE;
  return API.has(actorChannel ?? requestChannel)
    ? ORDER_OPERATION.INTERCEPT_WITHDRAWN_API
    : ORDER_OPERATION.INTERCEPT_WITHDRAWN_BACK_OFFICE;
}
