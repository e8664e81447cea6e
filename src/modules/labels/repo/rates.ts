/** Label rates as quoted (docs/labels.md, "rate_id"): bought once by their id within their life. */
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import type { CarrierCharge, LabelShipment } from '../carriers/adapter.ts';

export interface RateRow {
  id: string;
  business_id: number;
  caller_id: number;
  carrier_account_id: number;
  carrier: string;
  service: string;
  shipment: LabelShipment;
  currency: string;
  base_charge: string;
  extra_charges: CarrierCharge[];
  total_charge: string;
  transit_days: number;
  /** YYYY-MM-DD. */
  estimated_delivery: string;
  expires_at: Date;
  used_by_order_id: number | null;
}

const COLUMNS = `id, business_id, caller_id, carrier_account_id, carrier, service, shipment, currency,
  base_charge::text as base_charge, extra_charges, total_charge::text as total_charge, transit_days,
  to_char(estimated_delivery, 'YYYY-MM-DD') as estimated_delivery, expires_at, used_by_order_id`;

export async function insertRates(em: Em, rates: readonly Omit<RateRow, 'used_by_order_id'>[]): Promise<void> {
  if (rates.length === 0) return;
  await executeBound(
    em,
    `insert into label_rate (id, business_id, caller_id, carrier_account_id, carrier, service, shipment, currency,
       base_charge, extra_charges, total_charge, transit_days, estimated_delivery, expires_at)
     select id, business_id, caller_id, carrier_account_id, carrier, service, shipment, currency, base_charge,
       extra_charges, total_charge, transit_days, estimated_delivery, expires_at
     from jsonb_to_recordset($1::jsonb) as r(id text, business_id int, caller_id int, carrier_account_id int,
       carrier text, service text, shipment jsonb, currency text, base_charge numeric, extra_charges jsonb,
       total_charge numeric, transit_days int, estimated_delivery date, expires_at timestamptz)`,
    [JSON.stringify(rates)],
  );
}

/** The business's rate of this id, or null (another business's rate is no rate). */
export async function rateById(em: Em, businessId: number, id: string): Promise<RateRow | null> {
  const rows = await executeBound<RateRow>(em, `select ${COLUMNS} from label_rate where id = $1 and business_id = $2`, [
    id,
    businessId,
  ]);
  return rows[0] ?? null;
}

/** Marks the rate bought by the order; false when another order bought it first. */
export async function claimRate(em: Em, id: string, orderId: number): Promise<boolean> {
  const rows = await executeBound(
    em,
    'update label_rate set used_by_order_id = $2 where id = $1 and used_by_order_id is null returning id',
    [id, orderId],
  );
  return rows.length === 1;
}

/** Deletes unused rates expired for over a day (the hourly label-rate-prune); answers how many. */
export async function pruneRates(em: Em): Promise<number> {
  const rows = await executeBound(
    em,
    "delete from label_rate where used_by_order_id is null and expires_at < now() - interval '1 day' returning id",
    [],
  );
  return rows.length;
}

/** Today (YYYY-MM-DD) in the business's timezone. */
export async function businessToday(em: Em, businessId: number): Promise<string> {
  const [row] = await executeBound<{ today: string }>(
    em,
    "select to_char(now() at time zone timezone, 'YYYY-MM-DD') as today from business where id = $1",
    [businessId],
  );
  return row!.today;
}
