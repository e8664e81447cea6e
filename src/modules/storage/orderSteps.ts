/**
 * The storage order's state changes (docs/customer-services.md, "Storage orders"), each inside the caller's
 * transaction under the order's row lock: pay, settle offline, cancel, expire. The wallet moves its money and wms
 * its packages in the same transaction, so an order is never paid without its packages open for receiving, nor
 * cancelled without its refund and its packages released.
 */
import type { Em } from '../../platform/db/orm.ts';
import { errors } from '../../platform/errors.ts';
import { minorDigits, parseDecimal } from '../delivery-prices/index.ts';
import { payFromWallet, refundToWallet } from '../customer-services/index.ts';
import { failPayment } from '../wallet/index.ts';
import { openForReceiving, packagesOf, releasePackages } from '../wms/index.ts';
import type { StorageOrderOutcome } from './contract.ts';
import { canCancel } from './domain.ts';
import { fail } from './errorCodes.ts';
import {
  endOrder,
  lockOrderById,
  orderOf,
  recordOfflineSettlement,
  recordPayment,
  type StorageOrderRow,
} from './repo/orders.ts';

export const balanceDue = (o: StorageOrderRow): bigint => o.total - o.paid_amount - o.offline_amount;

/** The customer's order locked, or 404 (another customer's or business's order is not found). */
async function lockCustomerOrder(tx: Em, businessId: number, customerId: number | null, id: number) {
  const order = await orderOf(tx, businessId, id, { customerId: customerId ?? undefined, forUpdate: true });
  if (!order) throw errors.notFound();
  return order;
}

/**
 * Pays `amount` (the whole balance due when absent) from the customer's wallet as a balancing transfer, key
 * `sto-<id>-pay-<n>`: the wallet pays what it has, up to that; INSUFFICIENT_FUNDS when it has nothing. Fully paid,
 * the order is confirmed and its packages may be received. PRICE_HIDDEN_SETTLE_OFFLINE (after NOT_FOUND) when
 * `pricesHidden`. Answers whether it is confirmed now.
 */
export async function payOrder(
  tx: Em,
  f: { businessId: number; customerId: number; id: number; amount?: string; pricesHidden?: boolean },
): Promise<{ confirmed: boolean }> {
  const order = await lockCustomerOrder(tx, f.businessId, f.customerId, f.id);
  // The order is the caller's (404 first); one whose prices are hidden is settled offline by the business.
  if (f.pricesHidden) throw failPayment('PRICE_HIDDEN_SETTLE_OFFLINE', 'storage.price_hidden');
  const due = balanceDue(order);
  if (order.status !== 'pending_payment' || due <= 0n) throw failPayment('NOTHING_DUE', 'storage.nothing_due');
  let asked = due;
  if (f.amount !== undefined) {
    const digits = minorDigits(order.currency);
    const parsed = parseDecimal(f.amount, digits);
    if (parsed === null) throw errors.field('amount', 'storage.amount_decimals', { decimals: digits });
    if (parsed <= 0n) throw errors.field('amount', 'storage.amount_not_positive');
    if (parsed > due) throw errors.field('amount', 'storage.amount_over_due');
    asked = parsed;
  }
  const moved = await payFromWallet(tx, {
    businessId: f.businessId,
    customerId: f.customerId,
    key: `sto-${order.id}-pay-${order.payments}`,
    currency: order.currency,
    amount: asked,
    reference: { type: 'storage_order', id: order.id },
  });
  await recordPayment(tx, order.id, moved.amount);
  const confirmed = moved.amount >= due;
  if (confirmed) await openForReceiving(tx, { businessId: f.businessId, storageOrderId: order.id });
  return { confirmed };
}

/** The business records the rest of the price as paid offline: the order is confirmed, its packages receivable. */
export async function settleOffline(tx: Em, businessId: number, id: number): Promise<void> {
  const order = await lockCustomerOrder(tx, businessId, null, id);
  if (order.status !== 'pending_payment' || balanceDue(order) <= 0n)
    throw failPayment('NOTHING_DUE', 'storage.nothing_due');
  await recordOfflineSettlement(tx, order.id);
  await openForReceiving(tx, { businessId, storageOrderId: order.id });
}

/** Gives back what the wallet paid for the order, once (key `sto-<id>-refund`). */
const refund = (tx: Em, order: StorageOrderRow): Promise<void> =>
  refundToWallet(tx, {
    businessId: order.business_id,
    customerId: order.customer_id,
    key: `sto-${order.id}-refund`,
    currency: order.currency,
    amount: order.paid_amount,
    reference: { type: 'storage_order', id: order.id },
  });

/** Releases the order's expected packages; false (nothing kept) when one was received meanwhile. */
async function releaseAll(tx: Em, order: StorageOrderRow): Promise<boolean> {
  await releasePackages(tx, { businessId: order.business_id, storageOrderId: order.id });
  const left = await packagesOf(tx, { businessId: order.business_id, storageOrderId: order.id });
  return left.every((p) => p.state === 'released');
}

/**
 * Cancels a pending_payment or confirmed order with no package received: its packages released, what the wallet
 * paid refunded. STORAGE_ORDER_NOT_CANCELLABLE otherwise, with nothing changed.
 */
export async function cancelOrder(tx: Em, businessId: number, customerId: number, id: number): Promise<void> {
  const order = await lockCustomerOrder(tx, businessId, customerId, id);
  const packages = await packagesOf(tx, { businessId, storageOrderId: order.id });
  if (!canCancel(order.status, packages)) throw fail('STORAGE_ORDER_NOT_CANCELLABLE', 'storage.not_cancellable');
  // A scan may have stored a package between the read and the release: then the whole cancel is undone.
  if (!(await releaseAll(tx, order))) throw fail('STORAGE_ORDER_NOT_CANCELLABLE', 'storage.not_cancellable');
  await refund(tx, order);
  await endOrder(tx, order.id, 'cancelled');
}

/** The unpaid expiry: a pending_payment order expires, its packages released and a partial payment refunded. */
export async function expireOrder(tx: Em, id: number): Promise<StorageOrderOutcome> {
  const order = await lockOrderById(tx, id);
  // No row: its creation was never committed, and there is nothing to expire.
  if (!order) return 'expired';
  if (order.status === 'confirmed') return 'paid';
  if (order.status !== 'pending_payment') return order.status;
  await releasePackages(tx, { businessId: order.business_id, storageOrderId: order.id });
  await refund(tx, order);
  await endOrder(tx, order.id, 'expired');
  return 'expired';
}
