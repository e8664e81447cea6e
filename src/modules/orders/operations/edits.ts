/**
 * Edits and holds (docs/orders.md, "Edits and holds"): what the driver is told (instruction, note, time window), a new
 * recipient address, and holding an order back from dispatch. Each locks its orders, checks the one rule of
 * domain.ts, and writes the change with its audit-trail row in one transaction.
 */
import { z } from 'zod';
import { addressInput, pathId } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import type { Em } from '../../../platform/db/orm.ts';
import { errors } from '../../../platform/errors.ts';
import { translate } from '../../../platform/i18n/messages.ts';
import { STAFF, type Role } from '../../../platform/roles.ts';
import { actorOf } from '../actor.ts';
import {
  detailEditRefusal,
  holdRefusal,
  ORDER_OPERATION,
  ORDER_STATUS,
  releaseRefusal,
  rerouteRefusal,
  type OrderEditRefusal,
  type OrderOperationType,
} from '../domain.ts';
import { fail } from '../errorCodes.ts';
import { findOrderRow, lockOrdersForEdit, orderToReprice, setOrderFields, type EditedOrder } from '../repo/edits.ts';
import type { Address } from '../entities.ts';
import { priceNewOrders, type OrderPrice } from '../hooks.ts';
import { changeOrderStatuses, orderAudienceOf, type OrderViewer } from '../repo/orders.ts';
import { appendOrderTrail } from '../repo/trail.ts';
import { OrderView, presentOrder, text, TimeWindowInput } from '../views.ts';

/**
 * The business's staff edit every order of the business; a customer account edits what the driver is told of its
 * own orders (orderVisibleTo), as the party that placed them. A new address and holds are the business's decisions.
 */
const EDITORS: readonly Role[] = [...STAFF, 'customer'];

const viewerOf = (ctx: BusinessContext): OrderViewer => ({
  businessId: ctx.caller.businessId,
  userId: ctx.caller.id,
  role: ctx.caller.role,
});

const editAnswer = z.object({
  result: z.literal(true),
  changed: z.boolean().describe('False when the order already had this value: nothing was written'),
  order: OrderView,
});

type Code = 'ORDER_NOT_EDITABLE' | 'ORDER_NOT_HOLDABLE' | 'ORDER_NOT_HELD';

/**
 * Locks one order the caller may see (404 otherwise), refuses it with `code` and the rule's reason, or applies the
 * change, which answers whether it wrote anything; then answers the order as it is now.
 */
async function editOne(
  ctx: BusinessContext,
  id: number,
  rule: (o: EditedOrder) => OrderEditRefusal | null,
  code: Code,
  apply: (tx: Em, o: EditedOrder) => Promise<boolean>,
) {
  return ctx.em.transactional(async (tx) => {
    const [order] = await lockOrdersForEdit(tx, viewerOf(ctx), { ids: [id] });
    if (!order) throw errors.notFound();
    const refusal = rule(order);
    if (refusal) throw fail(code, refusal);
    const changed = await apply(tx, order);
    const audience = await orderAudienceOf(tx, ctx.caller);
    return { result: true as const, changed, order: presentOrder((await findOrderRow(tx, id))!, audience) };
  });
}

/** Sets one text field of an order and writes its trail row; nothing when the value is the same. */
function textEdit(
  ctx: BusinessContext,
  id: number,
  field: 'note' | 'delivery_instruction',
  value: string | null,
  operationType: OrderOperationType,
) {
  return editOne(ctx, id, detailEditRefusal, 'ORDER_NOT_EDITABLE', async (tx, o) => {
    const old = field === 'note' ? o.note : o.deliveryInstruction;
    if (old === value) return false;
    await setOrderFields(tx, [o.id], field === 'note' ? { note: value } : { deliveryInstruction: value });
    await appendOrderTrail(tx, [
      {
        orderId: o.id,
        businessId: o.businessId,
        operationType,
        actor: actorOf(ctx),
        details: { field, old, new: value },
      },
    ]);
    return true;
  });
}

const failures = {
  NOT_FOUND: 'No such order in your reach: another business, or another customer',
  ORDER_NOT_EDITABLE: true,
} as const;

export const updateDeliveryInstruction = defineOperation({
  name: 'update_delivery_instruction',
  summary: 'Set or clear what the driver should know to deliver an order (gate code, where to leave it).',
  description:
    "Replaces the order's `delivery_instruction` (up to 1000 characters; null clears it). Taken while the order waits for dispatch (NEW_ORDER, HOLD, AT_WAREHOUSE, RESCHEDULE_NEEDED, REDISPATCH_LATER, LABEL_PURCHASE_FAILED) and the business carries it itself; once it is out for delivery, failed, delivered, refused, cancelled or intercepted, or a delivery provider carries it, the change could no longer reach the driver and is refused (ORDER_NOT_EDITABLE, the message says why). The same value again changes nothing (`changed` false). Each change is an audit-trail row (operation type 3011) with the old and new text. A customer account may set it on its own orders.",
  tag: 'Client',
  roles: EDITORS,
  business: true,
  rest: { method: 'PUT', path: '/v1/orders/{id}/delivery-instruction' },
  graphql: { name: 'updateDeliveryInstruction', kind: 'mutation' },
  mcp: { scope: 'orders:write', risk: 'medium' },
  failures,
  input: z.object({ id: pathId, delivery_instruction: text(1000).nullable() }).strict(),
  output: editAnswer,
  handler: (input, ctx) =>
    textEdit(
      ctx,
      input.id,
      'delivery_instruction',
      input.delivery_instruction,
      ORDER_OPERATION.DELIVERY_INSTRUCTION_UPDATED,
    ),
});

export const updateOrderNote = defineOperation({
  name: 'update_order_note',
  summary: "Set or clear an order's note.",
  description:
    "Replaces the order's `note` (up to 1000 characters; null clears it), under the same rule as update_delivery_instruction: refused with ORDER_NOT_EDITABLE and the reason once the order is past the point where the driver can still be told. The same value again changes nothing (`changed` false). Each change is an audit-trail row (operation type 3012) with the old and new note. A customer account may set it on its own orders.",
  tag: 'Client',
  roles: EDITORS,
  business: true,
  rest: { method: 'PUT', path: '/v1/orders/{id}/note' },
  graphql: { name: 'updateOrderNote', kind: 'mutation' },
  mcp: { scope: 'orders:write', risk: 'medium' },
  failures,
  input: z.object({ id: pathId, note: text(1000).nullable() }).strict(),
  output: editAnswer,
  handler: (input, ctx) => textEdit(ctx, input.id, 'note', input.note, ORDER_OPERATION.NOTE_UPDATED),
});

/** The most references one call takes, as assignments take order ids. */
export const MAX_REFS = 500;

/** A refusal's key as the answer names it: `order.edit.out_for_delivery` is `out_for_delivery`. */
const REF_REASONS = [
  'unknown_ref',
  'out_for_delivery',
  'delivery_failed',
  'refused_by_recipient',
  'returned',
  'delivered',
  'cancelled',
  'intercepted',
  'carrier_held',
] as const;
type RefReason = (typeof REF_REASONS)[number];

export const updateTimeWindowByRefs = defineOperation({
  name: 'update_time_window_by_refs',
  summary: 'Set or clear the delivery time window of many orders, named by their order_ref, in one call.',
  description:
    'Gives every order whose `order_ref` is among `order_refs` (1 to 500; a reference shared by several orders reaches each of them) the same `time_window` (`start` and `end` with their offsets, the end later than the start), or clears it with null. Answers 200 with a result per order: `orders` lists those updated (`changed` false when the window was already this one), `errors` each reference that names no order of yours (`unknown_ref`, order_id null) and each order refused because the driver can no longer be told (out for delivery, failed, delivered, refused, cancelled, intercepted, or carried by a delivery provider), with the reason and a message in your language; `result` is false when no order was updated. The whole call is one transaction. Each change is an audit-trail row (operation type 3013) with the old and new window. A customer account reaches only its own orders.',
  tag: 'Client',
  roles: EDITORS,
  business: true,
  rest: { method: 'POST', path: '/v1/orders/time-window-by-refs' },
  graphql: { name: 'updateTimeWindowByRefs', kind: 'mutation' },
  mcp: { scope: 'orders:write', risk: 'medium' },
  input: z
    .object({
      order_refs: z.array(text(100)).min(1).max(MAX_REFS),
      time_window: TimeWindowInput.nullable(),
    })
    .strict(),
  output: z.object({
    result: z.boolean(),
    updated: z.number().int(),
    skipped: z.number().int(),
    orders: z.array(z.object({ order_ref: z.string(), order_id: z.number().int(), changed: z.boolean() })),
    errors: z.array(
      z.object({
        order_ref: z.string(),
        order_id: z.number().int().nullable(),
        reason: z.enum(REF_REASONS),
        message: z.string(),
      }),
    ),
  }),
  async handler(input, ctx) {
    const window = input.time_window && {
      start: new Date(input.time_window.start),
      end: new Date(input.time_window.end),
    };
    if (window && window.end <= window.start) throw errors.field('time_window.end', 'field.time_window_reversed');
    const refs = [...new Set(input.order_refs)];
    return ctx.em.transactional(async (tx) => {
      const orders = await lockOrdersForEdit(tx, viewerOf(ctx), { refs });
      const found = new Set(orders.map((o) => o.orderRef));
      const refused: { order_ref: string; order_id: number | null; reason: RefReason; message: string }[] = refs
        .filter((ref) => !found.has(ref))
        .map((ref) => ({
          order_ref: ref,
          order_id: null,
          reason: 'unknown_ref',
          message: translate('order.edit.unknown_ref', ctx.lang),
        }));
      const updated: { order_ref: string; order_id: number; changed: boolean }[] = [];
      const changed: EditedOrder[] = [];
      const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
      const windowOf = (start: Date | null, end: Date | null) =>
        start && end ? { start: iso(start), end: iso(end) } : null;
      const next = window && windowOf(window.start, window.end);
      for (const o of orders) {
        const refusal = detailEditRefusal(o);
        if (refusal) {
          refused.push({
            order_ref: o.orderRef!,
            order_id: o.id,
            reason: refusal.split('.').pop() as RefReason,
            message: translate(refusal, ctx.lang),
          });
          continue;
        }
        const same = JSON.stringify(windowOf(o.timeWindowStart, o.timeWindowEnd)) === JSON.stringify(next);
        updated.push({ order_ref: o.orderRef!, order_id: o.id, changed: !same });
        if (!same) changed.push(o);
      }
      await setOrderFields(
        tx,
        changed.map((o) => o.id),
        { timeWindow: window },
      );
      const actor = actorOf(ctx);
      await appendOrderTrail(
        tx,
        changed.map((o) => ({
          orderId: o.id,
          businessId: o.businessId,
          operationType: ORDER_OPERATION.TIME_WINDOW_UPDATED,
          actor,
          details: { field: 'time_window', old: windowOf(o.timeWindowStart, o.timeWindowEnd), new: next },
        })),
      );
      return {
        result: updated.length > 0,
        updated: updated.length,
        skipped: refused.length,
        orders: updated,
        errors: refused,
      };
    });
  },
});

export const rerouteToAddress = defineOperation({
  name: 'reroute_to_address',
  summary: 'Send an order to a new recipient address, until it is delivered (high risk: MCP needs confirm=true).',
  description:
    "Replaces the recipient's `address` (name, phone and email stay); `reason` (up to 500 characters) is kept in the audit trail. Taken while the order waits for dispatch, is out for delivery or after a failed attempt: whoever confirms it tells a driver already on the road. Refused (ORDER_NOT_EDITABLE, the message says why) once the order is delivered, refused by the recipient or cancelled, while it is intercepted (the interception's outcome decides where it goes) and while a delivery provider carries it (ask for an interception with a new address instead). The order is repriced at the new address under the business's price model as it is now (unpriced when the model cannot price it there: no coordinates where it charges per kilometre). The audit trail keeps the old and new address and the old and new price (operation type 3014). For the business's administrators and employees.",
  tag: 'Client',
  roles: STAFF,
  business: true,
  rest: { method: 'POST', path: '/v1/orders/{id}/reroute' },
  graphql: { name: 'rerouteToAddress', kind: 'mutation' },
  mcp: { scope: 'orders:write', risk: 'high' },
  failures,
  input: z.object({ id: pathId, address: addressInput(), reason: z.string().trim().max(500).nullish() }).strict(),
  output: editAnswer,
  async handler(input, ctx) {
    const address = { ...input.address, line2: input.address.line2 ?? null };
    const price = await repriceAt(ctx, input.id, address);
    return editOne(ctx, input.id, rerouteRefusal, 'ORDER_NOT_EDITABLE', async (tx, o) => {
      const old = o.recipient.address;
      const oldPrice = priceView(o);
      const newPrice = price === undefined ? oldPrice : price && priceView(price);
      await setOrderFields(tx, [o.id], { address, ...(price !== undefined && { price }) });
      await appendOrderTrail(tx, [
        {
          orderId: o.id,
          businessId: o.businessId,
          operationType: ORDER_OPERATION.REROUTED,
          actor: actorOf(ctx),
          details: {
            field: 'recipient.address',
            old,
            new: address,
            reason: input.reason ?? null,
            price: { old: oldPrice, new: newPrice },
          },
        },
      ]);
      return true;
    });
  },
});

/**
 * The order's price at its new address under the business's model now (docs/orders.md, "Edits and holds"), as
 * client_order_create would price it there (hasTimeWindow false, as at creation): null when it cannot be priced (the
 * business has no model, and so never priced it, since a model is only ever replaced; or the model charges per
 * kilometre and the new address has no coordinates), undefined when the order is out of reach or refused (editOne
 * answers that). Made before the edit's transaction, which then writes it with the address: the road router may take
 * seconds, and is never asked while the order is locked. The type and the package weights it reads never change.
 */
async function repriceAt(ctx: BusinessContext, id: number, address: Address): Promise<OrderPrice | null | undefined> {
  const o = await orderToReprice(ctx.em, viewerOf(ctx), id);
  if (!o || rerouteRefusal(o)) return undefined;
  const [price] = await priceNewOrders(ctx.em, ctx, o.businessId, [
    {
      type: o.type as 'D' | 'P' | 'P2P',
      recipient: { ...o.recipient, address },
      packageWeightsGrams: o.packageWeightsGrams.length > 0 ? o.packageWeightsGrams : [null],
      hasTimeWindow: false,
    },
  ]);
  return price ?? null;
}

/** A price as the trail keeps it. */
const priceView = (p: {
  shippingPrice: string | null;
  tax: string | null;
  currency: string | null;
  priceDetails: readonly Record<string, unknown>[] | null;
}) =>
  p.shippingPrice === null
    ? null
    : { shipping_price: p.shippingPrice, tax: p.tax, currency: p.currency, price_details: p.priceDetails };

const statusAnswer = z.object({ result: z.literal(true), order: OrderView });

/** Moves the locked order through the one writer of status changes: its history, its trail row and its event. */
async function moveStatus(
  ctx: BusinessContext,
  tx: Em,
  o: EditedOrder,
  after: number,
  operationType: OrderOperationType,
  description: string,
  reason: string | null | undefined,
) {
  await changeOrderStatuses(tx, [
    {
      order: { ...o, statusId: after },
      change: {
        before: o.statusId,
        after,
        operationType,
        description,
        ipAddress: ctx.clientAddress,
        actor: actorOf(ctx),
        details: { reason: reason ?? null },
      },
      occurredAt: new Date(),
    },
  ]);
  return true;
}

export const holdOrder = defineOperation({
  name: 'hold_order',
  summary: 'Hold an order back from dispatch (status HOLD) until it is released (high risk: MCP needs confirm=true).',
  description:
    'Moves an order that waits for dispatch (NEW_ORDER, AT_WAREHOUSE, RESCHEDULE_NEEDED, REDISPATCH_LATER), on no route and carried by the business itself, to HOLD (8). While held it is in no planning pool, no contractor or delivery provider can be given it, and nothing dispatches it; its instruction, note and time window can still be changed. Refused (ORDER_NOT_HOLDABLE, the message says why) when it is held already, out for delivery, failed, finished, intercepted, on a route or carried by a delivery provider. Sends order.status_change with operation type 3031; `reason` (up to 500 characters) is kept in the audit trail. release_order ends the hold.',
  tag: 'Client',
  roles: STAFF,
  business: true,
  rest: { method: 'POST', path: '/v1/orders/{id}/hold' },
  graphql: { name: 'holdOrder', kind: 'mutation' },
  mcp: { scope: 'orders:write', risk: 'high' },
  failures: { NOT_FOUND: 'No such order in the business', ORDER_NOT_HOLDABLE: true },
  input: z.object({ id: pathId, reason: z.string().trim().max(500).nullish() }).strict(),
  output: statusAnswer,
  async handler(input, ctx) {
    const { order } = await editOne(ctx, input.id, holdRefusal, 'ORDER_NOT_HOLDABLE', (tx, o) =>
      moveStatus(ctx, tx, o, ORDER_STATUS.HOLD, ORDER_OPERATION.HELD, 'order held', input.reason),
    );
    return { result: true as const, order };
  },
});

export const releaseOrder = defineOperation({
  name: 'release_order',
  summary: 'Release a held order back to NEW_ORDER (high risk: MCP needs confirm=true).',
  description:
    'Moves an order on HOLD back to NEW_ORDER (1), whatever status it was held from (the audit trail keeps that one): it is plannable, assignable and dispatchable again. Refused with ORDER_NOT_HELD when the order is not on hold. Sends order.status_change with operation type 3032; `reason` (up to 500 characters) is kept in the audit trail.',
  tag: 'Client',
  roles: STAFF,
  business: true,
  rest: { method: 'POST', path: '/v1/orders/{id}/release' },
  graphql: { name: 'releaseOrder', kind: 'mutation' },
  mcp: { scope: 'orders:write', risk: 'high' },
  failures: { NOT_FOUND: 'No such order in the business', ORDER_NOT_HELD: true },
  input: z.object({ id: pathId, reason: z.string().trim().max(500).nullish() }).strict(),
  output: statusAnswer,
  async handler(input, ctx) {
    const { order } = await editOne(ctx, input.id, releaseRefusal, 'ORDER_NOT_HELD', (tx, o) =>
      moveStatus(
        ctx,
        tx,
        o,
        ORDER_STATUS.NEW_ORDER,
        ORDER_OPERATION.RELEASED,
        'order released from hold',
        input.reason,
      ),
    );
    return { result: true as const, order };
  },
});
