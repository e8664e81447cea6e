/**
 * What a cancellation writes, whoever decides it (the API at once, or the provider's answer through the workflow's
 * activity): the order cancelled with everything that lets go of it, or the refusal sent as order.cancel_failed.
 * Each runs in the caller's transaction.
 */
import type { Em } from '../../platform/db/orm.ts';
import { insertOutboxEvents } from '../../platform/db/outbox.ts';
import {
  appendOrderTrail,
  carrierHeld,
  priceFamilyOf,
  changeOrderStatuses,
  ORDER_OPERATION,
  ORDER_STATUS,
  orderSummaryOf,
  runOrderCancelledHooks,
  type AfterCommit,
  type OrderActor,
  type OrderCancelContext,
  type OrderFacts,
} from '../orders/index.ts';

export type CancelledFacts = OrderFacts & { customerId: number | null; packageNumbers: readonly string[] };

/**
 * Moves the order to CANCELLED (operation type 3041, with order.status_change), sends order.cancelled (event id
 * OCN-<cancellation id>) and runs the orderCancelled hooks in the same transaction. Answers the hooks' work for
 * after the commit.
 */
export async function writeCancelled(
  tx: Em,
  order: CancelledFacts,
  cancellationId: number,
  ctx: Omit<OrderCancelContext, 'occurredAt'>,
  details: Record<string, unknown> = {},
): Promise<AfterCommit[]> {
  const occurredAt = new Date();
  await changeOrderStatuses(tx, [
    {
      order,
      change: {
        before: order.statusId,
        after: ORDER_STATUS.CANCELLED,
        operationType: ORDER_OPERATION.CANCELLED,
        description: 'order cancelled',
        ipAddress: ctx.actor.ip ?? undefined,
        actor: ctx.actor,
        details: { cancellation_id: cancellationId, ...details },
      },
      occurredAt,
    },
  ]);
  const cancelled = { ...order, statusId: ORDER_STATUS.CANCELLED };
  const eventId = `OCN-${cancellationId}`;
  await insertOutboxEvents(tx, [
    {
      businessId: order.businessId,
      customerId: order.customerId,
      eventId,
      eventType: 'order.cancelled',
      referenceType: 'order',
      referenceId: String(order.id),
      family: priceFamilyOf(order),
      carrierHeld: carrierHeld(order),
      payload: {
        event_id: eventId,
        event: 'order.cancelled',
        business_id: order.businessId,
        occurred_at: occurredAt.toISOString(),
        data: { order: orderSummaryOf(cancelled) },
      },
    },
  ]);
  return runOrderCancelledHooks(
    tx,
    {
      id: order.id,
      businessId: order.businessId,
      trackingNumber: order.trackingNumber,
      packageNumbers: order.packageNumbers,
      beforeStatus: order.statusId,
      cancellationId,
    },
    { ...ctx, occurredAt },
  );
}

/**
 * Records a refused cancellation in the audit trail (3042, the order unchanged) and sends order.cancel_failed (event
 * id OCF-<cancellation id>) to the business's order_cancel_failed_webhook_url and to its customer's, where a
 * carrier's code reads ORDER_CANCEL_REFUSED (webhooks/transform.ts).
 */
export async function writeRefusal(
  tx: Em,
  order: OrderFacts & { customerId: number | null },
  cancellationId: number,
  refusal: { code: string; message: string },
  actor: OrderActor,
  details: Record<string, unknown> = {},
): Promise<void> {
  const occurredAt = new Date();
  await appendOrderTrail(tx, [
    {
      orderId: order.id,
      businessId: order.businessId,
      operationType: ORDER_OPERATION.CANCEL_REFUSED,
      actor,
      beforeStatus: order.statusId,
      afterStatus: order.statusId,
      details: { cancellation_id: cancellationId, error_code: refusal.code, message: refusal.message, ...details },
      occurredAt,
    },
  ]);
  const eventId = `OCF-${cancellationId}`;
  await insertOutboxEvents(tx, [
    {
      businessId: order.businessId,
      customerId: order.customerId,
      eventId,
      eventType: 'order.cancel_failed',
      referenceType: 'order',
      referenceId: String(order.id),
      family: priceFamilyOf(order),
      carrierHeld: carrierHeld(order),
      payload: {
        event_id: eventId,
        event: 'order.cancel_failed',
        business_id: order.businessId,
        occurred_at: occurredAt.toISOString(),
        data: {
          order: orderSummaryOf(order),
          error_code: refusal.code,
          message: refusal.message,
          cancellation_id: cancellationId,
        },
      },
    },
  ]);
}
