/**
 * Bulk and async order intake (docs/orders.md, "Bulk and async intake"): the limits and the shapes of a row's result.
 * Deterministic (the batch workflow imports it).
 */

/** Orders one bulk_create_orders call takes (the specification's limit for the MCP tool, kept over REST). */
export const BULK_MAX_ORDERS = 100;

/** Rows one async batch takes. */
export const ASYNC_BATCH_MAX_ROWS = 5000;

/**
 * The body limit of POST /v1/client/batchOrderCreateAsync: a typical row is 300 to 600 bytes of JSON, so 5,000 rows
 * fit in about 3 MiB; rows with many packages or long notes may need the rest. Every other path keeps 1 MiB.
 */
export const ASYNC_BATCH_BODY_LIMIT = 8 * 1024 * 1024;

/** Rows one chunk of an async batch creates, in one transaction. */
export const CHUNK_ROWS = 250;

/**
 * A batch still queued this long after it was stored has no process yet (its API call died, or lost Temporal's
 * answer, between the two): the sweep starts it. A start from the API normally comes within milliseconds.
 */
export const QUEUED_SWEEP_AFTER_SECONDS = 60;

/** Batches one run of the sweep starts at most; the next minute's run takes the rest. */
export const QUEUED_SWEEP_LIMIT = 200;

/** The settings field whose URLs hear of a batch's orders in its postback instead of order_create_webhook_url. */
export const POSTBACK_URL_FIELD = 'order_create_async_postback_url';

/** Where a batch stands: stored and not yet taken up, creating its rows, or ended (its postback written). */
export type BatchState = 'queued' | 'running' | 'done';

/** Where a row stands: not yet handled, its order created, or refused with its field errors. */
export type RowState = 'pending' | 'created' | 'failed';

/** The event id of a batch's postback, stable across retries of the step that writes it. */
export const postbackEventId = (asyncId: string): string => `OCA-${asyncId}`;
