import { proxyActivities } from '@temporalio/workflow';
import type { BatchCounts, OrderBatchActivities, OrderBatchInput } from './contract.ts';
import { CHUNK_ROWS, QUEUED_SWEEP_AFTER_SECONDS, QUEUED_SWEEP_LIMIT } from './domain.ts';

/**
 * A chunk is one transaction that marks its rows done with their orders, so a chunk retried after a killed worker
 * creates nothing twice; retries here are for the worker and the database. Its rows are priced before that
 * transaction, which may ask the road router once a row (up to ROUTER_TIMEOUT_MS each): the chunk heartbeats after
 * each priced row, so a killed worker's chunk is taken up again within 20 seconds, and the start-to-close bound only
 * caps a chunk that prices 250 rows against a slow router.
 */
const { createBatchChunk, runBatchHooks, finishBatch } = proxyActivities<OrderBatchActivities>({
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '20 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

const { startQueuedBatches } = proxyActivities<OrderBatchActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumAttempts: 3 },
});

/**
 * An async order batch (docs/orders.md, "Bulk and async intake"): creates its stored rows chunk by chunk until none
 * is pending, running the order-created hooks for each chunk's orders, then ends the batch with its postback. At most
 * 5,000 rows make at most 20 chunks of 250, so one run keeps a short history.
 */
export async function orderBatchWorkflow(input: OrderBatchInput): Promise<BatchCounts> {
  const limit = input.chunkRows ?? CHUNK_ROWS;
  for (;;) {
    const { handled } = await createBatchChunk({ batchId: input.batchId, limit });
    // The chunk's orders, committed, meet the business's rules (third-party hand-over) before the next chunk.
    while ((await runBatchHooks({ batchId: input.batchId, limit })) > 0);
    if (handled === 0) break;
  }
  return finishBatch({ batchId: input.batchId });
}

/**
 * Run every minute by the schedule `order-batch-sweep`: starts the process of each batch still queued a minute after
 * it was stored (the API stored it and then died, or lost Temporal's answer, before its process started). Answers
 * how many it started.
 */
export async function orderBatchSweepWorkflow(): Promise<number> {
  return startQueuedBatches({ olderThanSeconds: QUEUED_SWEEP_AFTER_SECONDS, limit: QUEUED_SWEEP_LIMIT });
}
