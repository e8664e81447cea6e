/** Assignments' answer at the orders module's orderProcesses hook: the order's active contractor assignment. */
import type { OrderProcessesHook } from '../orders/index.ts';
import { activeAssignmentOf } from './repo.ts';

export const contractorAssignmentProcesses: OrderProcessesHook = async (ctx, order) =>
  (await activeAssignmentOf(ctx.em, order.businessId, order.id)).map((a) => ({
    type: 'contractor-assignment',
    workflowId: null,
    state: 'active',
    since: new Date(a.assigned_at),
    reference: `assignment-${a.id} (contractor ${a.broker_id})`,
  }));
