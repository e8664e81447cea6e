/** The shipout rows (docs/customer-services.md, "Ship-outs"): SQL with typed rows; money in minor units. */
import type { z } from 'zod';
import { executeBound, type Em } from '../../platform/db/orm.ts';
import type { Role } from '../../platform/roles.ts';
import {
  customerOrderByKey,
  customerOrderPage,
  type CustomerOrderRow,
  type OrderRows,
  type PriceLine,
} from '../customer-services/index.ts';
import type { PartyView } from '../labels/index.ts';
import type { ShipoutStatus } from './contract.ts';

/** A party as stored (the labels party shape, every optional field present). */
export type StoredParty = z.input<typeof PartyView>;

/** A price line as stored (the catalog's). */
export type StoredPriceLine = PriceLine;

export interface ShipoutRow extends CustomerOrderRow {
  warehouse_id: number;
  status: ShipoutStatus;
  recipient: StoredParty;
  pricing_method: 1 | 2;
  total: bigint | null;
  tax: bigint | null;
  price_details: StoredPriceLine[] | null;
  held_amount: bigint;
  settled_offline: boolean;
  expires_at: string | null;
  order_id: number | null;
  picked_at: string | null;
  packed_at: string | null;
  handed_over_at: string | null;
  created_at: string;
  updated_at: string;
}

type RawRow = Omit<ShipoutRow, 'total' | 'tax' | 'held_amount'> & {
  total: string | null;
  tax: string | null;
  held_amount: string;
};

const iso = (column: string) => `to_json(s.${column}) #>> '{}' as ${column}`;
const COLUMNS = `s.id, s.business_id, s.customer_id, s.service_id, s.service_code, s.warehouse_id, s.status,
  s.recipient, s.reference, s.pricing_method, s.currency, s.total::text as total, s.tax::text as tax, s.price_details,
  s.held_amount::text as held_amount, s.payments, s.settled_offline, ${iso('expires_at')}, s.order_id,
  ${iso('picked_at')}, ${iso('packed_at')}, ${iso('handed_over_at')}, s.idempotency_key, ${iso('created_at')},
  ${iso('updated_at')}`;

const rowOf = (r: RawRow): ShipoutRow => ({
  ...r,
  pricing_method: Number(r.pricing_method) as 1 | 2,
  total: r.total === null ? null : BigInt(r.total),
  tax: r.tax === null ? null : BigInt(r.tax),
  held_amount: BigInt(r.held_amount),
});

const ROWS: OrderRows<RawRow, ShipoutRow> = { columns: COLUMNS, from: 'shipout s', rowOf };

export type NewShipout = Omit<
  ShipoutRow,
  | 'held_amount'
  | 'payments'
  | 'settled_offline'
  | 'expires_at'
  | 'order_id'
  | 'picked_at'
  | 'packed_at'
  | 'handed_over_at'
  | 'created_at'
  | 'updated_at'
> & { expires_at: Date | null };

/** Inserts the ship-out; null when the customer's idempotency key names an earlier one (nothing written). */
export async function insertShipout(em: Em, s: NewShipout): Promise<number | null> {
  const rows = await executeBound<{ id: number }>(
    em,
    `insert into shipout (id, business_id, customer_id, service_id, service_code, warehouse_id, status, recipient,
       reference, pricing_method, currency, total, tax, price_details, expires_at, idempotency_key)
     values ($16, $1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11::bigint, $12::bigint, $13::jsonb, $14, $15)
     on conflict (business_id, customer_id, idempotency_key) where idempotency_key is not null do nothing
     returning id`,
    [
      s.business_id,
      s.customer_id,
      s.service_id,
      s.service_code,
      s.warehouse_id,
      s.status,
      JSON.stringify(s.recipient),
      s.reference,
      s.pricing_method,
      s.currency,
      s.total?.toString() ?? null,
      s.tax?.toString() ?? null,
      s.price_details === null ? null : JSON.stringify(s.price_details),
      s.expires_at,
      s.idempotency_key,
      s.id,
    ],
  );
  return rows[0]?.id ?? null;
}

/** A new ship-out id, drawn before the insert so that its process can start with it. */
export async function nextShipoutId(em: Em): Promise<number> {
  const rows = await executeBound<{ id: number }>(
    em,
    "select nextval(pg_get_serial_sequence('shipout', 'id'))::int as id",
    [],
  );
  return rows[0]!.id;
}

/** The customer's ship-out created with this idempotency key, or null. */
export const shipoutByKey = (em: Em, businessId: number, customerId: number, key: string): Promise<ShipoutRow | null> =>
  customerOrderByKey(em, ROWS, { businessId, customerId }, key);

/** The business's ship-out (a customer's own when `customerId` is given), locked when `lock`; null when none. */
export async function shipoutOf(
  em: Em,
  businessId: number,
  id: number,
  opts: { customerId?: number | null; lock?: boolean } = {},
): Promise<ShipoutRow | null> {
  const rows = await executeBound<RawRow>(
    em,
    `select ${COLUMNS} from shipout s where s.business_id = $1 and s.id = $2 and ($3::int is null or s.customer_id = $3)
     ${opts.lock ? 'for update' : ''}`,
    [businessId, id, opts.customerId ?? null],
  );
  return rows[0] ? rowOf(rows[0]) : null;
}

/** The ship-out by id alone, locked: for the process's activities, which carry only the id. */
export async function lockShipout(em: Em, id: number): Promise<ShipoutRow | null> {
  const rows = await executeBound<RawRow>(em, `select ${COLUMNS} from shipout s where s.id = $1 for update`, [id]);
  return rows[0] ? rowOf(rows[0]) : null;
}

export async function shipoutById(em: Em, id: number): Promise<ShipoutRow | null> {
  const rows = await executeBound<RawRow>(em, `select ${COLUMNS} from shipout s where s.id = $1`, [id]);
  return rows[0] ? rowOf(rows[0]) : null;
}

/** A customer's ship-outs, newest first, with their total count. */
export const listShipouts = (
  em: Em,
  businessId: number,
  customerId: number,
  filter: { status: ShipoutStatus | null; limit: number; offset: number },
): Promise<{ total: number; rows: ShipoutRow[] }> =>
  customerOrderPage(em, ROWS, {
    businessId,
    customerId,
    filter: { column: 'status', value: filter.status },
    limit: filter.limit,
    offset: filter.offset,
  });

/** Records the staff's price: awaiting_price -> pending_payment (paid for 0), payable until `expiresAt`. */
export async function recordPrice(
  em: Em,
  id: number,
  price: { total: bigint; tax: bigint; details: StoredPriceLine[]; status: ShipoutStatus; expiresAt: Date },
): Promise<void> {
  await executeBound(
    em,
    `update shipout set status = $6, total = $2::bigint, tax = $3::bigint, price_details = $4::jsonb,
       expires_at = $5, updated_at = now() where id = $1`,
    [id, price.total.toString(), price.tax.toString(), JSON.stringify(price.details), price.expiresAt, price.status],
  );
}

/** A hold placed: `payments` counts it, `held_amount` grows, and the ship-out is paid once the holds cover it. */
export async function recordHold(em: Em, id: number, moved: bigint, paid: boolean): Promise<void> {
  await executeBound(
    em,
    `update shipout set payments = payments + 1, held_amount = held_amount + $2::bigint,
       status = case when $3 then 'paid' else status end, updated_at = now() where id = $1`,
    [id, moved.toString(), paid],
  );
}

/** Moves the ship-out to `status` (cancelled, expired, paid offline, picked, packed), stamping the step's time. */
export async function setStatus(
  em: Em,
  id: number,
  status: ShipoutStatus,
  extra: { settledOffline?: boolean } = {},
): Promise<void> {
  await executeBound(
    em,
    `update shipout set status = $2,
       settled_offline = settled_offline or $3,
       picked_at = case when $2 = 'picked' then now() else picked_at end,
       packed_at = case when $2 = 'packed' then now() else packed_at end,
       updated_at = now() where id = $1`,
    [id, status, extra.settledOffline ?? false],
  );
}

/** The hand-over: its outbound order, handed_over now. */
export async function recordHandOver(em: Em, id: number, orderId: number): Promise<void> {
  await executeBound(
    em,
    `update shipout set status = 'handed_over', order_id = $2, handed_over_at = now(), updated_at = now() where id = $1`,
    [id, orderId],
  );
}

/** Remembers the outbound order placed (own fleet) before the hand-over commits: a retry finds it. */
export async function recordOrder(em: Em, id: number, orderId: number): Promise<void> {
  await executeBound(em, 'update shipout set order_id = $2, updated_at = now() where id = $1', [id, orderId]);
}

/** The outbound order as a ship-out shows it. */
export interface OutboundOrderRow {
  id: number;
  tracking_number: string;
  status_id: number;
}

export async function outboundOrderOf(em: Em, orderId: number): Promise<OutboundOrderRow | null> {
  const rows = await executeBound<OutboundOrderRow>(
    em,
    'select id, tracking_number, status_id from delivery_order where id = $1',
    [orderId],
  );
  return rows[0] ?? null;
}

/** The business's today in its timezone (the outbound order's scheduled date). */
export async function businessToday(em: Em, businessId: number): Promise<string> {
  const rows = await executeBound<{ today: string }>(
    em,
    "select (now() at time zone coalesce(timezone, 'UTC'))::date::text as today from business where id = $1",
    [businessId],
  );
  return rows[0]!.today;
}

/** A staff account of the business, as the caller a process acts for; null when it is gone or left. */
export async function staffCaller(
  em: Em,
  businessId: number,
  userId: number,
): Promise<{ id: number; name: string; email: string; role: Role; businessId: number } | null> {
  const rows = await executeBound<{ id: number; name: string; email: string; role: Role; business_id: number }>(
    em,
    `select id, name, email, role, business_id from app_user
     where id = $1 and business_id = $2 and role in ('client_admin', 'employee')`,
    [userId, businessId],
  );
  const r = rows[0];
  return r ? { id: r.id, name: r.name, email: r.email, role: r.role, businessId: r.business_id } : null;
}

/** Any client admin of the business: the caller a hand-over acts for when its staff account is gone. */
export async function anyAdminOf(em: Em, businessId: number): Promise<number | null> {
  const rows = await executeBound<{ id: number }>(
    em,
    "select id from app_user where business_id = $1 and role = 'client_admin' order by id limit 1",
    [businessId],
  );
  return rows[0]?.id ?? null;
}
