/** The order view of docs/uniorder.md: any order of the business, local or label, with prices hidden by family. */
import type { BusinessContext } from '../../../platform/catalog/types.ts';
import { errors } from '../../../platform/errors.ts';
import { labelOrderOf, labelPricesHidden, presentLabel, statusFor, type LabelOrderRow } from '../../labels/index.ts';
import { localPricesHiddenFrom, pricesHiddenFrom } from '../../orders/index.ts';
import { orderRowOf, packagesOf, type StoredParty, type UniorderOrderRow } from '../repo/orders.ts';
import type { UniorderOrderView } from '../views.ts';

export interface ReadOrder {
  row: UniorderOrderRow;
  label: LabelOrderRow | null;
}

/** The caller's order: another business's, or a customer account's not its own, is NOT_FOUND. */
export async function readOrder(ctx: BusinessContext, orderId: number): Promise<ReadOrder> {
  const businessId = ctx.caller.businessId;
  const row = await orderRowOf(ctx.em, businessId, orderId);
  if (!row || (ctx.caller.role === 'customer' && row.customer_id !== ctx.caller.id)) throw errors.notFound();
  return { row, label: await labelOrderOf(ctx.em, businessId, orderId) };
}

/** Whether this caller's answers leave out the prices of an order of this kind. */
export const pricesHiddenFor = (ctx: BusinessContext, kind: 'self_delivery' | 'label') =>
  kind === 'label' ? labelPricesHidden(ctx) : localPricesHiddenFrom(ctx.em, ctx.caller);

export async function orderView(ctx: BusinessContext, orderId: number): Promise<UniorderOrderView> {
  const { row, label } = await readOrder(ctx, orderId);
  const kind = label ? 'label' : 'self_delivery';
  // Hidden by the order's own family: a shipping order's or ship-out's order by its service, not by its kind.
  const [packages, hidden] = await Promise.all([
    packagesOf(ctx.em, orderId),
    pricesHiddenFrom(ctx.em, ctx.caller, row.price_family),
  ]);
  const shipper = label ? label.shipment.shipper : row.type === 'P2P' ? row.pickup : null;
  return {
    result: true as const,
    order_id: row.id,
    kind,
    type: row.type,
    order_ref: row.order_ref,
    tracking_number: row.tracking_number,
    ...statusFor(ctx, row.status_id),
    scheduled_date: row.scheduled_date,
    shipper: shipper ? partyView(shipper) : null,
    recipient: label ? partyView(label.shipment.recipient) : partyView(row.recipient),
    parcels: packages.map((p) => ({
      position: p.position,
      package_number: p.package_number,
      carrier_tracking_number: p.carrier_reference,
    })),
    rate_id: label ? label.rate_id : row.self_rate_id,
    ...(hidden
      ? { price_hidden: true as const }
      : {
          ...(row.currency !== null && { currency: row.currency }),
          ...(row.shipping_price !== null && { shipping_price: row.shipping_price }),
          ...(row.tax !== null && { tax: row.tax }),
          ...(row.price_details !== null && { price_details: row.price_details }),
        }),
    label: label ? presentLabel(ctx, label) : null,
    created_at: new Date(row.created_at).toISOString(),
  };
}

function partyView(p: StoredParty & { company?: string | null }) {
  const a = p.address;
  const opt = (v: unknown) => (v === undefined || v === null ? null : (v as string));
  return {
    name: p.name,
    ...(p.company !== undefined && { company: p.company }),
    phone: p.phone ?? null,
    email: p.email ?? null,
    address: {
      line1: a.line1,
      line2: opt(a.line2),
      city: a.city,
      postal_code: a.postal_code,
      country: a.country,
      ...(a.lat !== undefined && { lat: (a.lat as number | null) ?? null }),
      ...(a.lng !== undefined && { lng: (a.lng as number | null) ?? null }),
      ...(a.state !== undefined && { state: opt(a.state) }),
    },
  };
}
