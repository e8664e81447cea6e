/**
 * Distribution's answers at the orders module's read hooks: a package still being distributed is an open process of
 * its order (workflow distribution-<package number>), a flagged scan no applied scan followed an order that needs
 * a person. Read from the read model.
 */
import type { OrderExceptionsHook, OrderProcessesHook } from '../orders/index.ts';
import { distributionWorkflowId } from './contract.ts';
import { openDistributionsOf, standingFlaggedScans } from './repo/orderReads.ts';

export const distributionProcesses: OrderProcessesHook = async (ctx, order) =>
  (await openDistributionsOf(ctx.em, order.businessId, order.id)).map((d) => ({
    type: 'distribution',
    workflowId: distributionWorkflowId(d.package_number),
    state: d.status,
    since: new Date(d.since),
    reference: d.package_number,
  }));

export const distributionExceptions: OrderExceptionsHook = async (ctx, query) =>
  (await standingFlaggedScans(ctx.em, query)).map((s) => ({
    orderId: s.order_id,
    kind: 'flagged-scan',
    reason: `${s.flag} (${s.action} of ${s.package_number})`,
    since: new Date(s.recorded_at),
    reference: `distribution-scan-${s.id}`,
  }));
