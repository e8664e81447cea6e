/** Starting a label's tracking process (docs/labels.md, "Tracking of sandbox labels") once its purchase committed. */
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { executeBound, type Em } from '../../platform/db/orm.ts';
import { PROCESS_QUEUE } from '../../platform/temporal/queues.ts';
import { LABEL_TRACKING_WORKFLOW, labelTrackingWorkflowId, type LabelTrackingInput } from './contract.ts';

/** Starts `label-tracking-<order id>` (once: a running or finished one stays) and notes that it started. */
export async function startLabelTracking(temporal: Client, em: Em, input: LabelTrackingInput): Promise<void> {
  try {
    await temporal.workflow.start(LABEL_TRACKING_WORKFLOW, {
      workflowId: labelTrackingWorkflowId(input.orderId),
      taskQueue: PROCESS_QUEUE,
      args: [input],
      workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  await executeBound(
    em,
    'update label_order set tracking_started_at = now() where order_id = $1 and tracking_started_at is null',
    [input.orderId],
  );
}
