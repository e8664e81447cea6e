import { z } from 'zod';
import { findOrder, findPackages, listOrders, orderAudienceOf, plannableOrders } from '../repo/orders.ts';
import { errors } from '../../../platform/errors.ts';
import { ORDER_STATUS_IDS } from '../domain.ts';
import { STAFF } from '../../../platform/roles.ts';
import { intParam, offsetOf, pageOf, pageOutput, pageParams, pathId } from '../../../platform/catalog/schemas.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { OrderView, PackageView, presentOrder, presentPackages } from '../views.ts';

export const orderList = defineOperation({
  name: 'get_orders',
  summary: "List the business's orders, newest first.",
  description:
    "Every order of the caller's business, those handed to a carrier included, 50 a page by default (`page`, `per_page` up to 200) with the `total`. Filter by `order_ref` (exact match) or `status` (a status id such as 1 for NEW_ORDER; an unknown id is VALIDATION_FAILED). Read an order's packages with get_order_detail, and the orders still to plan with get_planning_pool. A customer account lists only the orders placed by or for it, without prices when its business hides local delivery prices from it (`price_hidden: true`), and with a carrier's status read as ours (CARRIER_AT_WAREHOUSE as AT_WAREHOUSE, CARRIER_ON_THE_WAY as ON_THE_WAY), as in its webhooks.",
  tag: 'Client',
  roles: [...STAFF, 'customer'],
  business: true,
  rest: { method: 'GET', path: '/v1/orders' },
  graphql: { name: 'orders', kind: 'query' },
  mcp: { scope: 'orders:read', risk: 'low' },
  input: z
    .object({
      order_ref: z.string().max(100).optional(),
      status: z.coerce
        .number<unknown>()
        .int()
        .refine((s) => ORDER_STATUS_IDS.includes(s), 'order status id')
        .meta({ enum: ORDER_STATUS_IDS })
        .optional(),
      ...pageParams,
    })
    .strict(),
  output: pageOutput('orders', OrderView),
  async handler(input, ctx) {
    const { caller } = ctx;
    const [rows, total] = await listOrders(
      ctx.em,
      caller.businessId,
      {
        orderRef: input.order_ref,
        statusId: input.status,
        ...(caller.role === 'customer' && { customerId: caller.id }),
      },
      input.per_page,
      offsetOf(input),
    );
    const audience = await orderAudienceOf(ctx.em, caller);
    return pageOf(
      input,
      'orders',
      total,
      rows.map((o) => presentOrder(o, audience)),
    );
  },
});

export const orderGet = defineOperation({
  name: 'get_order_detail',
  summary: 'Read one order of the business.',
  description:
    "`id` is the order's id as client_order_create and get_orders answer it, not its tracking number. Answers the order as get_orders shows it, plus its packages in position order with their numbers, measures and carrier references (null for a customer account, for which the carrier is masked). An order of another business, or no order, answers NOT_FOUND; so does, for a customer account, an order not placed by or for it. A recipient follows a parcel by tracking number with public_tracking instead.",
  tag: 'Client',
  roles: [...STAFF, 'customer'],
  business: true,
  rest: { method: 'GET', path: '/v1/orders/{id}' },
  failures: { NOT_FOUND: 'No such order in the business' },
  graphql: { name: 'order', kind: 'query' },
  mcp: { scope: 'orders:read', risk: 'low' },
  input: z.object({ id: pathId }).strict(),
  output: z.object({ result: z.literal(true), order: OrderView.extend({ packages: z.array(PackageView) }) }),
  async handler(input, ctx) {
    const { caller } = ctx;
    const order = await findOrder(ctx.em, caller.businessId, input.id);
    // A customer account sees only the orders placed by or for it (orderVisibleTo); any other is not found.
    if (!order || (caller.role === 'customer' && order.customerId !== caller.id)) throw errors.notFound();
    const packages = await findPackages(ctx.em, order.id);
    const audience = await orderAudienceOf(ctx.em, caller);
    return {
      result: true as const,
      order: { ...presentOrder(order, audience), packages: presentPackages(packages, audience) },
    };
  },
});

export const planningPool = defineOperation({
  name: 'get_planning_pool',
  summary: "Orders the caller may plan now: the client's pool, or a contractor's own assigned and unassigned orders.",
  description:
    'An order is plannable when it is on no route, delivered by the business itself, not held by a carrier, in an assignable status (NEW_ORDER, AT_WAREHOUSE, RESCHEDULE_NEEDED, REDISPATCH_LATER) and assigned to no contractor; a contractor also sees the orders assigned to it. Sorted by scheduled date, then id, at most `limit` orders (500 by default and at most), without paging. Hand orders to a contractor with assign_orders_to_broker; get_orders lists every order.',
  tag: 'Dispatch',
  roles: ['client_admin', 'employee', 'contractor'],
  business: true,
  rest: { method: 'GET', path: '/v1/planning/orders' },
  graphql: { name: 'planningPool', kind: 'query' },
  mcp: { scope: 'routes:read', risk: 'low' },
  input: z.object({ limit: intParam(500).default(500) }).strict(),
  output: z.object({ result: z.literal(true), orders: z.array(OrderView) }),
  async handler(input, ctx) {
    const { caller } = ctx;
    const rows = await plannableOrders(
      ctx.em,
      caller.businessId,
      caller.role === 'contractor' ? caller.id : null,
      input.limit,
    );
    const audience = await orderAudienceOf(ctx.em, caller);
    return { result: true as const, orders: rows.map((o) => presentOrder(o, audience)) };
  },
});
