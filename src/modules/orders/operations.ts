import { z } from 'zod';
import { createOrder, findOrder, findPackages, listOrders, plannableOrders, type OrderListRow } from './repo.ts';
import { errors } from '../../platform/errors.ts';
import { MAX_PACKAGES, newTrackingNumber, ORDER_STATUS, ORDER_STATUS_IDS, statusCodeOf } from './domain.ts';
import { STAFF } from '../../platform/roles.ts';
import {
  addressInput,
  addressView,
  dateParam,
  emailParam,
  intParam,
  offsetOf,
  pageOf,
  pageOutput,
  pageParams,
  pathId,
} from '../../platform/catalog/schemas.ts';
import { runOrderCreatedHooks } from './hooks.ts';
import { defineOperation } from '../../platform/catalog/types.ts';

const text = (max: number) => z.string().trim().min(1).max(max);
const optionalText = (max: number) => z.string().trim().max(max).nullish();

const RecipientInput = z
  .object({
    name: text(255).meta({ examples: ['Jana Novakova'] }),
    phone: z
      .string()
      .trim()
      .regex(/^\+?[0-9 ()-]{5,32}$/, 'phone number')
      .nullish(),
    email: emailParam().nullish(),
    address: addressInput(),
  })
  .strict();

const OrderView = z.object({
  id: z.number().int(),
  type: z.enum(['D', 'P', 'P2P']),
  order_ref: z.string().nullable(),
  tracking_number: z.string().meta({ examples: ['TMS3F9A1C7B2E04'] }),
  status_id: z.number().int(),
  status: z.string(),
  scheduled_date: z.string(),
  recipient: z.object({
    name: z.string(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    address: addressView,
  }),
  note: z.string().nullable(),
  self_delivery: z.boolean(),
  route_id: z.number().int().nullable(),
  created_at: z.string(),
});
type OrderView = z.input<typeof OrderView>;

export function presentOrder(o: OrderListRow): OrderView {
  const a = o.recipient.address;
  return {
    id: o.id,
    type: o.type,
    order_ref: o.orderRef ?? null,
    tracking_number: o.trackingNumber,
    status_id: o.statusId,
    status: statusCodeOf(o.statusId),
    scheduled_date:
      typeof o.scheduledDate === 'string' ? o.scheduledDate : new Date(o.scheduledDate).toISOString().slice(0, 10),
    recipient: {
      name: o.recipient.name,
      phone: o.recipient.phone ?? null,
      email: o.recipient.email ?? null,
      address: {
        line1: a.line1,
        line2: a.line2 ?? null,
        city: a.city,
        postal_code: a.postal_code,
        country: a.country,
        lat: a.lat ?? null,
        lng: a.lng ?? null,
      },
    },
    note: o.note ?? null,
    self_delivery: o.selfDelivery,
    route_id: o.routeId ?? null,
    created_at: new Date(o.createdAt).toISOString(),
  };
}

const measure = (max: number) => z.number().int().min(1).max(max).nullish();
const PackageInput = z
  .object({
    weight_grams: measure(1_000_000),
    length_mm: measure(10_000),
    width_mm: measure(10_000),
    height_mm: measure(10_000),
    carrier_reference: optionalText(100),
  })
  .strict();

const PackageView = z.object({
  position: z.number().int(),
  package_number: z.string(),
  weight_grams: z.number().int().nullable(),
  length_mm: z.number().int().nullable(),
  width_mm: z.number().int().nullable(),
  height_mm: z.number().int().nullable(),
  carrier_reference: z.string().nullable(),
});

export const orderCreate = defineOperation({
  name: 'client_order_create',
  summary: 'Create a local delivery (D), pickup (P) or peer-to-peer (P2P) order.',
  description:
    "The order starts in status NEW_ORDER, delivered by the business itself. Without `packages` it gets one unmeasured package (at most 50); the first package's number is the order's tracking number. Emits the order.created webhook event, and when one of the business's third-party rules matches, the order is handed to that delivery provider at once (`third_party_assignment`). Not idempotent: before retrying a call whose answer was lost, look for its `order_ref` with get_orders. Invalid input is VALIDATION_FAILED.",
  tag: 'Client',
  roles: STAFF,
  business: true,
  rest: { method: 'POST', path: '/v1/client/orderCreate' },
  graphql: { name: 'clientOrderCreate', kind: 'mutation' },
  mcp: { scope: 'orders:write', risk: 'medium', tool: 'create_order', servers: ['user', 'developer'] },
  input: z
    .object({
      type: z.enum(['D', 'P', 'P2P']),
      scheduled_date: dateParam(),
      order_ref: optionalText(100),
      recipient: RecipientInput,
      note: optionalText(1000),
      packages: z
        .array(PackageInput)
        .min(1)
        .max(MAX_PACKAGES)
        .optional()
        .describe(
          "The parcels of the order; one unmeasured package when absent. The first package's number is the order's tracking number.",
        ),
    })
    .strict(),
  output: z.object({
    result: z.literal(true),
    order_id: z.number().int(),
    tracking_number: z.string(),
    packages: z.array(z.object({ position: z.number().int(), package_number: z.string() })),
    third_party_assignment: z
      .string()
      .nullable()
      .describe("The assignment number when one of the business's third-party rules handed the order to a provider"),
  }),
  async handler(input, ctx) {
    const { caller } = ctx;
    const packages = (input.packages ?? [{}]).map((p) => ({
      weightGrams: p.weight_grams,
      lengthMm: p.length_mm,
      widthMm: p.width_mm,
      heightMm: p.height_mm,
      carrierReference: p.carrier_reference,
    }));
    const { order, packageNumbers } = await createOrder(
      ctx.em,
      {
        businessId: caller.businessId,
        type: input.type,
        orderRef: input.order_ref ?? null,
        trackingNumber: newTrackingNumber(),
        statusId: ORDER_STATUS.NEW_ORDER,
        scheduledDate: input.scheduled_date,
        recipient: input.recipient,
        note: input.note ?? null,
        selfDelivery: true,
        carrierProviderId: null,
        routeId: null,
      },
      packages,
    );
    const after = await runOrderCreatedHooks(ctx, {
      id: order.id,
      businessId: caller.businessId,
      postalCode: input.recipient.address.postal_code,
    });
    return {
      result: true as const,
      order_id: order.id,
      tracking_number: order.trackingNumber,
      packages: packageNumbers.map((number, i) => ({ position: i + 1, package_number: number })),
      third_party_assignment: after.thirdPartyAssignment,
    };
  },
});

export const orderList = defineOperation({
  name: 'get_orders',
  summary: "List the business's orders, newest first.",
  description:
    "Every order of the caller's business, those handed to a carrier included, 50 a page by default (`page`, `per_page` up to 200) with the `total`. Filter by `order_ref` (exact match) or `status` (a status id such as 1 for NEW_ORDER; an unknown id is VALIDATION_FAILED). Read an order's packages with get_order_detail, and the orders still to plan with get_planning_pool.",
  tag: 'Client',
  roles: STAFF,
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
      { orderRef: input.order_ref, statusId: input.status },
      input.per_page,
      offsetOf(input),
    );
    return pageOf(input, 'orders', total, rows.map(presentOrder));
  },
});

export const orderGet = defineOperation({
  name: 'get_order_detail',
  summary: 'Read one order of the business.',
  description:
    "`id` is the order's id as client_order_create and get_orders answer it, not its tracking number. Answers the order as get_orders shows it, plus its packages in position order with their numbers, measures and carrier references. An order of another business, or no order, answers NOT_FOUND. A recipient follows a parcel by tracking number with public_tracking instead.",
  tag: 'Client',
  roles: STAFF,
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
    if (!order) throw errors.notFound();
    const packages = await findPackages(ctx.em, order.id);
    return { result: true as const, order: { ...presentOrder(order), packages } };
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
    return { result: true as const, orders: rows.map(presentOrder) };
  },
});
