/**
 * Partner locker deliveries' answer at the orders module's orderProcesses hook: an open delivery (workflow
 * locker-delivery-<id>) whose parcel reference is one of the order's package numbers.
 */
import type { OrderProcessesHook } from '../orders/index.ts';
import { lockerDeliveryWorkflowId } from './contract.ts';
import { openDeliveriesOfOrder } from './repo/orderReads.ts';

export const lockerDeliveryProcesses: OrderProcessesHook = async (ctx, order) =>
  (await openDeliveriesOfOrder(ctx.em, order.businessId, order.id)).map((d) => ({
    type: 'locker-delivery',
    workflowId: lockerDeliveryWorkflowId(d.id),
    state: d.status,
    since: new Date(d.since),
    reference: String(d.id),
  }));
