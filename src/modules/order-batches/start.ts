/**
 * Starting an async batch's process `order-batch-<asyncId>`: by the API right after the batch is stored, and by the
 * sweep for a batch left queued. Both start with the same id, so a batch gets one process however often it is asked.
 */
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import { BUSINESS_ID } from '../../platform/temporal/searchKeys.ts';
import { ORDER_BATCH_QUEUE, ORDER_BATCH_WORKFLOW, orderBatchWorkflowId, type OrderBatchInput } from './contract.ts';
import type { orderBatchWorkflow } from './workflows.ts';

/**
 * Starts the batch's process; false when it already runs or has ended well (a start that raced another, or one
 * whose first answer was lost). A run that failed or was terminated may be started again: its batch is unfinished.
 */
export async function startBatchProcess(client: Client, process: OrderBatchInput): Promise<boolean> {
  try {
    await client.workflow.start<typeof orderBatchWorkflow>(ORDER_BATCH_WORKFLOW, {
      workflowId: orderBatchWorkflowId(process.asyncId),
      taskQueue: ORDER_BATCH_QUEUE,
      args: [process],
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
      typedSearchAttributes: new TypedSearchAttributes([{ key: BUSINESS_ID, value: process.businessId }]),
    });
    return true;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw err;
  }
}
