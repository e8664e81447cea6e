/**
 * Bulk and async order intake (docs/orders.md, "Bulk and async intake"). Each row is one order exactly as
 * client_order_create takes it, validated inside the call with that operation's schema: a bad row is its own
 * result (its index and field errors), never the whole call's 422, and the good rows are created (per row, not
 * all-or-nothing, the same over REST, GraphQL and MCP). For the business's client admins and employees; another
 * business's batch is NOT_FOUND.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { offsetOf, pageParams } from '../../platform/catalog/schemas.ts';
import { defineOperation } from '../../platform/catalog/types.ts';
import { errors } from '../../platform/errors.ts';
import { STAFF } from '../../platform/roles.ts';
import { actorOf, afterOrdersPlaced, placeOrders } from '../orders/index.ts';
import type { OrderBatchInput } from './contract.ts';
import { ASYNC_BATCH_BODY_LIMIT, ASYNC_BATCH_MAX_ROWS, BULK_MAX_ORDERS } from './domain.ts';
import * as repo from './repo.ts';
import { startBatchProcess } from './start.ts';
import { AsyncRowView, BatchRowInput, FieldErrorView, presentRow, tellErrors, validateRow } from './views.ts';

const TAG = 'Client';

const EXAMPLE_ROW = {
  type: 'D' as const,
  scheduled_date: '2026-12-01',
  order_ref: 'SO-1001',
  recipient: {
    name: 'Jana Novakova',
    phone: '+420 601 234 567',
    address: { line1: 'Vodickova 710/31', city: 'Praha', postal_code: '110 00', country: 'CZ' },
  },
};
const SECOND_ROW = {
  ...EXAMPLE_ROW,
  order_ref: 'SO-1002',
  packages: [{ weight_grams: 1200 }, { weight_grams: 800 }],
};

const BulkResult = z.object({
  index: z.number().int().describe('Position of the row in `orders`, from 0'),
  result: z.boolean().describe('True when the row created an order'),
  order_id: z.number().int().optional(),
  tracking_number: z.string().optional(),
  packages: z.array(z.object({ position: z.number().int(), package_number: z.string() })).optional(),
  third_party_assignment: z
    .string()
    .nullable()
    .optional()
    .describe("The assignment number when one of the business's third-party rules handed the order to a provider"),
  errors: z
    .array(FieldErrorView)
    .optional()
    .describe('Why the row was refused, field by field; paths are inside the row (recipient.address.postal_code)'),
});

export const bulkCreateOrders = defineOperation({
  name: 'bulk_create_orders',
  summary: 'Create up to 100 local delivery orders in one call, with a result per row.',
  description: `Each row is one order, exactly as the body of client_order_create, validated row by row: a refused row answers its \`index\` and field \`errors\`, and the good rows are created all the same, in one transaction (per row, not all-or-nothing). The answer is 200 with one result per row in row order; \`succeeded\` and \`failed\` count them. Every created order is as client_order_create makes it (NEW_ORDER, its packages, order.created, the business's third-party rules). At most ${BULK_MAX_ORDERS} rows; more, or none, is VALIDATION_FAILED for the whole call, and so is a text with a control character anywhere in the body. Not idempotent: before retrying a call whose answer was lost, look for the rows' \`order_ref\` with get_orders. For larger imports use bulk_create_orders_async.`,
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'POST', path: '/v1/client/batchOrderCreate' },
  graphql: { name: 'clientBatchOrderCreate', kind: 'mutation' },
  mcp: { scope: 'orders:write', risk: 'high' },
  input: z
    .object({
      orders: z.array(BatchRowInput).min(1).max(BULK_MAX_ORDERS).describe(`The orders, 1 to ${BULK_MAX_ORDERS}`),
    })
    .strict(),
  output: z.object({
    result: z.literal(true),
    total: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
    results: z.array(BulkResult),
  }),
  examples: {
    input: { orders: [EXAMPLE_ROW, SECOND_ROW] },
    output: {
      result: true,
      total: 2,
      succeeded: 2,
      failed: 0,
      results: [
        {
          index: 0,
          result: true,
          order_id: 1042,
          tracking_number: 'TMS3F9A1C7B2E04',
          packages: [{ position: 1, package_number: 'TMS3F9A1C7B2E04' }],
          third_party_assignment: null,
        },
        {
          index: 1,
          result: true,
          order_id: 1043,
          tracking_number: 'TMS8C2D4E6F8A10',
          packages: [
            { position: 1, package_number: 'TMS8C2D4E6F8A10' },
            { position: 2, package_number: 'TMS1B3D5F7A9C21' },
          ],
          third_party_assignment: null,
        },
      ],
    },
  },
  async handler(input, ctx) {
    const checked = input.orders.map((row) => validateRow(row));
    const good = checked.flatMap((c, index) => (c.ok ? [{ index, input: c.input }] : []));
    const placed = await placeOrders(
      ctx.em,
      ctx.caller.businessId,
      good.map((g) => g.input),
      actorOf(ctx),
      { pricing: ctx },
    );
    const assignments = await afterOrdersPlaced(ctx, placed);
    const byIndex = new Map(good.map((g, i) => [g.index, i]));
    const results = checked.map((c, index): z.input<typeof BulkResult> => {
      const i = byIndex.get(index);
      if (i === undefined) return { index, result: false, errors: c.ok ? [] : tellErrors(c.errors, ctx.lang) };
      const p = placed[i]!;
      return {
        index,
        result: true,
        order_id: p.orderId,
        tracking_number: p.trackingNumber,
        packages: p.packageNumbers.map((number, k) => ({ position: k + 1, package_number: number })),
        third_party_assignment: assignments[i] ?? null,
      };
    });
    return {
      result: true as const,
      total: results.length,
      succeeded: placed.length,
      failed: results.length - placed.length,
      results,
    };
  },
});

const BatchStatus = z
  .enum(['queued', 'running', 'done'])
  .describe(
    'queued: stored, not yet taken up; running: creating its rows; done: every row handled and the postback sent',
  );

export const bulkCreateOrdersAsync = defineOperation({
  name: 'bulk_create_orders_async',
  summary: `Queue up to ${ASYNC_BATCH_MAX_ROWS} local delivery orders; answers the batch's asyncId at once.`,
  description: `The rows are stored and the call answers 202 with \`asyncId\` at once; the batch then runs as the process \`order-batch-<asyncId>\`, which creates the rows in chunks of 250, each chunk one transaction that marks its rows done, so a batch survives a restart of the service with no row created twice; a batch whose process could not be started at once stays queued and is started within about two minutes. Each row is one order exactly as the body of client_order_create and is validated when its chunk runs: a refused row is that row's result (its index and field errors), the good rows are created (per row, not all-or-nothing). Follow it with get_async_batch_result (GET /v1/client/async/{id}). When every row is handled, one order.create_async event with every row's result goes to the business's order_create_async_postback_url; a receiver with that URL set does not get order.created for the batch's orders. At most ${ASYNC_BATCH_MAX_ROWS} rows, and a REST body of at most 8 MiB (GraphQL and MCP: 1 MiB); more, or none, is VALIDATION_FAILED (413 PAYLOAD_TOO_LARGE for the body). Not idempotent: each call queues a new batch.`,
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: {
    method: 'POST',
    path: '/v1/client/batchOrderCreateAsync',
    status: 202,
    bodyLimit: ASYNC_BATCH_BODY_LIMIT,
  },
  graphql: { name: 'clientBatchOrderCreateAsync', kind: 'mutation' },
  mcp: { scope: 'orders:write', risk: 'high' },
  input: z
    .object({
      orders: z
        .array(BatchRowInput)
        .min(1)
        .max(ASYNC_BATCH_MAX_ROWS)
        .describe(`The orders, 1 to ${ASYNC_BATCH_MAX_ROWS}`),
    })
    .strict(),
  output: z.object({
    result: z.literal(true),
    asyncId: z.string().describe('The batch: GET /v1/client/async/{asyncId} answers its status and per-row results'),
    status: BatchStatus,
    total: z.number().int(),
  }),
  examples: {
    input: { orders: [EXAMPLE_ROW, SECOND_ROW] },
    output: { result: true, asyncId: '0b9c2d4e-7a51-4f0e-9d8c-3e2a1b6f5c40', status: 'queued', total: 2 },
  },
  async handler(input, ctx) {
    const { businessId } = ctx.caller;
    const asyncId = randomUUID();
    // Stored first, then started: the process's first chunk must find the rows. A batch whose start never happened
    // (the call died in between, or the start failed) is started by the sweep once it has been queued a minute.
    const batchId = await ctx.em.transactional((tx) =>
      repo.insertBatch(
        tx,
        { asyncId, businessId, createdBy: ctx.caller.id, actor: actorOf(ctx), lang: ctx.lang },
        input.orders,
      ),
    );
    const process: OrderBatchInput = { batchId, asyncId, businessId, total: input.orders.length };
    try {
      await startBatchProcess(ctx.temporal, process);
    } catch (err) {
      // The batch is stored and answered: the sweep (schedule order-batch-sweep) starts it within about two minutes.
      // Never removed here: a start whose answer was lost may have started the process all the same.
      ctx.log.warn({ err, asyncId }, 'an order batch process did not start; the sweep will start it');
    }
    return { result: true as const, asyncId, status: 'queued' as const, total: input.orders.length };
  },
});

export const asyncBatchResult = defineOperation({
  name: 'get_async_batch_result',
  summary: 'The status and per-row results of an async order batch, a page of rows at a time.',
  description:
    "Answers the batch's status (queued, running, done), its counts (`succeeded`, `failed`, `pending`) and a page of its rows in row order: each row's status (pending, created, failed), its order as it is now, or its field errors. `total` is the batch's row count, and `page` and `per_page` page its rows. Another business's batch, or an unknown id, is NOT_FOUND.",
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'GET', path: '/v1/client/async/{id}' },
  graphql: { name: 'clientAsyncBatch', kind: 'query' },
  mcp: { scope: 'orders:read', risk: 'low' },
  failures: { NOT_FOUND: 'No async batch of the business has this id' },
  input: z
    .object({
      id: z.string().min(1).max(64).describe('The asyncId that bulk_create_orders_async answered'),
      ...pageParams,
    })
    .strict(),
  output: z.object({
    result: z.literal(true),
    asyncId: z.string(),
    status: BatchStatus,
    total: z.number().int().describe('Rows in the batch'),
    succeeded: z.number().int(),
    failed: z.number().int(),
    pending: z.number().int(),
    created_at: z.string(),
    finished_at: z.string().nullable(),
    page: z.number().int(),
    per_page: z.number().int(),
    rows: z.array(AsyncRowView),
  }),
  async handler(input, ctx) {
    const batch = await repo.batchOf(ctx.em, ctx.caller.businessId, input.id);
    if (!batch) throw errors.notFound();
    const rows = await repo.rowResults(ctx.em, batch.id, input.per_page, offsetOf(input));
    return {
      result: true as const,
      asyncId: batch.async_id,
      status: batch.state,
      total: batch.total,
      succeeded: batch.succeeded,
      failed: batch.failed,
      pending: batch.total - batch.succeeded - batch.failed,
      created_at: new Date(batch.created_at).toISOString(),
      finished_at: batch.finished_at ? new Date(batch.finished_at).toISOString() : null,
      page: input.page,
      per_page: input.per_page,
      rows: rows.map((r) => presentRow(r, ctx.lang)),
    };
  },
});

export const ORDER_BATCH_OPERATIONS = [bulkCreateOrders, bulkCreateOrdersAsync, asyncBatchResult];
