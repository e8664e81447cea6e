/**
 * Cancellation and permanent deletion of orders (docs/orders.md, "Cancellation and deletion"): which order statuses
 * a cancellation or a deletion allows, and the states of a cancellation request.
 */
/**
 * A cancellation request: decided at once (`cancelled`, `refused`), or, for an order a delivery provider holds,
 * `awaiting_provider` until the provider accepts (`cancelled`), refuses (`refused`) or lets the deadline pass
 * (`timed_out`, a refusal too).
 */
export const CANCELLATION_STATUSES = ['awaiting_provider', 'cancelled', 'refused', 'timed_out'] as const;
export type CancellationStatus = (typeof CANCELLATION_STATUSES)[number];

/**
 * Statuses an order can be cancelled from: it has not gone out. A new order, one on hold, one back at the
 * warehouse after a failed attempt (12, 13), one at a warehouse (29, or the carrier's 33) and a label order kept
 * without its label (60).
 */
export const CANCELLABLE_STATUS_IDS: readonly number[] = [1, 8, 12, 13, 29, 33, 60];

/** The service's refusals of a cancellation (error codes of errorCodes.ts, and order.cancel_failed's `error_code`). */
export type CancelRefusalCode =
  'ORDER_GONE_OUT' | 'ORDER_FINISHED' | 'ORDER_ALREADY_CANCELLED' | 'ORDER_UNDER_INTERCEPTION';

/** Why an order in this status cannot be cancelled, or null when it can. */
export function cancelRefusal(statusId: number): CancelRefusalCode | null {
  if (CANCELLABLE_STATUS_IDS.includes(statusId)) return null;
  switch (statusId) {
    case 5:
      return 'ORDER_ALREADY_CANCELLED';
    case 3:
    case 14:
    case 15:
      return 'ORDER_FINISHED';
    case 48:
      return 'ORDER_UNDER_INTERCEPTION';
    default:
      // 2, 4, 6, 7, 43: with a driver or a carrier on its way.
      return 'ORDER_GONE_OUT';
  }
}

/**
 * Statuses an order can be deleted for good from: cancelled, or finished (delivered, refused by its recipient,
 * returned to its sender). The same final statuses end the order's need for a person (refusedCancellations).
 */
export const DELETABLE_STATUS_IDS: readonly number[] = [3, 5, 14, 15];

/**
 * A refusal by the service repeated within this many minutes (the order's newest request was refused with the same
 * code) writes nothing new: the caller is answered the same, and order.cancel_failed went out already.
 */
export const CANCEL_REFUSAL_REPEAT_MINUTES = 10;

/** How long a delivery provider has to accept or refuse a cancellation; no answer by then is a refusal. */
export const CANCEL_PROVIDER_TIMEOUT_MINUTES = 30;

/** The refusal code of a provider that did not answer in time. */
export const NO_ANSWER_CODE = 'PROVIDER_NO_ANSWER';
/** The refusal code of a provider that refused without giving its own. */
export const CARRIER_REFUSED_CODE = 'CARRIER_REFUSED';
