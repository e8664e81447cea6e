import type { EventSender } from '../../platform/events.ts';
import { createHash } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import type { Config } from '../../platform/config.ts';
import type { Em } from '../../platform/db/orm.ts';
import { markRetryWorkflowStarted } from './repo/deliveries.ts';
import type { Logger } from '../../platform/logger.ts';
import { NO_DUPLICATES } from '../../platform/temporal/startOptions.ts';
import { BUSINESS_ID } from '../../platform/temporal/searchKeys.ts';
import {
  RETRY_BATCH,
  retryMembersKey,
  WEBHOOK_RETRIES_WORKFLOW,
  WEBHOOK_DELIVERY_IDS,
  webhookRetriesWorkflowId,
  type RetryEntry,
  type WebhookRetriesInput,
  WEBHOOK_QUEUE,
} from './contract.ts';
import type { webhookRetriesWorkflow } from './workflows.ts';
import { eachInPool } from './pool.ts';
import { delayBeforeAttemptMs, maxAttempts } from './domain.ts';

/** A delivery whose current round needs a workflow to drive it. */
export interface RoundToDrive {
  id: number;
  sender: EventSender;
  businessId: number | null;
  round: number;
  /** Attempts already made in this round (the relay's first attempt: 1; a replay or resend: 0). */
  attemptsMade: number;
  /** Attempts made before this round began. */
  roundBase: number;
  /** Epoch ms of the attempt just made, when there was one. */
  lastAttemptAt?: number;
}

/** Starts in flight at once: a batch of failures must not wait on one round trip per workflow. */
const STARTS_IN_FLIGHT = 8;

type Deps = { temporal: Client; config: Config; em: Em; log: Logger };

/** When the round's next attempt is due: at once for a new round, else the sender's wait after the attempt just made. */
function dueAt(r: RoundToDrive, scale: number, now: number): number {
  if (r.attemptsMade === 0 || r.attemptsMade >= maxAttempts(r.sender)) return now;
  return (r.lastAttemptAt ?? now) + delayBeforeAttemptMs(r.sender, r.attemptsMade + 1, scale);
}

export function retriesWorkflowId(rounds: RoundToDrive[]): string {
  return webhookRetriesWorkflowId(
    rounds[0]!.id,
    createHash('sha256').update(retryMembersKey(rounds)).digest('hex').slice(0, 12),
  );
}

async function startOne(deps: Deps, rounds: RoundToDrive[]): Promise<boolean> {
  const now = Date.now();
  const deliveries: RetryEntry[] = rounds.map((r) => ({
    deliveryId: Number(r.id),
    sender: r.sender,
    attemptsMade: r.attemptsMade,
    roundBase: r.roundBase,
    dueAt: dueAt(r, deps.config.webhookRetryScale, now),
  }));
  const input: WebhookRetriesInput = { deliveries, scale: deps.config.webhookRetryScale };
  // The first wait is the start delay: the server holds the workflow, with no task for any worker, until it is due.
  const delayMs = Math.min(...deliveries.map((d) => d.dueAt)) - now;
  const businessId = rounds[0]!.businessId;
  const workflowId = retriesWorkflowId(rounds);
  try {
    await deps.temporal.workflow.start<typeof webhookRetriesWorkflow>(WEBHOOK_RETRIES_WORKFLOW, {
      workflowId,
      taskQueue: WEBHOOK_QUEUE,
      args: [input],
      ...(delayMs > 0 && { startDelay: delayMs }),
      typedSearchAttributes: new TypedSearchAttributes([
        { key: WEBHOOK_DELIVERY_IDS, value: rounds.map((r) => String(r.id)) },
        ...(businessId === null ? [] : [{ key: BUSINESS_ID, value: businessId }]),
      ]),
      ...NO_DUPLICATES,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) {
      deps.log.warn({ err, workflowId }, 'retry workflow not started; the sweep will try again');
      return false;
    }
  }
  await markRetryWorkflowStarted(
    deps.em,
    workflowId,
    rounds.map((r) => r.id),
  );
  return true;
}

/** Batches of at most RETRY_BATCH deliveries of one business, in the order given. */
function batches(rounds: RoundToDrive[]): RoundToDrive[][] {
  const byBusiness = Map.groupBy(rounds, (r) => r.businessId);
  return [...byBusiness.values()].flatMap((list) =>
    Array.from({ length: Math.ceil(list.length / RETRY_BATCH) }, (_, i) =>
      list.slice(i * RETRY_BATCH, (i + 1) * RETRY_BATCH),
    ),
  );
}

/**
 * Starts the workflows that drive these delivery rounds: one `webhook-retries-…` workflow per batch of up to 100
 * deliveries of one business, each delivery keeping its own schedule. A delivery records its workflow's id; a
 * start that fails leaves it without one, and the relay's sweep tries again. Answers the deliveries now driven.
 */
export async function startRetryWorkflows(deps: Deps, rounds: RoundToDrive[]): Promise<number[]> {
  const started: number[] = [];
  await eachInPool(batches(rounds), STARTS_IN_FLIGHT, async (batch) => {
    if (await startOne(deps, batch)) started.push(...batch.map((r) => r.id));
  });
  return started;
}
