/**
 * The order lifecycle events (docs/routes.md, Dispatch and the driver's day): declared in events.ts, written by
 * routes and dispatch through this one builder, so that every one has the same envelope, reference and own event id.
 */
import type { NewOutboxEvent } from '../../../platform/db/outbox.ts';
import { carrierHeld, orderSummaryOf, priceFamilyOf, type OrderFacts } from './orders.ts';

/** The lifecycle events about an order (driver.on_duty_changed is about a driver: its module builds it). */
export type OrderLifecycleEvent =
  | 'order.assigned'
  | 'order.unassigned'
  | 'order.accepted'
  | 'order.rejected'
  | 'order.pickup_started'
  | 'order.picked_up'
  | 'order.on_the_way'
  | 'order.completed'
  | 'order.failed'
  | 'order.cancelled'
  | 'order.ready';

/**
 * One lifecycle event for the outbox. `eventId` is the event's own id, stable for what happened (a retry of the
 * same change must build the same id), e.g. `OLC-<trail row or stop id>.<event>`; `data` is what the event's
 * declaration adds to `order` (driver_id, source, reason...). `order` is the order as it is after the change.
 */
export function orderLifecycleEvent(
  order: OrderFacts & { customerId?: number | null },
  event: OrderLifecycleEvent,
  eventId: string,
  data: Record<string, unknown>,
  occurredAt: Date = new Date(),
): NewOutboxEvent {
  return {
    businessId: order.businessId,
    customerId: order.customerId ?? null,
    eventId,
    eventType: event,
    referenceType: 'order',
    referenceId: String(order.id),
    family: priceFamilyOf(order),
    carrierHeld: carrierHeld(order),
    payload: {
      event_id: eventId,
      event,
      business_id: order.businessId,
      occurred_at: occurredAt.toISOString(),
      data: { order: orderSummaryOf(order), ...data },
    },
  };
}
