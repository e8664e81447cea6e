/**
 * How a shipping order closes with its money (docs/customer-services.md, "Shipping orders"): expired or cancelled,
 * everything the wallet paid refunded once, in the caller's transaction under the order's row lock; and the orders
 * module's `orderCancelled` hook, by which a shipping order follows its delivery order when that is cancelled
 * another way (staff, the customer on the order itself, a delivery provider accepting a cancel).
 */
import type { Em } from '../../platform/db/orm.ts';
import { refundToWallet } from '../customer-services/index.ts';
import type { OrderCancelledHook } from '../orders/index.ts';
import { cancelledSignal } from './contract.ts';
import { cancellable, REFERENCE_TYPE, refundKey, type CancelReason } from './domain.ts';
import { tellProcess } from './operations/present.ts';
import { lockShippingOrderOfDelivery, setStatus, type ShippingOrderRow } from './repo.ts';

/** Refunds everything the wallet paid for the order, once (key `so-<id>-refund`), in the caller's transaction. */
export async function refundPaid(tx: Em, o: ShippingOrderRow): Promise<void> {
  await refundToWallet(tx, {
    businessId: o.business_id,
    customerId: o.customer_id,
    key: refundKey(o.id),
    currency: o.currency,
    amount: o.wallet_amount,
    reference: { type: REFERENCE_TYPE, id: o.id },
  });
}

/** An unpaid order whose expires_at has passed: expired, whether or not its process has expired it yet. */
export const pastExpiry = (o: ShippingOrderRow): boolean =>
  o.status === 'pending_payment' && new Date(o.expires_at).getTime() <= Date.now();

/** Expires an unpaid order (locked) and refunds its partial payment. */
export async function expireOrder(tx: Em, o: ShippingOrderRow): Promise<void> {
  await setStatus(tx, o.id, 'expired');
  await refundPaid(tx, o);
}

/** Cancels an order (locked) for `reason` and refunds what its wallet paid. */
export async function cancelOrder(tx: Em, o: ShippingOrderRow, reason: CancelReason): Promise<void> {
  await setStatus(tx, o.id, 'cancelled', reason);
  await refundPaid(tx, o);
}

/**
 * The orders module's `orderCancelled` hook: the shipping order whose delivery order was just cancelled is
 * cancelled in the same transaction and refunded (reason `customer` when its customer cancelled the delivery order,
 * else `delivery_cancelled`); its process hears of it after the commit. An order closed already is left as it is,
 * so a retried cancellation changes nothing more (a cancelled one's process is told again).
 */
export const followDeliveryCancel: OrderCancelledHook = async (tx, order, ctx) => {
  const o = await lockShippingOrderOfDelivery(tx, order.businessId, order.id);
  if (!o) return;
  if (cancellable(o.status)) {
    const byCustomer = ctx.actor.role === 'customer' && ctx.actor.userId === o.customer_id;
    await cancelOrder(tx, o, byCustomer ? 'customer' : 'delivery_cancelled');
  } else if (o.status !== 'cancelled') return;
  // Run again by the cancellation's process after the commit: the order is cancelled already, its process told again.
  return () => tellProcess(ctx.temporal, ctx.log, o.id, cancelledSignal);
};
