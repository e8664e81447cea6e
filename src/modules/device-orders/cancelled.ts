/** What a cancelled order means for its parcels in lockers (docs/orders.md, "Cancellation and deletion"). */
import { refusalOf } from '../../platform/temporal/refusals.ts';
import type { OrderCancelledHook } from '../orders/index.ts';
import { deviceOrderWorkflowId, openExceptionUpdate } from './contract.ts';
import type { deviceOrderWorkflow } from './workflows.ts';
import { storedDeviceOrdersOf } from './repo/orders.ts';

/**
 * The orders module's `orderCancelled` hook: a parcel of the cancelled order still in a compartment is flagged for
 * staff with an exception `other` of severity high, once the cancellation has committed. Its compartment is not freed
 * by itself, since the parcel is physically there: staff take it out (device_order_remove) and resolve the
 * exception (parcel_removed). An exception of that type open already is left as it is, so a retry opens none twice.
 */
export const flagStoredParcels: OrderCancelledHook = async (tx, order, ctx) => {
  const stored = await storedDeviceOrdersOf(tx, order.id);
  if (stored.length === 0) return;
  return async () => {
    for (const id of stored) {
      const handle = ctx.temporal.workflow.getHandle<typeof deviceOrderWorkflow>(deviceOrderWorkflowId(id));
      await handle
        .executeUpdate(openExceptionUpdate, { args: [{ type: 'other', severity: 'high', actorId: null }] })
        .catch((err: unknown) => {
          // Open already, or the parcel left meanwhile: nothing to flag.
          if (refusalOf(err) === null) throw err;
        });
    }
  };
};
