/**
 * The storage_order rows (docs/customer-services.md, "Storage orders"). Money is bigint minor units in the database
 * and BigInt here, read as text: never through a JS number.
 */
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import {
  customerOrderByKey,
  customerOrderPage,
  type CustomerOrderRow,
  type OrderRows,
  type PriceLine,
} from '../../customer-services/index.ts';
import type { OrderState } from '../domain.ts';

export interface StorageOrderRow extends CustomerOrderRow {
  warehouse_id: number;
  status: OrderState;
  expected_arrival: string | null;
  total: bigint;
  tax: bigint;
  price_details: PriceLine[];
  period: 'day' | 'month';
  period_price: bigint;
  period_tax: bigint;
  storage_day_seconds: number;
  paid_amount: bigint;
  offline_amount: bigint;
  expires_at: string | null;
  workflow_id: string | null;
  /** A hash of what the creation asked for (null before it was kept): a repeat of the key must ask the same. */
  request_hash: string | null;
  created_at: string;
  updated_at: string;
}

type Raw = Omit<StorageOrderRow, 'total' | 'tax' | 'period_price' | 'period_tax' | 'paid_amount' | 'offline_amount'> & {
  total: string;
  tax: string;
  period_price: string;
  period_tax: string;
  paid_amount: string;
  offline_amount: string;
};

const COLUMNS = `id, business_id, customer_id, service_id, service_code, warehouse_id, status, reference,
  to_char(expected_arrival, 'YYYY-MM-DD') as expected_arrival, currency, total::text, tax::text, price_details,
  period, period_price::text, period_tax::text, storage_day_seconds, paid_amount::text, offline_amount::text, payments,
  to_json(expires_at) #>> '{}' as expires_at, workflow_id, idempotency_key, request_hash,
  to_json(created_at) #>> '{}' as created_at, to_json(updated_at) #>> '{}' as updated_at`;

const toRow = (r: Raw): StorageOrderRow => ({
  ...r,
  total: BigInt(r.total),
  tax: BigInt(r.tax),
  period_price: BigInt(r.period_price),
  period_tax: BigInt(r.period_tax),
  paid_amount: BigInt(r.paid_amount),
  offline_amount: BigInt(r.offline_amount),
});

const ROWS: OrderRows<Raw, StorageOrderRow> = { columns: COLUMNS, from: 'storage_order s', rowOf: toRow };

/** A new order's id, taken before its process starts (the process is named after it). */
export async function nextOrderId(em: Em): Promise<number> {
  const [row] = await executeBound<{ id: number }>(
    em,
    "select nextval(pg_get_serial_sequence('storage_order', 'id'))::int as id",
    [],
  );
  return row!.id;
}

export type NewOrder = Omit<
  StorageOrderRow,
  'paid_amount' | 'offline_amount' | 'payments' | 'expires_at' | 'created_at' | 'updated_at'
> & { expires_at: Date | null };

/** Inserts the order; null when its idempotency key names an order of the customer already. */
export async function insertOrder(em: Em, o: NewOrder): Promise<StorageOrderRow | null> {
  const rows = await executeBound<Raw>(
    em,
    `insert into storage_order (id, business_id, customer_id, service_id, service_code, warehouse_id, status, reference,
       expected_arrival, currency, total, tax, price_details, period, period_price, period_tax, storage_day_seconds,
       expires_at, workflow_id, idempotency_key, request_hash)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9::date, $10, $11::bigint, $12::bigint, $13::jsonb, $14, $15::bigint,
       $16::bigint, $17, $18, $19, $20, $21)
     on conflict (business_id, customer_id, idempotency_key) where idempotency_key is not null do nothing
     returning ${COLUMNS}`,
    [
      o.id,
      o.business_id,
      o.customer_id,
      o.service_id,
      o.service_code,
      o.warehouse_id,
      o.status,
      o.reference,
      o.expected_arrival,
      o.currency,
      o.total.toString(),
      o.tax.toString(),
      JSON.stringify(o.price_details),
      o.period,
      o.period_price.toString(),
      o.period_tax.toString(),
      o.storage_day_seconds,
      o.expires_at,
      o.workflow_id,
      o.idempotency_key,
      o.request_hash,
    ],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

/** The customer's order with this idempotency key, if any. */
export const orderByKey = (
  em: Em,
  businessId: number,
  customerId: number,
  key: string,
): Promise<StorageOrderRow | null> => customerOrderByKey(em, ROWS, { businessId, customerId }, key);

/**
 * The business's order, the customer's only when `customerId` is given; locked for update when asked (pay, cancel,
 * expiry and settling serialise on it).
 */
export async function orderOf(
  em: Em,
  businessId: number,
  id: number,
  opts: { customerId?: number; forUpdate?: boolean } = {},
): Promise<StorageOrderRow | null> {
  const rows = await executeBound<Raw>(
    em,
    `select ${COLUMNS} from storage_order where business_id = $1 and id = $2 and ($3::int is null or customer_id = $3)
     ${opts.forUpdate ? 'for update' : ''}`,
    [businessId, id, opts.customerId ?? null],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

/** The order by id alone, locked (the expiry activity knows no business). */
export async function lockOrderById(em: Em, id: number): Promise<StorageOrderRow | null> {
  const rows = await executeBound<Raw>(em, `select ${COLUMNS} from storage_order where id = $1 for update`, [id]);
  return rows[0] ? toRow(rows[0]) : null;
}

/** A page of the customer's orders, newest first, with the total. */
export const customerOrders = (
  em: Em,
  businessId: number,
  customerId: number,
  f: { status?: OrderState; limit: number; offset: number },
): Promise<{ total: number; rows: StorageOrderRow[] }> =>
  customerOrderPage(em, ROWS, {
    businessId,
    customerId,
    filter: { column: 'status', value: f.status ?? null },
    limit: f.limit,
    offset: f.offset,
  });

/** A wallet payment of `amount` recorded; `confirmed` once nothing is due. */
export async function recordPayment(em: Em, id: number, amount: bigint): Promise<void> {
  await executeBound(
    em,
    `update storage_order set paid_amount = paid_amount + $2::bigint, payments = payments + 1,
       status = case when paid_amount + $2::bigint + offline_amount >= total then 'confirmed' else status end,
       updated_at = now()
     where id = $1`,
    [id, amount.toString()],
  );
}

/** The rest of the price recorded as settled offline: the order is confirmed. */
export async function recordOfflineSettlement(em: Em, id: number): Promise<void> {
  await executeBound(
    em,
    `update storage_order set offline_amount = total - paid_amount, status = 'confirmed', updated_at = now()
     where id = $1`,
    [id],
  );
}

/** pending_payment or confirmed -> cancelled or expired. */
export async function endOrder(em: Em, id: number, status: 'cancelled' | 'expired'): Promise<void> {
  await executeBound(
    em,
    `update storage_order set status = $2, cancelled_at = case when $2 = 'cancelled' then now() end, updated_at = now()
     where id = $1`,
    [id, status],
  );
}
