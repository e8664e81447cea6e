/** Finding an order, its snapshot, and the orders that need a person (docs/orders.md, "Reads: trail, find, snapshot, exceptions"). */
import { z } from 'zod';
import { errors } from '../../../platform/errors.ts';
import { intParam, pathId, timeParam } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { STAFF, type Role } from '../../../platform/roles.ts';
import { runOrderExceptionsHooks, runOrderProcessesHooks } from '../hooks.ts';
import { findPackages, orderAudienceOf } from '../repo/orders.ts';
import {
  findOrders,
  orderLabels,
  SNAPSHOT_HISTORY_MAX,
  statusHistory,
  visibleOrderRow,
  type OrderKeys,
} from '../repo/reads.ts';
import { customerOperationOf, customerStatusOf, statusCodeOf } from '../domain.ts';
import { OrderView, PackageView, presentOrder, presentPackages } from '../views.ts';

/** Who may find and read an order's snapshot: the staff any of the business's orders, a customer account its own. */
const READERS: readonly Role[] = [...STAFF, 'customer'];
/** Most orders find_order answers. */
export const MAX_FOUND = 100;
/** Most exceptions one page of list_exceptions holds. */
export const MAX_EXCEPTIONS_PAGE = 200;

const viewerOf = (ctx: BusinessContext) => ({
  businessId: ctx.caller.businessId,
  userId: ctx.caller.id,
  role: ctx.caller.role,
});

export const orderFind = defineOperation({
  name: 'find_order',
  summary: "Find the business's orders by reference, tracking number, recipient phone or recipient name.",
  description: `Give one key or more; an order must match every key given. \`order_ref\` matches exactly; \`tracking_number\` the order's own or any of its packages'; \`phone\` the recipient's number by its digits (\`+420 777 123 456\` and \`420777123456\` are the same, at least 5 digits); \`name\` the start of the recipient's name, whatever the case (at least 2 characters). Answers the matching orders newest first, at most \`limit\` (20 by default, at most ${MAX_FOUND}), with \`truncated\` true when there were more. No order is not an error. The business's staff search every order of the business; a customer account its own orders only, seen as get_orders shows them to it (carrier statuses as ours, no prices its business hides from it). Read one with order_snapshot.`,
  tag: 'Client',
  roles: READERS,
  business: true,
  rest: { method: 'POST', path: '/v1/orders/find' },
  graphql: { name: 'findOrder', kind: 'query' },
  mcp: { scope: 'orders:read', risk: 'low' },
  input: z
    .object({
      order_ref: z.string().trim().min(1).max(100).optional(),
      tracking_number: z.string().trim().min(1).max(64).optional(),
      phone: z
        .string()
        .trim()
        .max(40)
        .refine((p) => p.replace(/\D/g, '').length >= 5, 'at least 5 digits')
        .optional(),
      name: z.string().trim().min(2).max(255).optional(),
      limit: intParam(MAX_FOUND).default(20),
    })
    .strict(),
  output: z.object({ result: z.literal(true), orders: z.array(OrderView), truncated: z.boolean() }),
  async handler(input, ctx) {
    const keys: OrderKeys = {
      orderRef: input.order_ref,
      trackingNumber: input.tracking_number,
      phoneDigits: input.phone?.replace(/\D/g, ''),
      namePrefix: input.name,
    };
    if (Object.values(keys).every((v) => v === undefined)) throw errors.field('order_ref', 'field.required');
    const rows = await findOrders(ctx.em, viewerOf(ctx), keys, input.limit + 1);
    const audience = await orderAudienceOf(ctx.em, ctx.caller);
    return {
      result: true as const,
      orders: rows.slice(0, input.limit).map((o) => presentOrder(o, audience)),
      truncated: rows.length > input.limit,
    };
  },
});

const ProcessView = z.object({
  type: z.string().describe("The module's name of the process: device-order, distribution, third-party, ..."),
  workflow_id: z.string().nullable(),
  state: z.string(),
  since: z.string(),
  reference: z.string().nullable(),
});

export const orderSnapshot = defineOperation({
  name: 'order_snapshot',
  summary: 'One order as it stands: the order, its packages, its status history and its open processes.',
  description: `The order as get_orders shows it, its packages in position order, its status history oldest first (its newest ${SNAPSHOT_HISTORY_MAX} changes) and each process still open for it (a device order awaiting pickup, a package's distribution, a third-party assignment, a locker delivery, a contractor assignment, a cancellation or interception), each with its type, workflow id, state and since when, read from the processes' own records. An order of another business, or one a customer account does not own, answers NOT_FOUND. The business's staff read any order of the business, a customer account its own. A customer is not shown workflow ids and references, nor its packages' carrier references, nor a delivery provider's process, nor the prices its business hides from it (\`price_hidden: true\`), and sees the carrier masked as in its webhooks: a carrier's status reads as ours (33 as 29, 43 as 2) and a carrier's step as ours (6007 as 1001, 2009 as 2002, 6008-6010 as 6002, without its description).`,
  tag: 'Client',
  roles: READERS,
  business: true,
  rest: { method: 'GET', path: '/v1/orders/{id}/snapshot' },
  failures: { NOT_FOUND: 'No such order the caller may see' },
  graphql: { name: 'orderSnapshot', kind: 'query' },
  mcp: { scope: 'orders:read', risk: 'low' },
  input: z.object({ id: pathId }).strict(),
  output: z.object({
    result: z.literal(true),
    order: OrderView,
    packages: z.array(PackageView),
    status_history: z.array(
      z.object({
        before_status: z.number().int().nullable(),
        after_status: z.number().int(),
        status: z.string(),
        operation_type: z.number().int(),
        description: z.string(),
        occurred_at: z.string(),
      }),
    ),
    processes: z.array(ProcessView),
  }),
  async handler(input, ctx) {
    const order = await visibleOrderRow(ctx.em, viewerOf(ctx), input.id);
    if (!order) throw errors.notFound();
    const packages = await findPackages(ctx.em, order.id);
    const history = await statusHistory(ctx.em, order.id);
    const processes = await runOrderProcessesHooks(ctx, { id: order.id, businessId: ctx.caller.businessId });
    const staff = STAFF.includes(ctx.caller.role);
    const audience = await orderAudienceOf(ctx.em, ctx.caller);
    // For a customer the carrier is masked as in its webhooks (webhooks/transform.ts, the same maps): a carrier's
    // statuses and steps read as ours, a rewritten step loses its description, and a provider's process is not listed.
    const status = (id: number | null) => (id === null || !audience.carrierMasked ? id : customerStatusOf(id));
    return {
      result: true as const,
      order: presentOrder(order, audience),
      packages: presentPackages(packages, audience),
      status_history: history.map((h) => {
        const operationType = audience.carrierMasked ? customerOperationOf(h.operation_type) : h.operation_type;
        return {
          before_status: status(h.before_status),
          after_status: status(h.after_status)!,
          status: statusCodeOf(status(h.after_status)!),
          operation_type: operationType,
          description: operationType === h.operation_type ? h.operation_description : '',
          occurred_at: new Date(h.occurred_at).toISOString(),
        };
      }),
      processes: processes
        .filter((p) => !(audience.carrierMasked && p.carrier))
        .map((p) => ({
          type: p.type,
          workflow_id: staff ? p.workflowId : null,
          state: p.state,
          since: p.since.toISOString(),
          reference: staff ? (p.reference ?? null) : null,
        })),
    };
  },
});

export const orderExceptions = defineOperation({
  name: 'list_exceptions',
  summary: "The business's orders that need a person, newest first.",
  description: `One row per situation a person must act on: a device order's open exception, a package's flagged distribution scan not followed by an applied one, a refused cancellation, a failed interception, an interception whose parcel has been held for 72 hours with no outcome, and whatever else a module reports. Each row names the order (id, reference, tracking number), the \`kind\`, the \`reason\`, \`since\` when, and the \`reference\` to act on (an exception id, a workflow id). At most \`limit\` rows (50 by default, at most ${MAX_EXCEPTIONS_PAGE}); the next page is asked with \`before\` set to \`next_before\`. For the business's staff.`,
  tag: 'Client',
  roles: STAFF,
  business: true,
  rest: { method: 'GET', path: '/v1/order-exceptions' },
  graphql: { name: 'orderExceptions', kind: 'query' },
  mcp: { scope: 'orders:read', risk: 'low' },
  input: z
    .object({
      limit: intParam(MAX_EXCEPTIONS_PAGE).default(50),
      before: timeParam().optional().describe('`next_before` of the previous page: rows that began before it'),
    })
    .strict(),
  output: z.object({
    result: z.literal(true),
    exceptions: z.array(
      z.object({
        order_id: z.number().int(),
        order_ref: z.string().nullable(),
        tracking_number: z.string(),
        kind: z.string(),
        reason: z.string(),
        since: z.string(),
        reference: z.string().nullable(),
      }),
    ),
    next_before: z.string().nullable(),
  }),
  async handler(input, ctx) {
    const found = await runOrderExceptionsHooks(ctx, {
      businessId: ctx.caller.businessId,
      limit: input.limit + 1,
      before: input.before ? new Date(input.before) : undefined,
    });
    const page = found.slice(0, input.limit);
    const labels = await orderLabels(ctx.em, viewerOf(ctx), [...new Set(page.map((e) => e.orderId))]);
    return {
      result: true as const,
      exceptions: page.flatMap((e) => {
        const label = labels.get(e.orderId);
        return label
          ? [
              {
                order_id: e.orderId,
                order_ref: label.orderRef,
                tracking_number: label.trackingNumber,
                kind: e.kind,
                reason: e.reason,
                since: e.since.toISOString(),
                reference: e.reference,
              },
            ]
          : [];
      }),
      next_before: found.length > input.limit ? page.at(-1)!.since.toISOString() : null,
    };
  },
});
