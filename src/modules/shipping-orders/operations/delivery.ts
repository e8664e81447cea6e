/**
 * The delivery order behind a shipping order: placed once the order is confirmed (own fleet through the orders
 * module, a carrier's label through labels with key `so-<id>`), and cancelled or voided before the order is.
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
import { actorOf, afterOrdersPlaced, ORDER_STATUS, placeOrders, type OrderPrice } from '../../orders/index.ts';
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

const notCancellable = (ctx: BusinessContext, err: AppError) =>
  fail('SHIPPING_ORDER_NOT_CANCELLABLE', 'shipping_orders.delivery_not_cancellable', {
    reason: translate(err.key, ctx.lang, err.params),
  });

/**
 * Cancels the delivery order (own fleet) or voids its label (carrier), as the order's customer; an order cancelled
 * already is left as it is. A refusal is SHIPPING_ORDER_NOT_CANCELLABLE with its reason, nothing changed.
 */
export async function cancelDelivery(ctx: BusinessContext, orderId: number, statusId: number | null): Promise<void> {
  if (statusId === ORDER_STATUS.CANCELLED) return;
  try {
    const label = await labelOrderOf(ctx.em, ctx.caller.businessId, orderId);
    if (label) {
      if (label.state === 'voided') return;
      if (label.state === 'failed') await cancelFailedLabelOrder(ctx, orderId);
      else await voidLabel(ctx, orderId);
      return;
    }
    const out = await orderCancel.handler({ id: orderId, reason: 'Shipping order cancelled' }, ctx);
    if (out.cancellation.status !== 'cancelled')
      throw new AppError(409, 'CANCEL_PENDING', 'shipping_orders.not_cancellable');
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.code === 'ORDER_ALREADY_CANCELLED') return;
    if (REFUSALS.has(err.code)) throw notCancellable(ctx, err);
    throw err;
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
 * label is bought with the key `so-<id>`, so a retry finds its label order, and recorded after. An order that is
 * not confirmed (cancelled meanwhile) places nothing; a label bought for an order cancelled while it was bought is
 * voided.
 */
export async function placeDelivery(ctx: BusinessContext, id: number): Promise<boolean> {
  const businessId = ctx.caller.businessId;
  const first = await repo.shippingOrderOf(ctx.em, businessId, null, id);
  if (!first || first.status !== 'confirmed') return false;
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
      if (o?.status === 'confirmed' && o.order_id === null) await repo.setPlacement(tx, id, { error: orderId });
    });
    return false;
  }
  const recorded = await ctx.em.transactional(async (tx) => {
    const o = await repo.lockShippingOrder(tx, id);
    if (!o || o.status !== 'confirmed') return false;
    if (o.order_id === null) await repo.setPlacement(tx, id, { orderId });
    return true;
  });
  // Cancelled while its label was bought: the label is voided (the cancel found no delivery order to stop).
  if (!recorded) await cancelDelivery(ctx, orderId, null).catch(() => undefined);
  return recorded;
}

/**
 * The label order of the shipping order: the one its key bought already, or one bought now at the service's rate.
 * Answers why not when the carrier gives no rate for the service (the order is then not placed).
 */
async function buyLabel(
  ctx: BusinessContext,
  o: repo.ShippingOrderRow,
  fulfilment: { carrier: string; service: string },
): Promise<number | PlacementError> {
  const key = labelKey(o.id);
  const earlier = await labelOrderByKey(ctx.em, ctx.caller.businessId, key);
  if (earlier) {
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
