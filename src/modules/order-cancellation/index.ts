/**
 * Order cancellation and permanent deletion (docs/orders.md, "Cancellation and deletion"): an order that has not
 * gone out is cancelled at once; one a delivery provider holds waits for the provider's answer in workflow
 * `order-cancellation-<order id>` (contract.ts), whose read model is the order_cancellation row. A cancelled order
 * lets go of what held it through the orders module's `orderCancelled` hook point.
 */
import { defineModule } from '../../platform/module.ts';
import type { OrderExceptionsHook, OrderProcessesHook } from '../orders/index.ts';
import { createOrderCancellationActivities } from './activities.ts';
import {
  CANCELLATION_STATUS,
  ORDER_CANCELLATION_QUEUE,
  ORDER_CANCELLATION_WORKFLOW,
  orderCancellationWorkflowId,
} from './contract.ts';
import { ORDER_CANCELLATION_ERRORS } from './errorCodes.ts';
import { ORDER_CANCELLATION_EVENTS } from './events.ts';
import { ORDER_CANCELLATION_MESSAGES } from './messages.ts';
import { ORDER_CANCELLATION_OPERATIONS } from './operations.ts';
import { openCancellations, refusedCancellations } from './repo.ts';

/** cancel_order, which uniorder_cancel runs for a local order. */
export { orderCancel } from './operations.ts';

/** A cancellation waiting for its provider is an open process of the order (order_snapshot). */
const cancellationProcesses: OrderProcessesHook = async (ctx, order) =>
  (await openCancellations(ctx.em, order.id)).map((c) => ({
    type: 'order-cancellation',
    workflowId: orderCancellationWorkflowId(c.order_id),
    state: c.status,
    since: new Date(c.requested_at),
    reference: c.assignment_number,
  }));

/** A refused cancellation of an order still not cancelled needs a person (list_exceptions). */
const refusedCancellationExceptions: OrderExceptionsHook = async (ctx, query) =>
  (await refusedCancellations(ctx.em, query)).map((c) => ({
    orderId: c.order_id,
    kind: 'cancel-refused',
    reason: c.refusal_code ?? c.status,
    since: new Date(c.ended_at ?? c.requested_at),
    reference: `cancellation-${c.id}`,
  }));

export const orderCancellation = defineModule({
  name: 'order-cancellation',
  taskQueue: ORDER_CANCELLATION_QUEUE,
  events: ORDER_CANCELLATION_EVENTS,
  operations: ORDER_CANCELLATION_OPERATIONS,
  hooks: { orderProcesses: cancellationProcesses, orderExceptions: refusedCancellationExceptions },
  activities: createOrderCancellationActivities,
  workflows: [ORDER_CANCELLATION_WORKFLOW],
  messages: ORDER_CANCELLATION_MESSAGES,
  errorCodes: ORDER_CANCELLATION_ERRORS,
  searchAttributes: [CANCELLATION_STATUS],
});
