/** Self delivery rates (docs/uniorder.md, "Self rate ids"): bought once by their id within their life. */
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import type { UniorderRateInput } from '../views.ts';

/** A price line of the local price model, as POST /v1/orders/rate answers it. */
export type PriceLine = Record<string, string>;

export interface SelfRateRow {
  id: string;
  business_id: number;
  caller_id: number;
  /** The order input as rated, its ship_date resolved. */
  input: UniorderRateInput & { ship_date: string };
  currency: string;
  shipping_price: string;
  tax: string;
  price_details: PriceLine[];
  expires_at: Date;
  used_by_order_id: number | null;
  idempotency_key: string | null;
}

const COLUMNS = `id, business_id, caller_id, input, currency, shipping_price::text as shipping_price, tax::text as tax,
  price_details, expires_at, used_by_order_id, idempotency_key`;

export async function insertSelfRate(
  em: Em,
  row: Omit<SelfRateRow, 'used_by_order_id' | 'idempotency_key'>,
): Promise<void> {
  await executeBound(
    em,
    `insert into self_rate (id, business_id, caller_id, input, currency, shipping_price, tax, price_details, expires_at)
     values ($1, $2, $3, $4::jsonb, $5, $6, $7, $8::jsonb, $9)`,
    [
      row.id,
      row.business_id,
      row.caller_id,
      JSON.stringify(row.input),
      row.currency,
      row.shipping_price,
      row.tax,
      JSON.stringify(row.price_details),
      row.expires_at,
    ],
  );
}

/** The business's self rate of this id, or null (another business's rate is no rate). */
export async function selfRateById(em: Em, businessId: number, id: string): Promise<SelfRateRow | null> {
  const rows = await executeBound<SelfRateRow>(
    em,
    `select ${COLUMNS} from self_rate where id = $1 and business_id = $2`,
    [id, businessId],
  );
  return rows[0] ?? null;
}

/** The self rate an earlier creation with this idempotency key used, or null. */
export async function selfRateByKey(em: Em, businessId: number, key: string): Promise<SelfRateRow | null> {
  const rows = await executeBound<SelfRateRow>(
    em,
    `select ${COLUMNS} from self_rate where business_id = $1 and idempotency_key = $2`,
    [businessId, key],
  );
  return rows[0] ?? null;
}

/**
 * Marks the rate used by the order (with the creation's key): false when another creation used it first. A key
 * another creation holds violates the unique (business_id, idempotency_key): 'key'.
 */
export async function claimSelfRate(
  em: Em,
  id: string,
  orderId: number,
  key: string | null,
): Promise<'claimed' | 'used' | 'key'> {
  try {
    const rows = await executeBound(
      em,
      `update self_rate set used_by_order_id = $2, idempotency_key = $3
       where id = $1 and used_by_order_id is null returning id`,
      [id, orderId, key],
    );
    return rows.length === 1 ? 'claimed' : 'used';
  } catch (err) {
    if ((err as { code?: string }).code === '23505') return 'key';
    throw err;
  }
}

/** Today (YYYY-MM-DD) in the business's timezone, and its name (the self rates' carrier name). */
export async function businessTodayAndName(em: Em, businessId: number): Promise<{ today: string; name: string }> {
  const [row] = await executeBound<{ today: string; name: string }>(
    em,
    "select to_char(now() at time zone timezone, 'YYYY-MM-DD') as today, name from business where id = $1",
    [businessId],
  );
  return row!;
}
