/**
 * The orders module's orderCancelled hook (docs/routes.md): a cancelled order leaves its driver's route, in the
 * cancel transaction (its open offer withdrawn, its pending stops gone), and after the commit its auto-assign
 * process, if one runs, is told so and ends `cancelled`. order.cancelled itself is sent by the cancellation
 * (OCN-<cancellation id>), to the lifecycle receivers as to every other.
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import type { OrderCancelledHook } from '../orders/index.ts';
import { releaseFinishedOrder, takeOrderOffRoute } from '../routes/index.ts';
import { autoAssignWorkflowId, orderGoneSignal } from './contract.ts';
import { withdrawOpenOffer } from './repo/offers.ts';
import { clearDriver } from './repo/orders.ts';

export const leaveRoute: OrderCancelledHook = async (tx, order, ctx) => {
  const withdrawn = await withdrawOpenOffer(tx, order.id);
  // Stops finished already (a failed attempt) stay on the route as what happened; the order leaves it.
  const off = await takeOrderOffRoute(tx, order.businessId, order.id, ctx.actor);
  if (off === 'stop_started') await releaseFinishedOrder(tx, order.businessId, order.id, ctx.actor);
  if (off === 'not_on_route') await clearDriver(tx, order.businessId, order.id);
  return async () => {
    await ctx.temporal.workflow
      .getHandle(autoAssignWorkflowId(order.id))
      .signal(orderGoneSignal)
      .catch((err: unknown) => {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
        if (withdrawn) ctx.log.warn({ orderId: order.id }, 'an open offer had no auto-assign process');
      });
  };
};
