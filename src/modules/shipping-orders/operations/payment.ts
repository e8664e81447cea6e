/**
 * Paying, settling offline and cancelling a shipping order (docs/customer-services.md, "Shipping orders"). Each is
 * one transaction with the order's row locked; the process hears of it after the commit.
 */
import { z } from 'zod';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { errors } from '../../../platform/errors.ts';
import { payFromWallet } from '../../customer-services/index.ts';
import { failPayment } from '../../wallet/index.ts';
import { cancelOrder, expireOrder, pastExpiry } from '../closing.ts';
import { cancelledSignal, paidSignal } from '../contract.ts';
import { cancellable, payKey, REFERENCE_TYPE } from '../domain.ts';
import { fail } from '../errorCodes.ts';
import * as repo from '../repo.ts';
import { IdInput, OrderAnswer, ShippingOrderView } from '../views.ts';
import { cancelDelivery } from './delivery.ts';
import { readOrder } from './orders.ts';
import { presentOrder, shippingPricesHidden, tellProcess } from './present.ts';

const TAG = 'Customer shipping orders';
const ORDER_RULE =
  'For customer accounts only (every other role is FORBIDDEN); another customer’s order, or an unknown id, is NOT_FOUND.';

/** Answered after the commit of an order found past its expires_at (and expired by this call). */
const expiredNow = () => failPayment('NOTHING_DUE', 'shipping_orders.expired');

/** What is due on a locked order, or why nothing is (NOTHING_DUE). */
function dueOn(o: repo.ShippingOrderRow): bigint {
  if (o.status === 'cancelled' || o.status === 'expired') throw failPayment('NOTHING_DUE', 'shipping_orders.closed');
  const due = o.total - o.paid_amount;
  if (o.status === 'confirmed' || due <= 0n) throw failPayment('NOTHING_DUE', 'shipping_orders.nothing_due');
  return due;
}

async function pay(ctx: BusinessContext, id: number) {
  const scope = { businessId: ctx.caller.businessId, customerId: ctx.caller.id };
  if (!(await repo.shippingOrderOf(ctx.em, scope.businessId, scope.customerId, id))) throw errors.notFound();
  if (await shippingPricesHidden(ctx))
    throw failPayment('PRICE_HIDDEN_SETTLE_OFFLINE', 'shipping_orders.price_hidden_settle_offline');
  const outcome = await ctx.em.transactional(async (tx) => {
    const o = await repo.lockShippingOrder(tx, id, scope);
    if (!o) throw errors.notFound();
    // Past its expiry, it expires now as its process would have, even if the process has not run yet.
    if (pastExpiry(o)) {
      await expireOrder(tx, o);
      return 'expired' as const;
    }
    const due = dueOn(o);
    // Balancing: what the wallet has, up to what is due (INSUFFICIENT_FUNDS when it has nothing).
    const moved = await payFromWallet(tx, {
      businessId: o.business_id,
      customerId: o.customer_id,
      key: payKey(o.id, o.payments + 1),
      currency: o.currency,
      amount: due,
      reference: { type: REFERENCE_TYPE, id: o.id },
    });
    await repo.recordPayment(tx, o.id, moved.amount, 'wallet');
    return moved.amount >= due ? ('confirmed' as const) : ('partial' as const);
  });
  if (outcome === 'expired') throw expiredNow();
  if (outcome === 'confirmed') await tellProcess(ctx.temporal, ctx.log, id, paidSignal);
  return readOrder(ctx, id);
}

export const payShippingOrder = defineOperation({
  name: 'pay_shipping_order',
  summary: 'Pay what is due on your shipping order from your wallet: all of it, or what the wallet holds.',
  description: `A balancing payment from the wallet: what the wallet has available, up to the balance due (INSUFFICIENT_FUNDS when it has nothing). Once nothing is due the order is confirmed and its delivery order is placed. A paid order, or one cancelled or expired, is NOTHING_DUE; so is an unpaid one past its \`expires_at\`, which expires then (its partial payment refunded) even before its process has expired it. Answers the order as \`shipping_order\`; a retry after a lost answer moves no more money than was due. When the business hides shipping_service prices from the customer it cannot pay online: PRICE_HIDDEN_SETTLE_OFFLINE (the business settles it offline). ${ORDER_RULE}`,
  tag: TAG,
  roles: ['customer'],
  business: true,
  rest: { method: 'POST', path: '/v1/customer/shipping-orders/{id}/pay' },
  graphql: { name: 'payShippingOrder', kind: 'mutation' },
  mcp: { scope: 'customer_shipping:write', risk: 'high' },
  failures: {
    NOT_FOUND: 'No shipping order of yours has this id',
    PRICE_HIDDEN_SETTLE_OFFLINE: true,
    NOTHING_DUE: true,
    INSUFFICIENT_FUNDS: 'The wallet has nothing available in the order’s currency',
  },
  input: IdInput,
  output: OrderAnswer,
  async handler(input, ctx) {
    return pay(ctx, input.id);
  },
});

async function settleOffline(ctx: BusinessContext, id: number) {
  const expired = await ctx.em.transactional(async (tx) => {
    const o = await repo.lockShippingOrder(tx, id, { businessId: ctx.caller.businessId, customerId: null });
    if (!o) throw errors.notFound();
    if (pastExpiry(o)) {
      await expireOrder(tx, o);
      return true;
    }
    await repo.recordPayment(tx, o.id, dueOn(o), 'offline');
    return false;
  });
  if (expired) throw expiredNow();
  await tellProcess(ctx.temporal, ctx.log, id, paidSignal);
  const row = await repo.shippingOrderOf(ctx.em, ctx.caller.businessId, null, id);
  return {
    result: true as const,
    shipping_order: { ...presentOrder(ctx, row!, false), customer_id: row!.customer_id },
  };
}

export const settleShippingOrderOffline = defineOperation({
  name: 'settle_shipping_order_offline',
  summary: 'Record that a customer paid the balance of a shipping order offline: the order is confirmed.',
  description:
    'For a customer who cannot pay online (prices hidden from it), or any other arrangement: the balance due is recorded as paid offline (no wallet transfer; `settled_offline` true) and the order is confirmed, its delivery order placed. An order paid already, cancelled or expired (or unpaid past its `expires_at`, which expires it now) is NOTHING_DUE; an order of another business is NOT_FOUND. A later cancel refunds to the wallet only what the wallet paid. Answers the order as `shipping_order`, with its `customer_id`. For client admins.',
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'POST', path: '/v1/client/shipping-orders/{id}/settle-offline' },
  graphql: { name: 'settleShippingOrderOffline', kind: 'mutation' },
  failures: { NOT_FOUND: 'No shipping order of the business has this id', NOTHING_DUE: true },
  input: IdInput,
  output: z.object({
    result: z.literal(true),
    shipping_order: ShippingOrderView.extend({ customer_id: z.number().int().describe('The order’s customer') }),
  }),
  async handler(input, ctx) {
    return settleOffline(ctx, input.id);
  },
});

async function cancel(ctx: BusinessContext, id: number) {
  const scope = { businessId: ctx.caller.businessId, customerId: ctx.caller.id };
  let seen = await repo.shippingOrderOf(ctx.em, scope.businessId, scope.customerId, id);
  if (!seen) throw errors.notFound();
  // The process may place the delivery order while this call stops an earlier one: at most twice round.
  for (let round = 0; ; round++) {
    if (!cancellable(seen.status)) throw fail('SHIPPING_ORDER_NOT_CANCELLABLE', 'shipping_orders.not_cancellable');
    if (seen.order_id !== null) await cancelDelivery(ctx, seen.order_id, seen.order_status_id);
    const stopped = seen.order_id;
    const placedMeanwhile = await ctx.em.transactional(async (tx) => {
      const o = await repo.lockShippingOrder(tx, id, scope);
      if (!o) throw errors.notFound();
      // Its delivery order's cancellation just cancelled and refunded it too (closing.ts, the orders' hook).
      if (o.status === 'cancelled' && stopped !== null && o.order_id === stopped) return false;
      if (!cancellable(o.status)) throw fail('SHIPPING_ORDER_NOT_CANCELLABLE', 'shipping_orders.not_cancellable');
      if (o.order_id !== null && o.order_id !== stopped) return true;
      await cancelOrder(tx, o, 'customer');
      return false;
    });
    if (!placedMeanwhile) break;
    if (round > 0) throw fail('SHIPPING_ORDER_NOT_CANCELLABLE', 'shipping_orders.not_cancellable');
    seen = (await repo.shippingOrderOf(ctx.em, scope.businessId, scope.customerId, id))!;
  }
  await tellProcess(ctx.temporal, ctx.log, id, cancelledSignal);
  return readOrder(ctx, id);
}

export const cancelShippingOrder = defineOperation({
  name: 'cancel_shipping_order',
  summary: 'Cancel your shipping order: its delivery order is stopped and everything paid goes back to your wallet.',
  description: `A pending_payment or confirmed order: its delivery order, once placed, is cancelled first (a carrier label voided). When that is refused (out for delivery, held by a delivery provider, handed to the carrier, a purchase still with the carrier) the answer is SHIPPING_ORDER_NOT_CANCELLABLE with the reason and nothing changes; when the carrier cannot void the label just now it is LABEL_VOID_REFUSED (424, \`carrier_error.retryable\` true) and nothing changes: ask again. Then the order is cancelled (\`cancel_reason\` customer) and everything the wallet paid is refunded to it, once. A cancelled or expired order is SHIPPING_ORDER_NOT_CANCELLABLE. An order whose delivery order is cancelled another way (by the business, or by the delivery provider holding it) is cancelled and refunded with it. Answers the order as \`shipping_order\`. ${ORDER_RULE}`,
  tag: TAG,
  roles: ['customer'],
  business: true,
  rest: { method: 'POST', path: '/v1/customer/shipping-orders/{id}/cancel' },
  graphql: { name: 'cancelShippingOrder', kind: 'mutation' },
  mcp: { scope: 'customer_shipping:write', risk: 'high' },
  failures: {
    NOT_FOUND: 'No shipping order of yours has this id',
    SHIPPING_ORDER_NOT_CANCELLABLE: true,
    LABEL_VOID_REFUSED:
      'The carrier could not void the label just now (`carrier_error.retryable` true): nothing changed, ask again',
  },
  input: IdInput,
  output: OrderAnswer,
  async handler(input, ctx) {
    return cancel(ctx, input.id);
  },
});
