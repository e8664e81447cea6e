/** Third-party deliveries' answer at the orders module's orderProcesses hook: the order's live provider assignment. */
import type { OrderProcessesHook } from '../orders/index.ts';
import { thirdPartyWorkflowId } from './contract.ts';
import { liveAssignmentsOf } from './repo/orderReads.ts';

export const thirdPartyProcesses: OrderProcessesHook = async (ctx, order) =>
  (await liveAssignmentsOf(ctx.em, order.businessId, order.id)).map((a) => ({
    type: 'third-party',
    workflowId: thirdPartyWorkflowId(a.id),
    state: a.status,
    since: new Date(a.since),
    reference: a.number,
    carrier: true,
  }));
