/**
 * Data access of uniorder jobs (docs/uniorder.md, "Jobs of 500"): plain SQL on uniorder_job and uniorder_job_item, a
 * job's items stored in one statement. The orders and labels themselves are written by the items' creations.
 */
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import type { Caller } from '../../../platform/catalog/types.ts';
import type { Role } from '../../../platform/roles.ts';
import type { JobCounts, JobItemStatus, JobKind, JobStatus, UniorderJobInput } from '../contract.ts';

export interface JobRow {
  id: string;
  business_id: number;
  kind: JobKind;
  status: JobStatus;
  total: number;
  succeeded: number;
  failed: number;
  created_by: number;
  lang: string;
  created_at: Date;
  finished_at: Date | null;
}

const JOB_COLUMNS =
  'id, business_id, kind, status, total, succeeded, failed, created_by, lang, created_at, finished_at';

/** A field error as an item keeps it, in the job's language. */
export interface ItemError {
  field: string;
  message: string;
}

/** Why an item failed, in the job's language: a create item's refusal names the order it kept. */
export interface ItemRefusal {
  code: string;
  message: string;
  order_id?: number;
}

/** An item as stored: pending, or failed already with the refusal that made it invalid. */
export interface NewJobItem {
  input: unknown;
  lane: string;
  idempotency_key: string | null;
  status: 'pending' | 'failed';
  result: ItemRefusal | null;
  errors: ItemError[] | null;
}

/** Stores a job and its items (item_index from 0, in the order given), in the caller's transaction. */
export async function insertJob(
  em: Em,
  job: { id: string; businessId: number; kind: JobKind; createdBy: number; lang: string },
  items: readonly NewJobItem[],
): Promise<void> {
  const failed = items.filter((i) => i.status === 'failed').length;
  await executeBound(
    em,
    `insert into uniorder_job (id, business_id, kind, total, failed, created_by, lang) values ($1, $2, $3, $4, $5, $6, $7)`,
    [job.id, job.businessId, job.kind, items.length, failed, job.createdBy, job.lang],
  );
  await executeBound(
    em,
    `insert into uniorder_job_item (job_id, item_index, input, lane, idempotency_key, status, result, errors, handled_at)
     select $1, (t.n - 1)::int, t.value -> 'input', t.value ->> 'lane', t.value ->> 'idempotency_key',
       t.value ->> 'status', nullif(t.value -> 'result', 'null'::jsonb), nullif(t.value -> 'errors', 'null'::jsonb),
       case when t.value ->> 'status' = 'failed' then now() end
     from jsonb_array_elements($2::jsonb) with ordinality as t(value, n)`,
    [job.id, JSON.stringify(items)],
  );
}

/**
 * The carrier of each of the business's label rates named (the lane a create item runs in). Uniorder reads the label
 * rates' table here as it reads the orders' for its view: one statement for 500 items.
 */
export async function rateCarriers(em: Em, businessId: number, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await executeBound<{ id: string; carrier: string }>(
    em,
    'select id, carrier from label_rate where business_id = $1 and id = any($2::text[])',
    [businessId, ids],
  );
  return new Map(rows.map((r) => [r.id, r.carrier]));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A job of the business by its id, or null (for an id that is no UUID too). */
export async function jobOf(em: Em, businessId: number, id: string): Promise<JobRow | null> {
  if (!UUID.test(id)) return null;
  const [row] = await executeBound<JobRow>(
    em,
    `select ${JOB_COLUMNS} from uniorder_job where business_id = $1 and id = $2`,
    [businessId, id],
  );
  return row ?? null;
}

/** One item of a job with what running it needs from its job. */
export interface ItemToRun {
  business_id: number;
  kind: JobKind;
  lang: string;
  input: unknown;
  idempotency_key: string | null;
  status: JobItemStatus;
}

export async function itemToRun(em: Em, jobId: string, index: number): Promise<ItemToRun | null> {
  const [row] = await executeBound<ItemToRun>(
    em,
    `select j.business_id, j.kind, j.lang, i.input, i.idempotency_key, i.status
     from uniorder_job_item i join uniorder_job j on j.id = i.job_id where i.job_id = $1 and i.item_index = $2`,
    [jobId, index],
  );
  return row ?? null;
}

/**
 * Writes an item's outcome and adds it to its job's counts (which start the job running), in the caller's
 * transaction; false when the item was no longer pending (another attempt wrote it first) and nothing changed.
 */
export async function recordItem(
  em: Em,
  jobId: string,
  index: number,
  outcome: { status: 'done' | 'failed'; result: unknown; errors: ItemError[] | null },
): Promise<boolean> {
  const written = await executeBound<{ item_index: number }>(
    em,
    `update uniorder_job_item set status = $3, result = $4::jsonb, errors = $5::jsonb, handled_at = now()
     where job_id = $1 and item_index = $2 and status = 'pending' returning item_index`,
    [
      jobId,
      index,
      outcome.status,
      JSON.stringify(outcome.result ?? null),
      outcome.errors && JSON.stringify(outcome.errors),
    ],
  );
  if (written.length === 0) return false;
  const done = outcome.status === 'done' ? 1 : 0;
  await executeBound(
    em,
    `update uniorder_job set succeeded = succeeded + $2, failed = failed + $3,
       status = case when status = 'queued' then 'running' else status end
     where id = $1`,
    [jobId, done, 1 - done],
  );
  return true;
}

/**
 * Ends the job once: an item still pending (its attempts spent) becomes failed with the refusal `lost` (in the job's language), and the job done with its
 * final counts. A job already done is left as it is. Answers the counts.
 */
export async function endJob(em: Em, jobId: string, lost: (lang: string) => ItemRefusal): Promise<JobCounts> {
  const [job] = await executeBound<JobRow>(em, `select ${JOB_COLUMNS} from uniorder_job where id = $1 for update`, [
    jobId,
  ]);
  if (!job) return { total: 0, succeeded: 0, failed: 0 };
  if (job.status !== 'done') {
    const left = await executeBound<{ item_index: number }>(
      em,
      `update uniorder_job_item set status = 'failed', result = $2::jsonb, handled_at = now()
       where job_id = $1 and status = 'pending' returning item_index`,
      [jobId, JSON.stringify(lost(job.lang))],
    );
    const [ended] = await executeBound<JobCounts>(
      em,
      `update uniorder_job set status = 'done', finished_at = now(), failed = failed + $2 where id = $1
       returning total, succeeded, failed`,
      [jobId, left.length],
    );
    return ended!;
  }
  return { total: job.total, succeeded: job.succeeded, failed: job.failed };
}

/** Jobs still queued `olderThanSeconds` after they were stored, oldest first, at most `limit`. */
export function queuedJobs(em: Em, olderThanSeconds: number, limit: number): Promise<{ id: string }[]> {
  return executeBound(
    em,
    `select id from uniorder_job
     where status = 'queued' and created_at < now() - make_interval(secs => $1) order by created_at limit $2`,
    [olderThanSeconds, limit],
  );
}

/** A stored job's process input: its pending items by lane, in index order. */
export async function processInputOf(em: Em, jobId: string): Promise<UniorderJobInput | null> {
  const [job] = await executeBound<JobRow>(em, `select ${JOB_COLUMNS} from uniorder_job where id = $1`, [jobId]);
  if (!job) return null;
  const items = await executeBound<{ item_index: number; lane: string }>(
    em,
    `select item_index, lane from uniorder_job_item where job_id = $1 and status = 'pending' order by item_index`,
    [jobId],
  );
  const lanes: Record<string, number[]> = {};
  for (const i of items) (lanes[i.lane] ??= []).push(i.item_index);
  return { job_id: job.id, business_id: job.business_id, kind: job.kind, total: job.total, failed: job.failed, lanes };
}

export interface JobItemRow {
  item_index: number;
  status: JobItemStatus;
  result: unknown;
  errors: ItemError[] | null;
}

/** A page of the job's items in index order. */
export function jobItems(em: Em, jobId: string, limit: number, offset: number): Promise<JobItemRow[]> {
  return executeBound<JobItemRow>(
    em,
    `select item_index, status, result, errors from uniorder_job_item where job_id = $1
     order by item_index limit $2 offset $3`,
    [jobId, limit, offset],
  );
}

/**
 * The account that made the job as a caller of its business, or null once it is gone, has left the business, or no
 * longer has a role the job's operations admit (staff or customer): an item runs with the rights its creator has now.
 */
export async function creatorAsCaller(em: Em, jobId: string): Promise<(Caller & { businessId: number }) | null> {
  const [row] = await executeBound<{ id: number; name: string; email: string; role: Role; business_id: number }>(
    em,
    `select u.id, u.name, u.email, u.role, u.business_id from uniorder_job j
     join app_user u on u.id = j.created_by and u.business_id = j.business_id
       and u.role in ('client_admin', 'employee', 'customer')
     where j.id = $1`,
    [jobId],
  );
  return row
    ? {
        id: row.id,
        name: row.name,
        email: row.email,
        role: row.role,
        businessId: row.business_id,
        tokenHash: `uniorder-job:${jobId}`,
        via: 'session',
      }
    : null;
}
