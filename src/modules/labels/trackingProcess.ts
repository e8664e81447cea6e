/** Starting a label's tracking process (docs/labels.md, "Tracking of sandbox labels") once its purchase committed. */
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Em } from '../../platform/db/orm.ts';
import type { Logger } from '../../platform/logger.ts';
import { tellAfterCommit } from '../../platform/temporal/tell.ts';
import { noteTrackingStarted } from './repo/labelOrders.ts';
import { PROCESS_QUEUE } from '../../platform/temporal/queues.ts';
import {
  handedOverSignal,
  LABEL_TRACKING_WORKFLOW,
  labelTrackingWorkflowId,
  voidedSignal,
  type LabelTrackingInput,
} from './contract.ts';

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
  await noteTrackingStarted(em, input.orderId);
}

/**
 * Tells a label's tracking process that the carrier has its parcel. A process that is gone (it gave up waiting for
 * the hand-over, or was never started) is started again with the signal, so that a label handed over late is
 * followed all the same.
 */
export async function signalHandedOver(temporal: Client, input: LabelTrackingInput, at: Date): Promise<void> {
  await temporal.workflow.signalWithStart(LABEL_TRACKING_WORKFLOW, {
    workflowId: labelTrackingWorkflowId(input.orderId),
    taskQueue: PROCESS_QUEUE,
    args: [input],
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    signal: handedOverSignal,
    signalArgs: [{ at: at.toISOString() }],
  });
}

/** Tells a label's tracking process that its label was voided: it ends. */
export async function signalVoided(temporal: Client, orderId: number): Promise<void> {
  await signalIfRunning(temporal, orderId, (h) => h.signal(voidedSignal));
}

async function signalIfRunning(
  temporal: Client,
  orderId: number,
  send: (handle: ReturnType<Client['workflow']['getHandle']>) => Promise<void>,
): Promise<void> {
  try {
    await send(temporal.workflow.getHandle(labelTrackingWorkflowId(orderId)));
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
}

/**
 * Tells a label's process what was just committed, and never fails the call for it: the commit stands, and the
 * process finds out by itself (a label's process reads its hand-over and its void from the database; the
 * label-purchase-sweep starts the processes of bought labels that have none). A failure is logged.
 */
export function tellProcess(log: Logger, what: string, tell: () => Promise<void>): Promise<void> {
  return tellAfterCommit(tell, log, { what }, 'label process not told after the commit; it catches up by itself');
}
