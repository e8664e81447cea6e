/** The ship-out's process as the operations reach it: started with the row, told of each status the API writes. */
import { tellAfterCommit } from '../../../platform/temporal/tell.ts';
import type { BusinessContext } from '../../../platform/catalog/types.ts';
import { NO_DUPLICATES } from '../../../platform/temporal/startOptions.ts';
import { BUSINESS_ID } from '../../../platform/temporal/searchKeys.ts';
import { TypedSearchAttributes } from '@temporalio/common';
import {
  SHIPOUT_QUEUE,
  SHIPOUT_WORKFLOW,
  shipoutWorkflowId,
  statusSignal,
  type ShipoutInput,
  type ShipoutStatus,
} from '../contract.ts';
import type { shipoutWorkflow } from '../workflows.ts';

/** Starts the process of a ship-out about to be written (writeOnceStarted commits the row once it has started). */
export function startShipoutProcess(ctx: BusinessContext, input: ShipoutInput) {
  return ctx.temporal.workflow.start<typeof shipoutWorkflow>(SHIPOUT_WORKFLOW, {
    workflowId: shipoutWorkflowId(input.shipoutId),
    taskQueue: SHIPOUT_QUEUE,
    args: [input],
    typedSearchAttributes: new TypedSearchAttributes([{ key: BUSINESS_ID, value: input.businessId }]),
    ...NO_DUPLICATES,
  });
}

/**
 * Tells the process the status just committed; a process that has ended has nothing to hear. The change is
 * committed whatever happens here: a signal that fails is logged, never answered, and the process finds the status
 * itself (it re-reads the row while it waits for a price, and its unpaid expiry reads it under the lock).
 */
export function tellProcess(ctx: BusinessContext, shipoutId: number, status: ShipoutStatus): Promise<void> {
  return tellAfterCommit(
    () =>
      ctx.temporal.workflow
        .getHandle<typeof shipoutWorkflow>(shipoutWorkflowId(shipoutId))
        .signal(statusSignal, status),
    ctx.log,
    { shipoutId, status },
    'ship-out process not signalled',
  );
}
