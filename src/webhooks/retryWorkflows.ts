import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import type { Config } from '../config.ts';
import type { Em } from '../db/orm.ts';
import { markRetryWorkflowStarted } from '../db/webhookDeliveryRepo.ts';
import type { Logger } from '../logger.ts';
import { NO_DUPLICATES } from '../temporal/startOptions.ts';
import { SA } from '../temporal/searchAttributes.ts';
import { WEBHOOK_DELIVERY_WORKFLOW, webhookDeliveryWorkflowId, type WebhookDeliveryInput } from '../temporal/webhookContract.ts';
import { delayBeforeAttemptMs, maxAttempts, type DeliverySender } from './schedule.ts';

/** A delivery whose current round needs a workflow to drive it. */
export interface RoundToDrive {
  id: number;
  sender: DeliverySender;
  businessId: number | null;
  round: number;
  /** Attempts already made in this round (the relay's first attempt: 1; a replay or resend: 0). */
  attemptsMade: number;
  /** Attempts made before this round began. */
  roundBase: number;
  /** Epoch ms of the attempt just made, when there was one. */
  lastAttemptAt?: number;
}

/**
 * The wait before the workflow's first attempt, which the server keeps as the workflow's start delay: no worker
 * task runs until it is due. It counts from the attempt just made, not from now.
 */
function firstWaitMs(r: RoundToDrive, scale: number): number {
  if (r.attemptsMade === 0 || r.attemptsMade >= maxAttempts(r.sender)) return 0;
  return delayBeforeAttemptMs(r.sender, r.attemptsMade + 1, scale) - (r.lastAttemptAt === undefined ? 0 : Date.now() - r.lastAttemptAt);
}

/** Starts in flight at once: a batch of failures must not wait on one round trip per delivery. */
const STARTS_IN_FLIGHT = 16;

async function startOne(deps: { temporal: Client; config: Config; log: Logger }, r: RoundToDrive): Promise<boolean> {
  const input: WebhookDeliveryInput = { deliveryId: r.id, sender: r.sender, attemptsMade: r.attemptsMade, roundBase: r.roundBase, scale: deps.config.webhookRetryScale };
  const delayMs = firstWaitMs(r, deps.config.webhookRetryScale);
  try {
    await deps.temporal.workflow.start(WEBHOOK_DELIVERY_WORKFLOW, {
      workflowId: webhookDeliveryWorkflowId(r.id, r.round),
      taskQueue: deps.config.taskQueue,
      args: [input],
      ...(delayMs > 0 && { startDelay: delayMs }),
      ...(r.businessId !== null && { typedSearchAttributes: new TypedSearchAttributes([{ key: SA.businessId, value: r.businessId }]) }),
      ...NO_DUPLICATES,
    });
    return true;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return true;
    deps.log.warn({ err, deliveryId: r.id }, 'retry workflow not started; the sweep will try again');
    return false;
  }
}

/**
 * Starts one workflow per delivery round (`webhook-delivery-<id>`, then `-r<round>` for replays), marking the
 * deliveries driven. A start that fails leaves the delivery unmarked, and the relay's sweep tries again.
 */
export async function startRetryWorkflows(deps: { temporal: Client; config: Config; em: Em; log: Logger }, rounds: RoundToDrive[]): Promise<number[]> {
  const started: number[] = [];
  const queue = [...rounds];
  await Promise.all(Array.from({ length: Math.min(STARTS_IN_FLIGHT, queue.length) }, async () => {
    for (let r = queue.shift(); r; r = queue.shift()) {
      if (await startOne(deps, r)) started.push(r.id);
    }
  }));
  await markRetryWorkflowStarted(deps.em, started);
  return started;
}
