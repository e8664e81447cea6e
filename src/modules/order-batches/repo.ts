/**
 * Data access of async order batches: plain SQL on order_batch and order_batch_row, each batch of rows in one
 * statement. The orders themselves are written by the orders module's placement (orders/placement.ts).
 */
import { executeBound, type Em } from '../../platform/db/orm.ts';
import type { Caller } from '../../platform/catalog/types.ts';
import type { FieldError } from '../../platform/errors.ts';
import type { Role } from '../../platform/roles.ts';
import type { OrderActor } from '../orders/index.ts';
import type { BatchCounts } from './contract.ts';
import type { BatchState, RowState } from './domain.ts';

export interface BatchRow {
  id: number;
  async_id: string;
  business_id: number;
  actor: OrderActor;
  lang: string;
  state: BatchState;
  total: number;
  succeeded: number;
  failed: number;
  created_at: Date;
  finished_at: Date | null;
}

const BATCH_COLUMNS =
  'id, async_id, business_id, actor, lang, state, total, succeeded, failed, created_at, finished_at';

/** Stores a batch and its rows (row_index from 0, in the order given), in the caller's transaction. */
export async function insertBatch(
  em: Em,
  batch: { asyncId: string; businessId: number; createdBy: number; actor: OrderActor; lang: string },
  rows: readonly unknown[],
): Promise<number> {
  const [row] = await executeBound<{ id: number }>(
    em,
    `insert into order_batch (async_id, business_id, created_by, actor, lang, total) values ($1, $2, $3, $4, $5, $6) returning id`,
    [batch.asyncId, batch.businessId, batch.createdBy, JSON.stringify(batch.actor), batch.lang, rows.length],
  );
  await executeBound(
    em,
    `insert into order_batch_row (batch_id, row_index, input)
     select $1, (t.n - 1)::int, t.value from jsonb_array_elements($2::jsonb) with ordinality as t(value, n)`,
    [row!.id, JSON.stringify(rows)],
  );
  return row!.id;
}

/** The batch as it is now, unlocked (what a chunk reads before its transaction), or null. */
export async function readBatch(em: Em, id: number): Promise<BatchRow | null> {
  const [row] = await executeBound<BatchRow>(em, `select ${BATCH_COLUMNS} from order_batch where id = $1`, [id]);
  return row ?? null;
}

/** Batches still queued `olderThanSeconds` after they were stored, oldest first, at most `limit`. */
export function queuedBatches(
  em: Em,
  olderThanSeconds: number,
  limit: number,
): Promise<{ id: number; async_id: string; business_id: number; total: number }[]> {
  return executeBound(
    em,
    `select id, async_id, business_id, total from order_batch
     where state = 'queued' and created_at < now() - make_interval(secs => $1) order by id limit $2`,
    [olderThanSeconds, limit],
  );
}

/** The batch, locked until the caller's transaction ends: one chunk or end step of a batch at a time. */
export async function lockBatch(em: Em, id: number): Promise<BatchRow | null> {
  const [row] = await executeBound<BatchRow>(em, `select ${BATCH_COLUMNS} from order_batch where id = $1 for update`, [
    id,
  ]);
  return row ?? null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A batch of the business by its async id, or null (for an id that is no UUID too). */
export async function batchOf(em: Em, businessId: number, asyncId: string): Promise<BatchRow | null> {
  if (!UUID.test(asyncId)) return null;
  const [row] = await executeBound<BatchRow>(
    em,
    `select ${BATCH_COLUMNS} from order_batch where business_id = $1 and async_id = $2`,
    [businessId, asyncId],
  );
  return row ?? null;
}

/** The next `limit` rows still pending, in row order. */
export function pendingRows(em: Em, batchId: number, limit: number): Promise<{ row_index: number; input: unknown }[]> {
  return executeBound(
    em,
    `select row_index, input from order_batch_row where batch_id = $1 and state = 'pending' order by row_index limit $2`,
    [batchId, limit],
  );
}

/** Which of these rows are still pending (in the caller's transaction, under the batch's lock). */
export async function stillPending(em: Em, batchId: number, rowIndexes: readonly number[]): Promise<Set<number>> {
  const rows = await executeBound<{ row_index: number }>(
    em,
    `select row_index from order_batch_row where batch_id = $1 and state = 'pending' and row_index = any($2::int[])`,
    [batchId, rowIndexes],
  );
  return new Set(rows.map((r) => r.row_index));
}

/** What became of one row. */
export interface RowOutcome {
  row_index: number;
  state: Exclude<RowState, 'pending'>;
  order_id: number | null;
  tracking_number: string | null;
  errors: FieldError[] | null;
}

/** Marks the rows handled and adds them to the batch's counts (which start it running); answers the counts. */
export async function recordOutcomes(em: Em, batchId: number, outcomes: readonly RowOutcome[]): Promise<BatchCounts> {
  if (outcomes.length > 0)
    await executeBound(
      em,
      `update order_batch_row r set state = o.state, order_id = o.order_id, tracking_number = o.tracking_number,
         errors = o.errors, handled_at = now()
       from jsonb_to_recordset($2::jsonb) as o(row_index int, state text, order_id int, tracking_number text, errors jsonb)
       where r.batch_id = $1 and r.row_index = o.row_index and r.state = 'pending'`,
      [batchId, JSON.stringify(outcomes)],
    );
  const created = outcomes.filter((o) => o.state === 'created').length;
  const [counts] = await executeBound<BatchCounts>(
    em,
    `update order_batch set succeeded = succeeded + $2, failed = failed + $3,
       state = case when state = 'queued' then 'running' else state end
     where id = $1 returning total, succeeded, failed`,
    [batchId, created, outcomes.length - created],
  );
  return counts!;
}

/** Marks the batch done; null when it already was (a retried end step). */
export async function endBatch(em: Em, batchId: number): Promise<BatchRow | null> {
  const [row] = await executeBound<BatchRow>(
    em,
    `update order_batch set state = 'done', finished_at = now() where id = $1 and state <> 'done'
     returning ${BATCH_COLUMNS}`,
    [batchId],
  );
  return row ?? null;
}

/** One row's result with its order as it is now (null once the order has been deleted, or for a refused row). */
export interface RowResult {
  row_index: number;
  state: RowState;
  order_id: number | null;
  tracking_number: string | null;
  errors: FieldError[] | null;
  order: {
    id: number;
    businessId: number;
    orderRef: string | null;
    trackingNumber: string;
    type: string;
    statusId: number;
  } | null;
}

/** The batch's rows in row order, `limit` of them from `offset` (all of them when limit is null). */
export function rowResults(em: Em, batchId: number, limit: number | null, offset = 0): Promise<RowResult[]> {
  return executeBound<RowResult>(
    em,
    `select r.row_index, r.state, r.order_id, r.tracking_number, r.errors,
       case when o.id is null then null else json_build_object('id', o.id, 'businessId', o.business_id,
         'orderRef', o.order_ref, 'trackingNumber', o.tracking_number, 'type', o.type, 'statusId', o.status_id) end as order
     from order_batch_row r left join delivery_order o on o.id = r.order_id
     where r.batch_id = $1 order by r.row_index limit $2 offset $3`,
    [batchId, limit, offset],
  );
}

/** Created rows whose orders have not had the order-created hooks yet, in row order: their order and postal code. */
export function unhookedRows(
  em: Em,
  batchId: number,
  limit: number,
): Promise<{ row_index: number; order_id: number; tracking_number: string; postal_code: string }[]> {
  return executeBound(
    em,
    `select row_index, order_id, tracking_number, input #>> '{recipient,address,postal_code}' as postal_code
     from order_batch_row where batch_id = $1 and state = 'created' and hooked_at is null order by row_index limit $2`,
    [batchId, limit],
  );
}

/** Marks rows' orders as past their order-created hooks. */
export async function markHooked(em: Em, batchId: number, rowIndexes: readonly number[]): Promise<void> {
  await executeBound(
    em,
    'update order_batch_row set hooked_at = now() where batch_id = $1 and row_index = any($2::int[])',
    [batchId, rowIndexes],
  );
}

/** The account that placed the batch as a caller of its business, or null once it is gone or moved. */
export async function creatorAsCaller(em: Em, batchId: number): Promise<(Caller & { businessId: number }) | null> {
  const [row] = await executeBound<{ id: number; name: string; email: string; role: Role; business_id: number }>(
    em,
    `select u.id, u.name, u.email, u.role, u.business_id from order_batch b
     join app_user u on u.id = b.created_by and u.business_id = b.business_id where b.id = $1`,
    [batchId],
  );
  return row
    ? {
        id: row.id,
        name: row.name,
        email: row.email,
        role: row.role,
        businessId: row.business_id,
        tokenHash: `order-batch:${batchId}`,
        via: 'session',
      }
    : null;
}
