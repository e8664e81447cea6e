/** The order rows uniorder reads for its order view (any order of the business, local or label). */
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import type { PriceFamily } from '../../../platform/db/outbox.ts';

export interface StoredParty {
  name: string;
  phone?: string | null;
  email?: string | null;
  address: Record<string, unknown> & { line1: string; city: string; postal_code: string; country: string };
}

export interface UniorderOrderRow {
  id: number;
  type: string;
  order_ref: string | null;
  tracking_number: string;
  status_id: number;
  scheduled_date: string;
  recipient: StoredParty;
  pickup: StoredParty | null;
  customer_id: number | null;
  currency: string | null;
  shipping_price: string | null;
  tax: string | null;
  price_details: Record<string, string>[] | null;
  created_at: Date;
  self_rate_id: string | null;
  /** Whose prices these are (docs/customer-services.md, price hiding): a customer service's order is hidden by its service. */
  price_family: PriceFamily;
}

/** The business's order of this id (with the self rate it was created at, if any), or null. */
export async function orderRowOf(em: Em, businessId: number, orderId: number): Promise<UniorderOrderRow | null> {
  const rows = await executeBound<UniorderOrderRow>(
    em,
    `select o.id, o.type, o.order_ref, o.tracking_number, o.status_id, o.scheduled_date::text as scheduled_date,
       o.recipient, o.pickup, o.customer_id, o.currency, o.shipping_price::text as shipping_price, o.tax::text as tax,
       o.price_details, o.created_at, o.price_family, (select s.id from self_rate s where s.used_by_order_id = o.id) as self_rate_id
     from delivery_order o where o.business_id = $1 and o.id = $2`,
    [businessId, orderId],
  );
  return rows[0] ?? null;
}

export async function packagesOf(
  em: Em,
  orderId: number,
): Promise<{ position: number; package_number: string; carrier_reference: string | null }[]> {
  return executeBound(
    em,
    'select position, package_number, carrier_reference from order_package where order_id = $1 order by position',
    [orderId],
  );
}
