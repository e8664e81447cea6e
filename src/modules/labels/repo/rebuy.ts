/** The writes of buying a label again (docs/labels.md, "Buying again") besides the label order's own. */
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import { formatDecimal, minorDigits } from '../../delivery-prices/index.ts';

/** A price the label is bought again at: a new rate's, or the carrier's rate of now. */
export interface NewPrice {
  currency: string;
  base_charge: string;
  extra_charges: readonly { code: string; amount: string }[];
  total_charge: string;
}

/**
 * A rate used to buy again is spent: it expires now (its used_by_order_id stays free: the order has its first rate).
 * False when it was bought or had expired meanwhile (a racing purchase of the same rate): nothing is spent then.
 */
export async function spendRate(em: Em, rateId: string): Promise<boolean> {
  const rows = await executeBound(
    em,
    `update label_rate set expires_at = now()
     where id = $1 and used_by_order_id is null and expires_at > now() returning id`,
    [rateId],
  );
  return rows.length === 1;
}

/**
 * The order takes the new price when its total or currency differs; an equal total changes nothing. Answers the
 * price it had when it changed, null when it did not.
 */
export async function priceOrder(
  em: Em,
  orderId: number,
  p: NewPrice,
): Promise<{ shipping_price: string | null; currency: string | null } | null> {
  const [before] = await executeBound<{ shipping_price: string | null; currency: string | null }>(
    em,
    'select shipping_price::text as shipping_price, currency from delivery_order where id = $1',
    [orderId],
  );
  const line = (code: string, amount: string) => ({
    code,
    quantity: '1',
    unit: 'shipment',
    unit_amount: amount,
    amount,
  });
  const changed = await executeBound(
    em,
    `update delivery_order set shipping_price = $2::numeric, tax = $3::numeric, currency = $4, price_details = $5::jsonb,
       updated_at = now()
     where id = $1 and (shipping_price is distinct from $2::numeric or currency is distinct from $4)
     returning id`,
    [
      orderId,
      p.total_charge,
      formatDecimal(0n, minorDigits(p.currency)),
      p.currency,
      JSON.stringify([line('base', p.base_charge), ...p.extra_charges.map((c) => line(c.code, c.amount))]),
    ],
  );
  return changed.length === 1 ? (before ?? null) : null;
}
