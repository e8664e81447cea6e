/** A label order as answers show it (docs/labels.md): its label, and its price unless hidden from the caller. */
import type { BusinessContext } from '../../../platform/catalog/types.ts';
import { AppError, errors } from '../../../platform/errors.ts';
import { CARRIER_STATUSES, statusCodeOf } from '../../orders/index.ts';
import { adapterFor, type CarrierEnv } from '../carriers/registry.ts';
import { labelOrderOf, type LabelOrderRow } from '../repo/labelOrders.ts';
import { orderFactsOf, type LabelOrderFacts } from '../repo/orderFacts.ts';
import type { LabelView, PurchaseAnswer } from '../views.ts';
import { orderPricesHidden } from './rate.ts';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function presentLabel(env: CarrierEnv, row: LabelOrderRow): LabelView {
  const adapter = adapterFor(row.carrier, env);
  return {
    state: row.state,
    carrier: row.carrier,
    carrier_name: adapter.name,
    service: row.service,
    service_name: adapter.services.find((s) => s.code === row.service)?.name ?? row.service,
    carrier_tracking_numbers: row.carrier_tracking_numbers,
    carrier_shipment_id: row.carrier_shipment_id,
    formats: row.formats,
    purchased_at: iso(row.purchased_at),
    submitted_at: iso(row.submitted_at),
    manifest_id: row.manifest_id,
    voided_at: iso(row.voided_at),
    label_error: row.label_error,
  };
}

/** A status as the caller reads it: a customer account sees a carrier's status as ours, as in its webhooks. */
export function statusFor(ctx: BusinessContext, statusId: number) {
  const id = ctx.caller.role === 'customer' ? (CARRIER_STATUSES.get(statusId) ?? statusId) : statusId;
  return { status_id: id, status: statusCodeOf(id) };
}

/** The price fields of an order's answer, or `price_hidden: true`. */
export function priceFields(order: LabelOrderFacts, hidden: boolean) {
  if (hidden) return { price_hidden: true as const };
  return {
    ...(order.currency !== null && { currency: order.currency }),
    ...(order.shippingPrice !== null && { shipping_price: order.shippingPrice }),
    ...(order.tax !== null && { tax: order.tax }),
    ...(order.priceDetails !== null && { price_details: order.priceDetails as PurchaseAnswer['price_details'] }),
  };
}

/**
 * The answer of a purchase: the order with its label. A purchase the carrier refused is LABEL_PURCHASE_FAILED (424)
 * with the order (kept in status 60) and the carrier's error.
 */
export async function purchaseAnswer(
  ctx: BusinessContext,
  orderId: number,
  replayed: boolean,
): Promise<PurchaseAnswer> {
  const businessId = ctx.caller.businessId;
  const [row, [order]] = await Promise.all([
    labelOrderOf(ctx.em, businessId, orderId),
    orderFactsOf(ctx.em, businessId, [orderId]),
  ]);
  if (!row || !order) throw errors.notFound();
  if (row.state === 'failed' && row.label_error) {
    const { at: _at, ...carrierError } = row.label_error;
    throw new AppError(424, 'LABEL_PURCHASE_FAILED', 'labels.purchase_failed', {
      extra: { order_id: orderId, tracking_number: order.trackingNumber, carrier_error: carrierError },
    });
  }
  const hidden = await orderPricesHidden(ctx, order.priceFamily);
  return {
    result: true as const,
    replayed,
    order_id: orderId,
    tracking_number: order.trackingNumber,
    ...statusFor(ctx, order.statusId),
    label: presentLabel(ctx, row),
    rate_id: row.rate_id,
    ...priceFields(order, hidden),
  };
}
