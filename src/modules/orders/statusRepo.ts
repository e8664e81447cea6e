import type { Em } from '../../platform/db/orm.ts';
import { ORDER_OPERATION, statusCodeOf } from './domain.ts';

/** What events say about an order; an Order entity has these fields. */
export interface OrderFacts {
  id: number;
  businessId: number;
  orderRef?: string | null;
  trackingNumber: string;
  type: string;
  statusId: number;
  carrierProviderId?: number | null;
  createdAt?: Date | string;
}

export interface StatusChange {
  before: number | null;
  after: number;
  operationType: number;
  description: string;
  ipAddress?: string;
  /** The carrier's tracking event that caused the change: the timeline shows that event, not a synthesized one. */
  trackingEventId?: string | null;
}

/** The order as events describe it: what a receiver needs to find it, never the recipient's details. */
export function orderSummaryOf(o: OrderFacts) {
  return {
    id: o.id, order_ref: o.orderRef ?? null, tracking_number: o.trackingNumber, type: o.type,
    status_id: o.statusId, status: statusCodeOf(o.statusId),
  };
}

/** Held by another carrier: customers' deliveries are masked (transform.ts). */
export const carrierHeld = (o: OrderFacts) => o.carrierProviderId != null;

/**
 * Records one status change of an order and its order.status_change event in the caller's transaction (the
 * caller has already set `o.statusId` to `change.after` and flushed). The event id is OSC-<history row id>.
 */
export async function recordOrderStatusChange(em: Em, o: OrderFacts, change: StatusChange, occurredAt = new Date()): Promise<string> {
  const body = {
    event: 'order.status_change', business_id: o.businessId, occurred_at: occurredAt.toISOString(),
    data: {
      order: orderSummaryOf(o), before_status: change.before, after_status: change.after,
      operation_type: change.operationType, operation_description: change.description, ip_address: change.ipAddress ?? '',
    },
  };
  const [row] = await em.execute<{ event_id: string }[]>(
    `with h as (
       insert into order_status_change (order_id, business_id, before_status, after_status, operation_type, operation_description, occurred_at, tracking_event_id)
       values (?, ?, ?, ?, ?, ?, ?, ?) returning id)
     insert into outbox_event (business_id, event_id, event_type, reference_type, reference_id, payload, family, carrier_held)
     select ?, 'OSC-' || h.id, 'order.status_change', 'order', ?, jsonb_build_object('event_id', 'OSC-' || h.id) || ?::jsonb, 'local_delivery', ? from h
     returning event_id`,
    [o.id, o.businessId, change.before, change.after, change.operationType, change.description, occurredAt, change.trackingEventId ?? null,
      o.businessId, String(o.id), JSON.stringify(body), carrierHeld(o)]);
  return row!.event_id;
}

/** Records a new order's first history row and its order.created event (id ORC-<order id>) in the caller's transaction. */
export async function recordOrderCreated(em: Em, o: OrderFacts & { createdAt: Date | string }): Promise<void> {
  const occurredAt = new Date(o.createdAt);
  const body = { event_id: `ORC-${o.id}`, event: 'order.created', business_id: o.businessId, occurred_at: occurredAt.toISOString(), data: { order: orderSummaryOf(o) } };
  await em.execute(
    `with h as (
       insert into order_status_change (order_id, business_id, before_status, after_status, operation_type, operation_description, occurred_at)
       values (?, ?, null, ?, ?, 'order created', ?))
     insert into outbox_event (business_id, event_id, event_type, reference_type, reference_id, payload, family, carrier_held)
     values (?, ?, 'order.created', 'order', ?, ?::jsonb, 'local_delivery', ?)`,
    [o.id, o.businessId, o.statusId, ORDER_OPERATION.CREATED, occurredAt,
      o.businessId, body.event_id, String(o.id), JSON.stringify(body), carrierHeld(o)]);
}
