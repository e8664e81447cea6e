import { z } from 'zod';
import { actorOf, appendOrderTrail, ORDER_OPERATION, type Order, type OrderTrailEntry } from '../orders/index.ts';
import { assignmentModuleAvailable } from '../platform-admin/index.ts';
import {
  activeAssignments,
  addAssignment,
  contractorOf,
  listAssignments,
  lockOrders as lockBusinessOrders,
  moduleEnabledFor,
  type AssignmentRow,
} from './repo.ts';
import { assignRefusal, ASSIGNMENT_STATUSES } from './domain.ts';
import { errors } from '../../platform/errors.ts';
import { fail } from './errorCodes.ts';
import { translate, type MessageKey } from '../../platform/i18n/messages.ts';
import { formatDateTime } from '../../platform/time.ts';
import { intParam, offsetOf, pageOf, pageOutput, pageParams } from '../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext, type OperationContext } from '../../platform/catalog/types.ts';

const TAG = 'Broker Order Assignments';

/**
 * 503 while the module is switched off for the whole system: the platform admin's switch, or
 * ASSIGNMENT_MODULE_AVAILABLE until the platform admin has set it (docs/platform-admin.md).
 */
async function moduleAvailable(ctx: OperationContext): Promise<void> {
  if (!(await assignmentModuleAvailable(ctx))) throw fail('MODULE_UNAVAILABLE', 'assignment.module_unavailable');
}

/** 403 unless the platform has enabled the module for the caller's business. */
async function moduleEnabled(ctx: BusinessContext): Promise<void> {
  if (ctx.caller.businessId === null || !(await moduleEnabledFor(ctx.em, ctx.reads, ctx.caller.businessId)))
    throw fail('MODULE_DISABLED', 'assignment.module_disabled');
}

const Assignment = z.object({
  id: z.number().int(),
  order_id: z.number().int(),
  order_ref: z.string().nullable(),
  order_status_id: z.number().int().nullable(),
  scheduled_date: z.string().nullable(),
  route_id: z.number().int().nullable(),
  broker_id: z.number().int(),
  broker_name: z.string().nullable(),
  status: z.enum(ASSIGNMENT_STATUSES),
  note: z.string().nullable(),
  assigned_by: z.number().int().nullable(),
  assigned_at: z.string().nullable(),
  ended_by: z.number().int().nullable(),
  ended_at: z.string().nullable(),
  end_reason: z.string().nullable(),
});

const OrderError = z.object({ order_id: z.number().int(), message: z.string() });
const orderIds = z
  .array(intParam())
  .min(1)
  .max(500)
  .transform((ids) => [...new Set(ids)]);

const common = {
  tag: TAG,
  available: moduleAvailable,
  guard: moduleEnabled,
  failures: { MODULE_UNAVAILABLE: true, MODULE_DISABLED: true },
} as const;

const date = (d: Date | string | null) =>
  d === null ? null : typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10);
const dateTime = (d: Date | null) => (d === null ? null : formatDateTime(new Date(d)));

function present(r: AssignmentRow): z.input<typeof Assignment> {
  return {
    id: r.id,
    order_id: r.order_id,
    order_ref: r.order_ref,
    order_status_id: r.status_id,
    scheduled_date: date(r.scheduled_date),
    route_id: r.route_id,
    broker_id: r.broker_id,
    broker_name: r.broker_name,
    status: r.status,
    note: r.note,
    assigned_by: r.assigned_by,
    assigned_at: dateTime(r.assigned_at),
    ended_by: r.ended_by,
    ended_at: dateTime(r.ended_at),
    end_reason: r.end_reason,
  };
}

/** The audit trail row of an assignment's start or end (docs/orders.md, "Audit trail"), in its transaction. */
const trailOf = (
  order: Order,
  operationType: typeof ORDER_OPERATION.CONTRACTOR_ASSIGNED | typeof ORDER_OPERATION.CONTRACTOR_ENDED,
  actor: OrderTrailEntry['actor'],
  occurredAt: Date,
) => ({ orderId: order.id, businessId: order.businessId, operationType, actor, occurredAt });

/** Locks the caller's orders in id order (so concurrent batches cannot deadlock); unknown ids answer 422 on `field`. */
async function lockOrders(
  ctx: BusinessContext,
  ids: number[],
  field: 'order_ids' | 'order_id' = 'order_ids',
): Promise<Map<number, Order>> {
  const found = await lockBusinessOrders(ctx.em, ctx.caller.businessId, ids);
  const unknown = ids.filter((id) => !found.has(id));
  if (unknown.length) throw errors.field(field, 'field.unknown_ids', { ids: unknown.join(', ') });
  return found;
}

export const assignmentList = defineOperation({
  ...common,
  name: 'list_broker_order_assignments',
  summary: "List contractor order assignments, newest first, with each order's current status.",
  description:
    "Filter by `broker_id` (a contractor's user id), `status` (active, revoked, released) or `order_id`; 50 a page by default (`page`, `per_page` up to 200) with the `total`. A contractor sees only its own assignments, whatever `broker_id` it sends. Refuses while the module is off for the whole service (MODULE_UNAVAILABLE) or for the business (MODULE_DISABLED).",
  roles: ['client_admin', 'employee', 'contractor'],
  business: true,
  rest: { method: 'GET', path: '/v1/broker-order-assignments' },
  graphql: { name: 'brokerOrderAssignments', kind: 'query' },
  mcp: { scope: 'orders:read', risk: 'low' },
  input: z
    .object({
      broker_id: intParam().optional(),
      status: z.enum(ASSIGNMENT_STATUSES).optional(),
      order_id: intParam().optional(),
      ...pageParams,
    })
    .strict(),
  output: pageOutput('assignments', Assignment, z.boolean()),
  async handler(input, ctx) {
    const { caller } = ctx;
    // A contractor sees only its own assignments; broker_id is ignored for it.
    const brokerId = caller.role === 'contractor' ? caller.id : input.broker_id;
    const { total, rows } = await listAssignments(
      ctx.em,
      caller.businessId,
      { brokerId, status: input.status, orderId: input.order_id },
      input.per_page,
      offsetOf(input),
    );
    return pageOf(input, 'assignments', total, rows.map(present));
  },
});

export const assignmentAssign = defineOperation({
  ...common,
  name: 'assign_orders_to_broker',
  summary: 'Hand orders exclusively to one contractor; an order held by another contractor moves in one step.',
  description:
    'Takes up to 500 order ids and a `broker_id`, a contractor account of the business; any other `broker_id`, or an order the business does not have, fails the whole call (VALIDATION_FAILED). An order on a route, not self-delivered, held by a carrier, in a status that cannot be assigned or already held by this contractor is skipped and listed in `errors`; `result` is false when none was assigned. Assigned orders leave the planning pools of everyone else. Refuses while the module is off for the whole service (MODULE_UNAVAILABLE) or for the business (MODULE_DISABLED).',
  roles: ['client_admin'],
  business: true,
  rest: { method: 'POST', path: '/v1/broker-order-assignments' },
  graphql: { name: 'assignOrdersToBroker', kind: 'mutation' },
  mcp: { scope: 'orders:write', risk: 'medium' },
  input: z.object({ order_ids: orderIds, broker_id: intParam(), note: z.string().max(500).nullish() }).strict(),
  output: z.object({
    result: z.boolean(),
    assigned: z.number().int(),
    skipped: z.number().int(),
    errors: z.array(OrderError),
  }),
  async handler(input, ctx) {
    const { caller } = ctx;
    const broker = await contractorOf(ctx.em, caller.businessId, input.broker_id);
    if (!broker) throw errors.field('broker_id', 'field.not_a_contractor');
    return ctx.em.transactional(async (em) => {
      const orders = await lockOrders({ ...ctx, em }, input.order_ids);
      const activeByOrder = await activeAssignments(em, input.order_ids);
      const refused: { order_id: number; message: string }[] = [];
      const now = new Date();
      const accepted: number[] = [];
      for (const id of input.order_ids) {
        const held = activeByOrder.get(id);
        const refusal: MessageKey | null =
          held?.brokerId === broker.id ? 'assignment.already_assigned' : assignRefusal(orders.get(id)!);
        if (refusal) {
          refused.push({ order_id: id, message: translate(refusal, ctx.lang) });
          continue;
        }
        if (held) Object.assign(held, { status: 'revoked', endedBy: caller.id, endedAt: now, endReason: 'reassigned' });
        accepted.push(id);
      }
      // The held assignment must end before the new one starts, or the one-active index refuses the insert.
      await em.flush();
      const added = accepted.map((id) =>
        addAssignment(em, {
          businessId: caller.businessId,
          orderId: id,
          brokerId: broker.id,
          status: 'active',
          note: input.note ?? null,
          assignedBy: caller.id,
          assignedAt: now,
          endedBy: null,
          endedAt: null,
          endReason: null,
        }),
      );
      await em.flush();
      const actor = actorOf(ctx);
      await appendOrderTrail(em, [
        ...accepted.flatMap((id): OrderTrailEntry[] => {
          const held = activeByOrder.get(id);
          return held
            ? [
                {
                  ...trailOf(orders.get(id)!, ORDER_OPERATION.CONTRACTOR_ENDED, actor, now),
                  details: {
                    assignment_id: held.id,
                    broker_id: held.brokerId,
                    status: 'revoked',
                    reason: 'reassigned',
                  },
                },
              ]
            : [];
        }),
        ...added.map((a) => ({
          ...trailOf(orders.get(a.orderId)!, ORDER_OPERATION.CONTRACTOR_ASSIGNED, actor, now),
          details: { assignment_id: a.id, broker_id: a.brokerId, note: a.note ?? null },
        })),
      ]);
      const assigned = input.order_ids.length - refused.length;
      return { result: assigned > 0, assigned, skipped: refused.length, errors: refused };
    });
  },
});

export const assignmentRevoke = defineOperation({
  ...common,
  name: 'revoke_broker_order_assignments',
  summary: 'End active contractor assignments; the orders can be planned by the business and any contractor again.',
  description:
    'Takes up to 500 order ids and an optional `reason`, kept on each ended assignment (status revoked). An order on a route, or without an active assignment, is skipped and listed in `errors` while the others are revoked; `result` is false when none was. An order the business does not have fails the whole call (VALIDATION_FAILED). A contractor gives one back with release_broker_order_assignment. Refuses while the module is off for the whole service (MODULE_UNAVAILABLE) or for the business (MODULE_DISABLED).',
  roles: ['client_admin'],
  business: true,
  rest: { method: 'POST', path: '/v1/broker-order-assignments/revoke' },
  graphql: { name: 'revokeBrokerOrderAssignments', kind: 'mutation' },
  mcp: { scope: 'orders:write', risk: 'medium' },
  input: z.object({ order_ids: orderIds, reason: z.string().max(255).nullish() }).strict(),
  output: z.object({
    result: z.boolean(),
    revoked: z.number().int(),
    skipped: z.number().int(),
    errors: z.array(OrderError),
  }),
  async handler(input, ctx) {
    return ctx.em.transactional(async (em) => {
      const orders = await lockOrders({ ...ctx, em }, input.order_ids);
      const active = await activeAssignments(em, input.order_ids);
      const refused: { order_id: number; message: string }[] = [];
      const ended: OrderTrailEntry[] = [];
      const now = new Date();
      for (const id of input.order_ids) {
        const assignment = active.get(id);
        const refusal: MessageKey | null =
          orders.get(id)!.routeId !== null ? 'assignment.on_route' : !assignment ? 'assignment.not_active' : null;
        if (refusal) {
          refused.push({ order_id: id, message: translate(refusal, ctx.lang) });
          continue;
        }
        Object.assign(assignment!, {
          status: 'revoked',
          endedBy: ctx.caller.id,
          endedAt: now,
          endReason: input.reason ?? null,
        });
        ended.push({
          ...trailOf(orders.get(id)!, ORDER_OPERATION.CONTRACTOR_ENDED, actorOf(ctx), now),
          details: {
            assignment_id: assignment!.id,
            broker_id: assignment!.brokerId,
            status: 'revoked',
            reason: input.reason ?? null,
          },
        });
      }
      await em.flush();
      await appendOrderTrail(em, ended);
      const revoked = input.order_ids.length - refused.length;
      return { result: revoked > 0, revoked, skipped: refused.length, errors: refused };
    });
  },
});

export const assignmentRelease = defineOperation({
  ...common,
  name: 'release_broker_order_assignment',
  summary: 'The holding contractor gives an order back; the business and any contractor can plan it again.',
  description:
    'For one order the calling contractor holds: its assignment ends as released, with the optional `reason`. Refuses an order the caller does not hold (NOT_ASSIGNED_TO_YOU) and one on a route (ORDER_ON_ROUTE: take it off the route first); an order the business does not have is VALIDATION_FAILED. A client admin ends assignments with revoke_broker_order_assignments. Also refuses while the module is off for the whole service (MODULE_UNAVAILABLE) or for the business (MODULE_DISABLED).',
  roles: ['contractor'],
  business: true,
  rest: { method: 'POST', path: '/v1/broker-order-assignments/release' },
  failures: {
    ...common.failures,
    NOT_ASSIGNED_TO_YOU: 'The order is not held by the caller',
    ORDER_ON_ROUTE: 'The order is on a route',
  },
  graphql: { name: 'releaseBrokerOrderAssignment', kind: 'mutation' },
  mcp: { scope: 'orders:write', risk: 'medium' },
  input: z.object({ order_id: intParam(), reason: z.string().max(255).nullish() }).strict(),
  output: z.object({ result: z.boolean(), message: z.string() }),
  async handler(input, ctx) {
    return ctx.em.transactional(async (em) => {
      const order = (await lockOrders({ ...ctx, em }, [input.order_id], 'order_id')).get(input.order_id)!;
      const assignment = (await activeAssignments(em, [order.id], ctx.caller.id)).get(order.id);
      if (!assignment) throw fail('NOT_ASSIGNED_TO_YOU', 'assignment.not_yours');
      if (order.routeId !== null) throw fail('ORDER_ON_ROUTE', 'assignment.on_route');
      const now = new Date();
      Object.assign(assignment, {
        status: 'released',
        endedBy: ctx.caller.id,
        endedAt: now,
        endReason: input.reason ?? null,
      });
      await em.flush();
      await appendOrderTrail(em, [
        {
          ...trailOf(order, ORDER_OPERATION.CONTRACTOR_ENDED, actorOf(ctx), now),
          details: {
            assignment_id: assignment.id,
            broker_id: assignment.brokerId,
            status: 'released',
            reason: input.reason ?? null,
          },
        },
      ]);
      return { result: true, message: translate('assignment.released', ctx.lang) };
    });
  },
});
