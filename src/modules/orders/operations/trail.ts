/** The audit trail's reads (docs/orders.md, "Reads: trail, find, snapshot, exceptions"). */
import { z } from 'zod';
import { errors } from '../../../platform/errors.ts';
import { intParam, pathId } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { STAFF } from '../../../platform/roles.ts';
import { namedOrders } from '../repo/reads.ts';
import { deletedOrdersInTrail, readOrderTrail, type TrailCursor, type TrailRow } from '../repo/trail.ts';

/** Most orders one trail read names, by id and by tracking number together. */
export const MAX_TRAIL_ORDERS = 50;
/** Most rows one page of the trail holds. */
export const MAX_TRAIL_PAGE = 500;

const CURSOR = /^[A-Za-z0-9_-]{1,200}$/;

const encodeCursor = (r: TrailRow): string => Buffer.from(`${r.at}~${r.kind}~${r.id}`).toString('base64url');

/** The cursor an earlier page answered; anything else is VALIDATION_FAILED on `cursor`. */
function decodeCursor(cursor: string | undefined): TrailCursor | null {
  if (cursor === undefined) return null;
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)~([01])~(\d{1,19})$/.exec(
    Buffer.from(cursor, 'base64url').toString(),
  );
  if (!m || Number.isNaN(Date.parse(m[1]!))) throw errors.field('cursor', 'field.invalid');
  return { at: m[1]!, kind: Number(m[2]) as 0 | 1, id: m[3]! };
}

const TrailEventView = z.object({
  id: z.string().describe('`E<n>` for a change, `W<n>` for a webhook delivery (the delivery log id n)'),
  order_id: z.number().int(),
  operation_type: z.number().int().describe('docs/order-statuses.md, "Operation types"; 9001 a webhook delivery'),
  occurred_at: z.string(),
  before_status: z.number().int().nullable(),
  after_status: z.number().int().nullable(),
  actor: z.object({
    user_id: z.number().int().nullable(),
    role: z.string().nullable(),
    source: z.enum(['api', 'mcp', 'carrier', 'device', 'scanner', 'system']),
    ip_address: z.string().nullable(),
  }),
  details: z.record(z.string(), z.unknown()),
});

const OrderKeyView = z.object({
  id: z.number().int(),
  order_ref: z.string().nullable(),
  tracking_number: z.string(),
  deleted: z.boolean().describe('The order was permanently deleted; its trail is kept'),
});

const presentEvent = (r: TrailRow): z.input<typeof TrailEventView> => ({
  id: `${r.kind === 0 ? 'E' : 'W'}${r.id}`,
  order_id: r.order_id,
  operation_type: r.operation_type,
  occurred_at: new Date(r.occurred_at).toISOString(),
  before_status: r.before_status,
  after_status: r.after_status,
  actor: {
    user_id: r.actor_id,
    role: r.actor_role,
    source: r.source as z.input<typeof TrailEventView>['actor']['source'],
    ip_address: r.ip_address,
  },
  details: r.details,
});

const pageInput = {
  cursor: z.string().regex(CURSOR).optional().describe('`next_cursor` of the previous page; absent for the first page'),
  limit: intParam(MAX_TRAIL_PAGE).default(100).describe(`Rows per page, at most ${MAX_TRAIL_PAGE}`),
  include_webhooks: z.boolean().default(true).describe('Merge the webhook deliveries about the orders (type 9001)'),
};

async function trailPage(
  ctx: BusinessContext,
  orderIds: number[],
  input: { cursor?: string; limit: number; include_webhooks: boolean },
) {
  const rows = await readOrderTrail(ctx.em, ctx.caller.businessId, orderIds, {
    after: decodeCursor(input.cursor),
    limit: input.limit + 1,
    webhooks: input.include_webhooks,
  });
  const page = rows.slice(0, input.limit);
  return {
    events: page.map(presentEvent),
    next_cursor: rows.length > input.limit ? encodeCursor(page.at(-1)!) : null,
  };
}

const viewerOf = (ctx: BusinessContext) => ({
  businessId: ctx.caller.businessId,
  userId: ctx.caller.id,
  role: ctx.caller.role,
});

export const operationEvents = defineOperation({
  name: 'get_operation_events',
  summary: "The audit trail of the business's orders, named by id or tracking number, in time order.",
  description: `Every change to each order (creation, edits, status changes, holds, cancellation and interception steps, contractor assignments, handovers), with its operation type, who (account and role), through which entry (\`api\`, \`mcp\`, \`carrier\`, \`device\`, \`scanner\`, \`system\`), from which address, when, and what changed; and each webhook delivery about the order as operation type 9001 with its event, URL, status and attempts. Name at most ${MAX_TRAIL_ORDERS} orders by \`order_ids\` and \`tracking_numbers\` (an order's or any of its packages'); pages of \`limit\` rows (100 by default, at most ${MAX_TRAIL_PAGE}) follow \`next_cursor\`. Names that are not the business's orders are listed in \`not_found\`; when none is, NOT_FOUND. An id of an order the business deleted permanently still reads its trail (\`deleted: true\`). For the business's staff.`,
  tag: 'Client',
  roles: STAFF,
  business: true,
  rest: { method: 'POST', path: '/v1/tracking/operationevents' },
  failures: { NOT_FOUND: 'None of the named orders is the business’s' },
  graphql: { name: 'trackingOperationevents', kind: 'query' },
  mcp: { scope: 'orders:read', risk: 'low', servers: ['user', 'developer'] },
  input: z
    .object({
      order_ids: z.array(intParam()).max(MAX_TRAIL_ORDERS).default([]),
      tracking_numbers: z.array(z.string().trim().min(1).max(64)).max(MAX_TRAIL_ORDERS).default([]),
      ...pageInput,
    })
    .strict(),
  output: z.object({
    result: z.literal(true),
    orders: z.array(OrderKeyView.extend({ tracking_numbers: z.array(z.string()) })),
    not_found: z.object({ order_ids: z.array(z.number().int()), tracking_numbers: z.array(z.string()) }),
    events: z.array(TrailEventView),
    next_cursor: z.string().nullable(),
  }),
  async handler(input, ctx) {
    const ids = [...new Set(input.order_ids)];
    const numbers = [...new Set(input.tracking_numbers)];
    if (ids.length === 0 && numbers.length === 0) throw errors.field('order_ids', 'field.required');
    if (ids.length + numbers.length > MAX_TRAIL_ORDERS)
      throw errors.field('order_ids', 'field.too_many_items', { maximum: MAX_TRAIL_ORDERS });
    const live = await namedOrders(ctx.em, viewerOf(ctx), ids, numbers);
    const liveIds = new Set(live.map((o) => o.id));
    const deleted = await deletedOrdersInTrail(
      ctx.em,
      ctx.caller.businessId,
      ids.filter((id) => !liveIds.has(id)),
    );
    const orders = [
      ...live.map((o) => ({ ...o, deleted: false })),
      ...deleted.map((o) => ({ ...o, numbers: [] as string[], deleted: true })),
    ];
    if (orders.length === 0) throw errors.notFound();
    const foundIds = new Set(orders.map((o) => o.id));
    const foundNumbers = new Set(orders.flatMap((o) => o.numbers));
    const page = await trailPage(
      ctx,
      orders.map((o) => o.id),
      input,
    );
    return {
      result: true as const,
      orders: orders.map((o) => ({
        id: o.id,
        order_ref: o.orderRef,
        tracking_number: o.trackingNumber,
        tracking_numbers: o.numbers,
        deleted: o.deleted,
      })),
      not_found: {
        order_ids: ids.filter((id) => !foundIds.has(id)),
        tracking_numbers: numbers.filter((n) => !foundNumbers.has(n)),
      },
      ...page,
    };
  },
});

export const orderAuditTimeline = defineOperation({
  name: 'get_order_audit_timeline',
  summary: "One order's audit timeline: every change and webhook delivery about it, in time order.",
  description: `The trail get_operation_events reads, for one order by id: each change with its operation type, who, through which entry, from which address and what changed, and each webhook delivery about the order (type 9001). Pages of \`limit\` rows (100 by default, at most ${MAX_TRAIL_PAGE}) follow \`next_cursor\`. An order of another business answers NOT_FOUND; one the business deleted permanently still reads (\`deleted: true\`). For the business's staff; the developer server's tool for checking what an integration did to an order.`,
  tag: 'Client',
  roles: STAFF,
  business: true,
  rest: { method: 'GET', path: '/v1/orders/{id}/audit-timeline' },
  failures: { NOT_FOUND: 'No such order in the business' },
  graphql: { name: 'orderAuditTimeline', kind: 'query' },
  mcp: { scope: 'orders:read', risk: 'low', servers: ['developer'] },
  input: z
    .object({
      id: pathId,
      cursor: pageInput.cursor,
      limit: pageInput.limit,
    })
    .strict(),
  output: z.object({
    result: z.literal(true),
    order: OrderKeyView,
    events: z.array(TrailEventView),
    next_cursor: z.string().nullable(),
  }),
  async handler(input, ctx) {
    const [live] = await namedOrders(ctx.em, viewerOf(ctx), [input.id], []);
    const order = live
      ? { ...live, deleted: false }
      : (await deletedOrdersInTrail(ctx.em, ctx.caller.businessId, [input.id])).map((o) => ({
          ...o,
          deleted: true,
        }))[0];
    if (!order) throw errors.notFound();
    return {
      result: true as const,
      order: { id: order.id, order_ref: order.orderRef, tracking_number: order.trackingNumber, deleted: order.deleted },
      ...(await trailPage(ctx, [order.id], { ...input, include_webhooks: true })),
    };
  },
});
