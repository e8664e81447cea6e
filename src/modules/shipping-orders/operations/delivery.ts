/**
 * The delivery order behind a shipping order: placed once the order is confirmed (own fleet through the orders
 * module, a carrier's label through labels with key `tms:so-<id>`), and cancelled or voided before the order is.
 * Carrier calls are never made inside a transaction.
 */
import type { BusinessContext } from '../../../platform/catalog/types.ts';
import { AppError } from '../../../platform/errors.ts';
import { translate } from '../../../platform/i18n/messages.ts';
import { shippingService } from '../../customer-services/index.ts';
import {
  buyAtRate,
  cancelFailedLabelOrder,
  labelOrderByKey,
  labelOrderOf,
  quoteLabels,
  runPurchase,
  voidLabel,
} from '../../labels/index.ts';
import { orderCancel } from '../../order-cancellation/index.ts';
import {
  actorOf,
  afterOrdersPlaced,
  carrierHeld,
  ORDER_STATUS,
  placeOrders,
  visibleOrder,
  type OrderPrice,
} from '../../orders/index.ts';
import { cancelOrder } from '../closing.ts';
import { labelKey } from '../domain.ts';
import { fail } from '../errorCodes.ts';
import * as repo from '../repo.ts';
import { money } from './present.ts';

/** The codes of a delivery order that cannot be cancelled now: the shipping order is not cancellable then. */
const REFUSALS = new Set([
  'ORDER_GONE_OUT',
  'ORDER_FINISHED',
  'ORDER_UNDER_INTERCEPTION',
  'CANCEL_PENDING',
  'CANCEL_BY_VOID',
  'LABEL_NOT_VOIDABLE',
  'LABEL_VOID_REFUSED',
  'PURCHASE_IN_PROGRESS',
  'LABEL_ALREADY_PURCHASED',
  'NO_LABEL',
]);

/** Refusals that no retry gets past: a label left bought for a cancelled order is the staff's then. */
const FINAL = new Set(['ORDER_GONE_OUT', 'ORDER_FINISHED', 'LABEL_NOT_VOIDABLE', 'LABEL_ALREADY_PURCHASED']);

/** The carrier refused the void for now (`carrier_error.retryable`): asking again may void it. */
const retryableVoid = (err: AppError): boolean =>
  err.code === 'LABEL_VOID_REFUSED' &&
  (err.extra?.carrier_error as { retryable?: boolean } | undefined)?.retryable === true;

const notCancellable = (ctx: BusinessContext, err: AppError) =>
  fail('SHIPPING_ORDER_NOT_CANCELLABLE', 'shipping_orders.delivery_not_cancellable', {
    reason: translate(err.key, ctx.lang, err.params),
  });

/**
 * Stops the delivery order as the order's customer: cancels it (own fleet), or voids its label (carrier; a failed
 * purchase's label order is closed). An order cancelled already is left as it is. One a delivery provider holds is
 * refused before any cancellation is asked of it (CANCEL_PENDING): the shipping order follows it if the provider is
 * asked and accepts (closing.ts). Answers the refusal as its module raised it.
 */
async function stopDelivery(ctx: BusinessContext, orderId: number, statusId: number | null): Promise<void> {
  if (statusId === ORDER_STATUS.CANCELLED) return;
  const businessId = ctx.caller.businessId;
  const label = await labelOrderOf(ctx.em, businessId, orderId);
  if (label) {
    if (label.state === 'voided') return;
    if (label.state === 'failed') await cancelFailedLabelOrder(ctx, orderId);
    else await voidLabel(ctx, orderId);
    return;
  }
  const viewer = { businessId, userId: ctx.caller.id, role: ctx.caller.role };
  const facts = await visibleOrder(ctx.em, viewer, orderId);
  if (facts?.statusId === ORDER_STATUS.CANCELLED) return;
  const withProvider = () => new AppError(409, 'CANCEL_PENDING', 'shipping_orders.delivery_with_provider');
  if (facts && carrierHeld(facts)) throw withProvider();
  try {
    const out = await orderCancel.handler({ id: orderId, reason: 'Shipping order cancelled' }, ctx);
    // Handed to a provider since the check above: its answer decides, and the shipping order follows it.
    if (out.cancellation.status !== 'cancelled') throw withProvider();
  } catch (err) {
    if (err instanceof AppError && err.code === 'ORDER_ALREADY_CANCELLED') return;
    throw err;
  }
}

/**
 * Stops the delivery order before its shipping order is cancelled. A refusal is SHIPPING_ORDER_NOT_CANCELLABLE with
 * its reason, nothing changed; a carrier's void refused for now stays LABEL_VOID_REFUSED (424, ask again).
 */
export async function cancelDelivery(ctx: BusinessContext, orderId: number, statusId: number | null): Promise<void> {
  try {
    await stopDelivery(ctx, orderId, statusId);
  } catch (err) {
    if (!(err instanceof AppError) || retryableVoid(err)) throw err;
    if (REFUSALS.has(err.code)) throw notCancellable(ctx, err);
    throw err;
  }
}

/**
 * Voids the label bought for an order cancelled while it was bought (its id recorded on the order). Anything but a
 * final refusal is thrown, so the activity retries it; a final one is logged and kept as the order's placement
 * error for the staff.
 */
async function stopStray(ctx: BusinessContext, o: repo.ShippingOrderRead): Promise<void> {
  try {
    await stopDelivery(ctx, o.order_id!, o.order_status_id);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (!FINAL.has(err.code) && !(err.code === 'LABEL_VOID_REFUSED' && !retryableVoid(err))) throw err;
    ctx.log.error(
      { err, shippingOrderId: o.id, orderId: o.order_id },
      'the label of a cancelled shipping order could not be voided',
    );
    await repo.setPlacement(ctx.em, o.id, {
      error: { code: err.code, message: translate(err.key, 'en', err.params), label_left_bought: true },
    });
  }
}

/** The price the delivery order carries: the shipping order's, in its family (shipping_service). */
function priceOf(o: repo.ShippingOrderRow): OrderPrice {
  return {
    shippingPrice: money(o.total, o.currency),
    tax: money(o.tax, o.currency),
    currency: o.currency,
    priceDetails: o.price_details as unknown as Record<string, unknown>[],
  };
}

const recipientOf = (p: repo.ShippingOrderRow['recipient']) => ({
  name: p.company ? `${p.name}, ${p.company}` : p.name,
  phone: p.phone,
  email: p.email,
  address: {
    line1: p.address.line1,
    line2: p.address.line2,
    city: p.address.city,
    postal_code: p.address.postal_code,
    country: p.address.country,
  },
});

/** Why a delivery order could not be placed, kept on the shipping order for the staff. */
export type PlacementError = { code: string; message: string };

/**
 * Places the delivery order of a confirmed shipping order, once: answers whether the order has one now. The own
 * fleet's order is placed in the transaction that records it, under the shipping order's row lock; a carrier's
 * label is bought with the key `tms:so-<id>`, so a retry finds its label order, and recorded after. An order that
 * is not confirmed (cancelled meanwhile) places nothing; a label bought for an order cancelled while it was bought
 * is recorded on it and voided (a void that fails is thrown, so the activity retries it). When the carrier gives
 * no rate for the service nothing can be placed: the order is cancelled (`no_rate`) and its wallet refunded.
 */
export async function placeDelivery(ctx: BusinessContext, id: number): Promise<boolean> {
  const businessId = ctx.caller.businessId;
  const first = await repo.shippingOrderOf(ctx.em, businessId, null, id);
  if (!first) return false;
  if (first.status === 'cancelled' && first.order_id !== null) {
    // A retry after a void that failed (or a delivery order stopped already, which changes nothing).
    await stopStray(ctx, first);
    return false;
  }
  if (first.status !== 'confirmed') return false;
  if (first.order_id !== null) return true;
  const service = await shippingService(ctx.em, businessId, first.service_code, { activeOnly: false });
  if (!service) return false;

  if (service.fulfilment.kind === 'own_fleet') {
    const scheduledDate = await repo.businessToday(ctx.em, businessId);
    const placed = await ctx.em.transactional(async (tx) => {
      const o = await repo.lockShippingOrder(tx, id);
      if (!o || o.status !== 'confirmed' || o.order_id !== null) return null;
      const [p] = await placeOrders(
        tx,
        businessId,
        [
          {
            type: 'D',
            scheduled_date: scheduledDate,
            order_ref: o.reference,
            recipient: recipientOf(o.recipient),
            note: null,
            packages: o.packages.map((p) => ({
              weight_grams: p.weight_grams,
              length_mm: p.length_mm,
              width_mm: p.width_mm,
              height_mm: p.height_mm,
            })),
            customer_id: o.customer_id,
            price_family: 'shipping_service',
          },
        ],
        actorOf(ctx),
        { pricing: null, prices: [priceOf(o)] },
      );
      await repo.setPlacement(tx, id, { orderId: p!.orderId });
      return p!;
    });
    if (placed) await afterOrdersPlaced(ctx, [placed]);
    const now = await repo.shippingOrderOf(ctx.em, businessId, null, id);
    return now?.order_id != null;
  }

  const orderId = await buyLabel(ctx, first, service.fulfilment);
  if (typeof orderId !== 'number') {
    await ctx.em.transactional(async (tx) => {
      const o = await repo.lockShippingOrder(tx, id);
      if (o?.status !== 'confirmed' || o.order_id !== null) return;
      await repo.setPlacement(tx, id, { error: orderId });
      if (orderId.code === 'NO_RATE') await cancelOrder(tx, o, 'no_rate');
    });
    return false;
  }
  const recorded = await ctx.em.transactional(async (tx) => {
    const o = await repo.lockShippingOrder(tx, id);
    if (!o) return false;
    // Cancelled while its label was bought (the cancel found no delivery order to stop): the label is recorded on
    // it, so it is voided below, by a retry of this activity when that fails, or found by the staff.
    if (o.order_id === null) await repo.setPlacement(tx, id, { orderId });
    return o.status === 'confirmed';
  });
  if (!recorded) {
    const now = await repo.shippingOrderOf(ctx.em, businessId, null, id);
    if (now?.status === 'cancelled' && now.order_id === orderId) await stopStray(ctx, now);
  }
  return recorded;
}

/**
 * The label order of the shipping order: the one its key bought already (only if it is this order's own: its
 * customer's, in the shipping_service family), or one bought now at the service's rate. Answers why not when the
 * carrier gives no rate for the service (the order is then cancelled and refunded) or refuses the quote.
 */
async function buyLabel(
  ctx: BusinessContext,
  o: repo.ShippingOrderRow,
  fulfilment: { carrier: string; service: string },
): Promise<number | PlacementError> {
  const key = labelKey(o.id);
  const earlier = await labelOrderByKey(ctx.em, ctx.caller.businessId, key);
  if (earlier) {
    // Only this order's own purchase is reused: the customer's, in the shipping_service family.
    const viewer = { businessId: o.business_id, userId: o.customer_id, role: 'customer' as const };
    const facts = await visibleOrder(ctx.em, viewer, earlier.order_id);
    if (facts?.priceFamily !== 'shipping_service')
      return { code: 'LABEL_KEY_TAKEN', message: `label order ${earlier.order_id} holds the key ${key}` };
    // An earlier attempt stored the label order and died before the carrier answered: ask again with its key.
    if (earlier.state === 'pending') await runPurchase(ctx, earlier.order_id);
    return earlier.order_id;
  }
  try {
    const quote = await quoteLabels(ctx, {
      shipper: o.sender,
      recipient: o.recipient,
      parcels: o.packages.map((p) => ({
        weight_grams: p.weight_grams,
        length_mm: p.length_mm,
        width_mm: p.width_mm,
        height_mm: p.height_mm,
        reference: null,
      })),
      reference: o.reference,
      carriers: [fulfilment.carrier as never],
    });
    const rate = quote.rates.find((r) => r.service === fulfilment.service);
    if (!rate) return { code: 'NO_RATE', message: `${fulfilment.carrier} gave no rate for ${fulfilment.service}` };
    const { orderId } = await buyAtRate(ctx, {
      rate_id: rate.id,
      idempotency_key: key,
      reference: o.reference,
      customer_id: o.customer_id,
      price: priceOf(o),
      price_family: 'shipping_service',
    });
    return orderId;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.code === 'PURCHASE_IN_PROGRESS') throw err;
    return { code: err.code, message: translate(err.key, ctx.lang, err.params) };
  }
}
