/** The facts of a label order's order that the labels module reads and moves (through orders' one status writer). */
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import type { OrderFacts } from '../../orders/index.ts';

export interface LabelOrderFacts extends OrderFacts {
  customerId: number | null;
  currency: string | null;
  shippingPrice: string | null;
  tax: string | null;
  priceDetails: Record<string, string>[] | null;
}

/** The orders of the business with these ids (any kind), in id order; `lock` holds them for the transaction. */
export async function orderFactsOf(
  em: Em,
  businessId: number,
  orderIds: readonly number[],
  lock = false,
): Promise<LabelOrderFacts[]> {
  return executeBound<LabelOrderFacts>(
    em,
    `select id, business_id as "businessId", order_ref as "orderRef", tracking_number as "trackingNumber", type,
       status_id as "statusId", carrier_provider_id as "carrierProviderId", customer_id as "customerId", created_at as "createdAt",
       currency, shipping_price::text as "shippingPrice", tax::text as tax, price_details as "priceDetails",
       price_family as "priceFamily"
     from delivery_order where business_id = $1 and id = any($2::int[]) order by id${lock ? ' for update' : ''}`,
    [businessId, orderIds],
  );
}

/** The business's order whose tracking number, package number or carrier tracking number this is. */
export async function orderIdByTrackingNumber(em: Em, businessId: number, number: string): Promise<number | null> {
  const rows = await executeBound<{ id: number }>(
    em,
    `select o.id from delivery_order o where o.business_id = $1 and o.tracking_number = $2
     union select p.order_id from order_package p
       where p.business_id = $1 and (p.package_number = $2 or p.carrier_reference = $2)
     limit 1`,
    [businessId, number],
  );
  return rows[0]?.id ?? null;
}

/** The provider business of a carrier (docs/labels.md): its orders' carrier_provider_id. */
export async function providerIdOf(em: Em, providerCode: string): Promise<number> {
  const rows = await executeBound<{ id: number }>(em, 'select id from business where code = $1', [providerCode]);
  if (!rows[0]) throw new Error(`no provider business ${providerCode}: run the migrations`);
  return rows[0].id;
}
