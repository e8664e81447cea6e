/**
 * How our own order statuses and OTEP codes relate. Our orders expose only a current status, so each
 * status change becomes one synthesized OTEP event; a carrier's OTEP event moves a carried order's status.
 */
import { ORDER_STATUS } from '../orders/index.ts';
import { STATUS_BY_ID } from './vocabulary.ts';

/** Order status -> the OTEP code of the event synthesized for a change into it (and its incident reason). */
export const OTEP_OF_ORDER_STATUS: ReadonlyMap<number, { code: string; reason?: string }> = new Map([
  [ORDER_STATUS.NEW_ORDER, { code: 'otep:core:created' }],
  [ORDER_STATUS.ON_THE_WAY, { code: 'otep:core:out_for_delivery' }],
  [ORDER_STATUS.DELIVERED, { code: 'otep:core:delivered' }],
  [ORDER_STATUS.DELIVERY_FAILED, { code: 'otep:core:delivery_failed', reason: 'otep:reason:other' }],
  [ORDER_STATUS.CANCELLED, { code: 'otep:core:cancelled' }],
  [ORDER_STATUS.PICKUP_STARTED, { code: 'otep:parcel:pickup_started' }],
  [ORDER_STATUS.PICKED_UP, { code: 'otep:core:picked_up' }],
  [ORDER_STATUS.HOLD, { code: 'otep:parcel:on_hold' }],
  [
    ORDER_STATUS.RESCHEDULE_NEEDED,
    { code: 'otep:parcel:delivery_rescheduled', reason: 'otep:reason:reschedule_requested' },
  ],
  [ORDER_STATUS.REDISPATCH_LATER, { code: 'otep:parcel:delivery_rescheduled', reason: 'otep:reason:other' }],
  [ORDER_STATUS.REFUSED_BY_RECIPIENT, { code: 'otep:core:rejected', reason: 'otep:reason:refused' }],
  [ORDER_STATUS.RETURNED_TO_SENDER, { code: 'otep:core:returned' }],
  [ORDER_STATUS.AT_WAREHOUSE, { code: 'otep:parcel:at_warehouse' }],
  [ORDER_STATUS.CARRIER_AT_WAREHOUSE, { code: 'otep:parcel:at_warehouse' }],
  [ORDER_STATUS.CARRIER_ON_THE_WAY, { code: 'otep:core:out_for_delivery' }],
  [ORDER_STATUS.INTERCEPTED, { code: 'otep:parcel:intercepted' }],
  [ORDER_STATUS.LABEL_PURCHASE_FAILED, { code: 'otep:core:exception', reason: 'otep:reason:label_failed' }],
]);

/** Universal OTEP code -> the status a carried order takes; codes not listed leave the status as it is. */
const ORDER_STATUS_OF_CORE: ReadonlyMap<string, number> = new Map([
  ['otep:core:received_at_facility', ORDER_STATUS.CARRIER_AT_WAREHOUSE],
  ['otep:core:departed_facility', ORDER_STATUS.CARRIER_ON_THE_WAY],
  ['otep:core:in_transit', ORDER_STATUS.CARRIER_ON_THE_WAY],
  ['otep:core:out_for_delivery', ORDER_STATUS.CARRIER_ON_THE_WAY],
  ['otep:core:delivery_failed', ORDER_STATUS.DELIVERY_FAILED],
  ['otep:core:delivered', ORDER_STATUS.DELIVERED],
  ['otep:core:rejected', ORDER_STATUS.REFUSED_BY_RECIPIENT],
  ['otep:core:cancelled', ORDER_STATUS.CANCELLED],
]);

/** Order statuses a carrier event never moves an order out of. */
export const FINAL_ORDER_STATUSES: ReadonlySet<number> = new Set([
  ORDER_STATUS.DELIVERED,
  ORDER_STATUS.CANCELLED,
  ORDER_STATUS.REFUSED_BY_RECIPIENT,
  ORDER_STATUS.RETURNED_TO_SENDER,
]);

/**
 * Order statuses a carrier event does not move an order out of either, though they are not final: an intercepted
 * order (48) stays so until its interception ends (docs/orders.md, "Interception"); the event is still recorded, and
 * one at a warehouse tells the interception its parcel is held.
 */
export const CARRIER_KEEPS_STATUS: ReadonlySet<number> = new Set([ORDER_STATUS.INTERCEPTED]);

/** True when a carrier's event means its parcel is at a warehouse (received at a facility, or a code refining it). */
export const atWarehouseCode = (statusCode: string): boolean =>
  orderStatusOfOtep(statusCode) === ORDER_STATUS.CARRIER_AT_WAREHOUSE;

/** The order status a carrier's event means, through the universal code a profile code refines. */
export function orderStatusOfOtep(statusCode: string): number | null {
  const status = STATUS_BY_ID.get(statusCode);
  if (!status) return null;
  return ORDER_STATUS_OF_CORE.get(status.refines ?? status.id) ?? null;
}
