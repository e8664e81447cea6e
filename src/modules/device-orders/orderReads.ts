/**
 * The device orders' answers at the orders module's read hooks: a device order still in its compartment is an open
 * process of its order, an open exception of it an order that needs a person. Read from the read model.
 */
import type { OrderExceptionsHook, OrderProcessesHook } from '../orders/index.ts';
import { deviceOrderWorkflowId } from './contract.ts';
import { openDeviceOrdersOf, openExceptionsOfOrders } from './repo/orderReads.ts';

export const deviceOrderProcesses: OrderProcessesHook = async (ctx, order) =>
  (await openDeviceOrdersOf(ctx.em, order.businessId, order.id)).map((d) => ({
    type: 'device-order',
    workflowId: deviceOrderWorkflowId(d.id),
    state: d.status,
    since: new Date(d.since),
    reference: String(d.id),
  }));

export const deviceOrderExceptions: OrderExceptionsHook = async (ctx, query) =>
  (await openExceptionsOfOrders(ctx.em, query)).map((x) => ({
    orderId: x.order_id,
    kind: 'device-order-exception',
    reason: `${x.type} (${x.severity})`,
    since: new Date(x.opened_at),
    reference: `device-order-${x.device_order_id}/exception-${x.id}`,
  }));
