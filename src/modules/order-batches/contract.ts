/**
 * The async order batch process (docs/orders.md, "Bulk and async intake"), imported by the API (to start it) and by
 * the workflow. Workflow id `order-batch-<asyncId>`; the order_batch row and its order_batch_row rows are the read
 * model its activities write.
 */
import { PROCESS_QUEUE } from '../../platform/temporal/queues.ts';

export const ORDER_BATCH_WORKFLOW = 'orderBatchWorkflow';
export const ORDER_BATCH_QUEUE = PROCESS_QUEUE;
export const orderBatchWorkflowId = (asyncId: string): string => `order-batch-${asyncId}`;

/**
 * The sweep that starts the process of a batch left queued (its API call died, or lost Temporal's answer, between
 * storing the batch and starting its process): run every minute by the schedule `order-batch-sweep`.
 */
export const ORDER_BATCH_SWEEP_WORKFLOW = 'orderBatchSweepWorkflow';
export const ORDER_BATCH_SWEEP_SCHEDULE = 'order-batch-sweep';

export interface OrderBatchInput {
  batchId: number;
  asyncId: string;
  businessId: number;
  /** Rows of the batch, fixed when it was stored. */
  total: number;
  /** Rows a chunk creates; CHUNK_ROWS when absent (the workflow tests make it small). */
  chunkRows?: number;
}

/** The batch's counts, as its row holds them after a step. */
export interface BatchCounts {
  total: number;
  succeeded: number;
  failed: number;
}

/** What one chunk did. */
export interface ChunkResult {
  /** Rows the chunk handled (created or refused); 0 when none was pending. */
  handled: number;
  counts: BatchCounts;
}

/** The batch's activities, as they cross into history (activities.ts implements them). */
export type OrderBatchActivities = {
  /**
   * Handles the next `limit` pending rows in row order, in one transaction: each row is validated as
   * client_order_create validates its body, the good rows are priced before the transaction opens (heartbeating per
   * row), their orders are created, and every handled row is marked created or failed with its result. A chunk
   * retried after a killed worker finds its committed rows done and skips them, so no row creates two orders.
   */
  createBatchChunk(input: { batchId: number; limit: number }): Promise<ChunkResult>;
  /**
   * Runs the other modules' order-created hooks (a business's third-party rules) for up to `limit` orders the batch
   * created whose hooks have not run, as the batch's creator, each after its order committed, and marks them;
   * answers how many. A hook's failure is logged and the order kept, as after a single create.
   */
  runBatchHooks(input: { batchId: number; limit: number }): Promise<number>;
  /**
   * Ends the batch: marks it done and writes its order.create_async postback (event id OCA-<asyncId>) in one
   * transaction, once; a retry after the commit writes nothing more.
   */
  finishBatch(input: { batchId: number }): Promise<BatchCounts>;
  /**
   * Starts the process `order-batch-<asyncId>` of every batch still queued `olderThanSeconds` after it was stored
   * (at most `limit`, oldest first); a process that already runs or ran is left alone. Answers how many it started.
   */
  startQueuedBatches(input: { olderThanSeconds: number; limit: number }): Promise<number>;
};
