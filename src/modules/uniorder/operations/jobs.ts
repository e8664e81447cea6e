/**
 * Jobs of 500 (docs/uniorder.md, "Jobs of 500"): a batch of rates or creations stored at once and answered 202, run
 * as the process `uniorder-job-<job id>` item by item, lane by lane, and read back a page of items at a time.
 */
import { randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import { z } from 'zod';
import { offsetOf, pageParams } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { parseInput } from '../../../platform/catalog/validate.ts';
import { AppError, errors } from '../../../platform/errors.ts';
import { STAFF } from '../../../platform/roles.ts';
import { BUSINESS_ID } from '../../../platform/temporal/searchKeys.ts';
import {
  JOB_LIMIT,
  LANE_CONCURRENCY,
  RATE_LANE,
  SELF_LANE,
  SELF_LANE_CONCURRENCY,
  UNIORDER_JOB_QUEUE,
  UNIORDER_JOB_WORKFLOW,
  uniorderJobWorkflowId,
  type JobKind,
  type UniorderJobInput,
} from '../contract.ts';
import { kindOfRateId } from '../domain.ts';
import * as repo from '../repo/jobs.ts';
import { UniorderCreateInput, UniorderRateInput, type UniorderRateAnswer } from '../views.ts';
import type { uniorderJob } from '../workflows.ts';
import { refusalOf } from './items.ts';
import { orderView, pricesHiddenFor } from './view.ts';

/** The largest body of the two job paths: 500 rate items of about 1 KiB each, with room to spare. */
export const JOB_BODY_LIMIT = 2 * 1024 * 1024;

const TAG = 'Uniorder';

/**
 * Starts the job's process; false when it already runs or has ended well (the API's start and the sweep's raced, or
 * a first answer was lost). A run that failed or was terminated may be started again: its items are unfinished.
 */
export async function startJobProcess(client: Client, input: UniorderJobInput): Promise<boolean> {
  try {
    await client.workflow.start<typeof uniorderJob>(UNIORDER_JOB_WORKFLOW, {
      workflowId: uniorderJobWorkflowId(input.job_id),
      taskQueue: UNIORDER_JOB_QUEUE,
      args: [input],
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
      typedSearchAttributes: new TypedSearchAttributes([{ key: BUSINESS_ID, value: input.business_id }]),
    });
    return true;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw err;
  }
}

const JobItems = z.object({
  items: z
    .array(z.record(z.string(), z.unknown()))
    .min(1)
    .max(JOB_LIMIT)
    .describe(`1 to ${JOB_LIMIT} items, each judged on its own`),
});

const JobStatus = z
  .enum(['queued', 'running', 'done'])
  .describe('queued: stored, not yet taken up; running: its items are being run; done: every item reported');

const Accepted = z.object({
  result: z.literal(true),
  job_id: z.string().describe('The job: uniorder_job (GET /v1/uniorder/jobs/{id}) answers its status and items'),
  status: JobStatus,
  kind: z.enum(['rate', 'create']),
  total: z.number().int(),
});

/** An item judged when stored: its input and lane, or its refusal (stored failed, never run). */
async function storeJob(ctx: BusinessContext, kind: JobKind, items: readonly Record<string, unknown>[]) {
  const jobId = randomUUID();
  const judged = items.map((raw, index) => {
    try {
      if (kind === 'rate') return { raw, ok: true as const, rateId: null, key: null };
      const input = parseInput(UniorderCreateInput, raw);
      if (!kindOfRateId(input.rate_id)) throw errors.field('rate_id', 'uniorder.unknown_rate');
      return { raw, ok: true as const, rateId: input.rate_id, key: input.idempotency_key ?? `uj-${jobId}-${index}` };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return { raw, ok: false as const, refusal: refusalOf(ctx, err) };
    }
  });
  if (kind === 'rate')
    for (const j of judged)
      try {
        parseInput(UniorderRateInput, j.raw);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        Object.assign(j, { ok: false, refusal: refusalOf(ctx, err) });
      }
  const labelIds = judged.flatMap((j) => (j.ok && j.rateId && kindOfRateId(j.rateId) === 'label' ? [j.rateId] : []));
  const carriers = await repo.rateCarriers(ctx.em, ctx.caller.businessId, labelIds);
  const stored: repo.NewJobItem[] = judged.map((j) => {
    if (!j.ok) {
      const { ok: _ok, errors: fieldErrors, ...refusal } = j.refusal;
      return {
        input: j.raw,
        lane: kind === 'rate' ? RATE_LANE : SELF_LANE,
        idempotency_key: null,
        status: 'failed',
        result: refusal,
        errors: fieldErrors ?? null,
      };
    }
    const lane =
      kind === 'rate'
        ? RATE_LANE
        : kindOfRateId(j.rateId!) === 'self_delivery'
          ? SELF_LANE
          : // A label rate id no rate of the business has: its creation refuses it at once.
            (carriers.get(j.rateId!) ?? 'labels');
    return { input: j.raw, lane, idempotency_key: j.key, status: 'pending', result: null, errors: null };
  });
  await ctx.em.transactional((tx) =>
    repo.insertJob(
      tx,
      { id: jobId, businessId: ctx.caller.businessId, kind, createdBy: ctx.caller.id, lang: ctx.lang },
      stored,
    ),
  );
  const lanes: Record<string, number[]> = {};
  stored.forEach((s, index) => {
    if (s.status === 'pending') (lanes[s.lane] ??= []).push(index);
  });
  const input: UniorderJobInput = {
    job_id: jobId,
    business_id: ctx.caller.businessId,
    kind,
    total: stored.length,
    failed: stored.length - Object.values(lanes).flat().length,
    lanes,
  };
  // Stored first, then started: the process's items must find their rows. A job whose start never happened is
  // started by the sweep (schedule uniorder-job-sweep) once it has been queued a minute.
  try {
    await startJobProcess(ctx.temporal, input);
  } catch (err) {
    ctx.log.warn({ err, uniorderJobId: jobId }, 'a uniorder job process did not start; the sweep will start it');
  }
  return { result: true as const, job_id: jobId, status: 'queued' as const, kind, total: stored.length };
}

const JOB_RULES = `The items are stored and the call answers 202 at once with \`job_id\`; follow the job with uniorder_job (GET /v1/uniorder/jobs/{id}). Each item is validated when stored: an invalid one is stored failed with its errors and never runs. The job then runs as the process \`uniorder-job-<job id>\`, one item at a time per slot, at most ${LANE_CONCURRENCY} items at once per carrier (and for rates), ${SELF_LANE_CONCURRENCY} for self delivery items, the lanes side by side; it survives a restart of the service, and a job whose process could not start at once is started within about two minutes. At most ${JOB_LIMIT} items (more, or none, is VALIDATION_FAILED on \`items\`), and a REST body of at most 2 MiB (GraphQL and MCP: 1 MiB; 413 PAYLOAD_TOO_LARGE beyond). Not idempotent: each call queues a new job.`;

export const uniorderRateBatchAsync = defineOperation({
  name: 'uniorder_rate_batch_async',
  summary: `Queue up to ${JOB_LIMIT} rate requests as a job; answers the job's id at once (202).`,
  description: `Each item is a uniorder_rate input, rated as uniorder_rate rates it, as the caller. ${JOB_RULES} A rated item's result is the rate answer (\`rates\`, \`messages\`); an item that can have no rate is failed with its code and message.`,
  tag: TAG,
  roles: [...STAFF, 'customer'],
  business: true,
  // Each job counts as one quote call, as a rate batch does; its items are rated 4 at a time by its process.
  limit: 'quote',
  rest: { method: 'POST', path: '/v1/uniorder/rate/batch-async', status: 202, bodyLimit: JOB_BODY_LIMIT },
  graphql: { name: 'uniorderRateBatchAsync', kind: 'mutation' },
  mcp: { scope: 'uniorder:read', risk: 'low' },
  input: JobItems.strict(),
  output: Accepted,
  examples: {
    input: {
      items: [
        {
          type: 'D',
          recipient: {
            name: 'Ana Martin',
            address: { line1: '9 Av B', city: 'Lyon', postal_code: '69002', country: 'FR', lat: 45.76, lng: 4.83 },
          },
          parcels: [{ weight_grams: 1200 }],
          quote_labels: true,
        },
      ],
    },
    output: { result: true, job_id: '6f1c2d4e-7a51-4f0e-9d8c-3e2a1b6f5c40', status: 'queued', kind: 'rate', total: 1 },
  },
  async handler(input, ctx) {
    return storeJob(ctx, 'rate', input.items);
  },
});

export const uniorderCreateBatchAsync = defineOperation({
  name: 'uniorder_create_batch_async',
  summary: `Queue up to ${JOB_LIMIT} order creations at rates of uniorder_rate as a job; answers the job's id at once (202).`,
  description: `Each item is a uniorder_create input, created as uniorder_create creates it, as the caller. ${JOB_RULES} Each item buys with its own \`idempotency_key\`, or \`uj-<job id>-<index>\` when it has none, so an item run again after a restart finds its order and buys no label twice. A created item's result is the order view as it is when read; a refused one is failed with its code and message (a carrier's refusal is LABEL_PURCHASE_FAILED with the \`order_id\` of the order kept in status 60).`,
  tag: TAG,
  roles: [...STAFF, 'customer'],
  business: true,
  rest: { method: 'POST', path: '/v1/uniorder/batch-async', status: 202, bodyLimit: JOB_BODY_LIMIT },
  graphql: { name: 'uniorderCreateBatchAsync', kind: 'mutation' },
  mcp: { scope: 'uniorder:write', risk: 'high' },
  input: JobItems.strict(),
  output: Accepted,
  examples: {
    input: { items: [{ rate_id: 'lr_k2m4p6r8t2v4x6z2b4d6f8h2j4' }, { rate_id: 'sr_a2c4e6g8j2l4n6q8s2u4w6y8z2' }] },
    output: {
      result: true,
      job_id: '6f1c2d4e-7a51-4f0e-9d8c-3e2a1b6f5c40',
      status: 'queued',
      kind: 'create',
      total: 2,
    },
  },
  async handler(input, ctx) {
    return storeJob(ctx, 'create', input.items);
  },
});

const JobItemView = z.object({
  index: z.number().int().describe('Position of the item in `items`, from 0'),
  status: z.enum(['pending', 'done', 'failed']),
  result: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe(
      'done: the rate answer (rate jobs) or the order view as it is now (create jobs); failed: `code`, `message` and, for a refused label, `order_id`; null while pending',
    ),
  errors: z
    .array(z.object({ field: z.string(), message: z.string() }))
    .nullable()
    .describe('Why the item was refused, field by field (paths inside the item)'),
});

type Rate = UniorderRateAnswer['rates'][number];
const PRICE_FIELDS = ['currency', 'total_charge', 'tax', 'price_details', 'base_charge', 'extra_charges'] as const;

/** A stored rate answer with the prices of each family the reader's account hides left out. */
function hideRates(answer: Record<string, unknown>, hidden: { self_delivery: boolean; label: boolean }) {
  const rates = (answer.rates ?? []) as Rate[];
  let any = answer.price_hidden === true;
  const shown = rates.map((r) => {
    if (!hidden[r.kind]) return r;
    any = true;
    const out: Record<string, unknown> = { ...r };
    for (const f of PRICE_FIELDS) delete out[f];
    return { ...out, price_hidden: true };
  });
  const { price_hidden: _p, ...rest } = answer;
  return { ...rest, rates: shown, ...(any && { price_hidden: true }) };
}

export const uniorderJobRead = defineOperation({
  name: 'uniorder_job',
  summary: 'The status, counts and a page of the items of a uniorder job.',
  description:
    "Answers the job's status (queued, running, done), its counts (`succeeded`, `failed`, `pending`) and a page of its items in index order: each item's status (pending, done, failed), its result and its field errors. A rate item's result is its rate answer; a create item's is the order view as it is now. Prices are left out as the reader's account has them hidden (`price_hidden`). A customer account reads its own jobs only. Another business's job, an unknown id or one that is not a UUID is NOT_FOUND.",
  tag: TAG,
  roles: [...STAFF, 'customer'],
  business: true,
  rest: { method: 'GET', path: '/v1/uniorder/jobs/{id}' },
  graphql: { name: 'uniorderJob', kind: 'query' },
  mcp: { scope: 'uniorder:read', risk: 'low' },
  failures: { NOT_FOUND: 'No uniorder job of the business (of the customer account) has this id' },
  input: z
    .object({
      id: z.string().min(1).max(64).describe('The job_id a batch-async call answered'),
      ...pageParams,
    })
    .strict(),
  output: z.object({
    result: z.literal(true),
    job_id: z.string(),
    kind: z.enum(['rate', 'create']),
    status: JobStatus,
    total: z.number().int().describe('Items in the job'),
    succeeded: z.number().int(),
    failed: z.number().int(),
    pending: z.number().int(),
    created_at: z.string(),
    finished_at: z.string().nullable(),
    page: z.number().int(),
    per_page: z.number().int(),
    items: z.array(JobItemView),
  }),
  async handler(input, ctx) {
    const job = await repo.jobOf(ctx.em, ctx.caller.businessId, input.id);
    if (!job || (ctx.caller.role === 'customer' && job.created_by !== ctx.caller.id)) throw errors.notFound();
    const rows = await repo.jobItems(ctx.em, job.id, input.per_page, offsetOf(input));
    const hidden =
      job.kind === 'rate'
        ? { self_delivery: await pricesHiddenFor(ctx, 'self_delivery'), label: await pricesHiddenFor(ctx, 'label') }
        : null;
    const items = [];
    for (const r of rows) {
      let result = r.result as Record<string, unknown> | null;
      if (r.status === 'done' && result)
        result = hidden ? hideRates(result, hidden) : await orderNow(ctx, result.order_id as number);
      items.push({ index: r.item_index, status: r.status, result, errors: r.errors });
    }
    return {
      result: true as const,
      job_id: job.id,
      kind: job.kind,
      status: job.status,
      total: job.total,
      succeeded: job.succeeded,
      failed: job.failed,
      pending: job.total - job.succeeded - job.failed,
      created_at: new Date(job.created_at).toISOString(),
      finished_at: job.finished_at ? new Date(job.finished_at).toISOString() : null,
      page: input.page,
      per_page: input.per_page,
      items,
    };
  },
});

/** A created item's order as it is now, for this reader; only its id once the reader cannot see it. */
async function orderNow(ctx: BusinessContext, orderId: number): Promise<Record<string, unknown>> {
  try {
    const { result: _r, ...view } = await orderView(ctx, orderId);
    return view;
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') return { order_id: orderId };
    throw err;
  }
}

export const UNIORDER_JOB_OPERATIONS = [uniorderRateBatchAsync, uniorderCreateBatchAsync, uniorderJobRead];
