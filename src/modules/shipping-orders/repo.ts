/** The shipping orders' SQL (docs/customer-services.md, "Shipping orders"): typed rows, money in minor units. */
import type { Caller } from '../../platform/catalog/types.ts';
import { executeBound, type Em } from '../../platform/db/orm.ts';
import type { Role } from '../../platform/roles.ts';
import {
  customerOrderByKey,
  customerOrderPage,
  type CustomerOrderRow,
  type OrderRows,
  type PriceLine,
} from '../customer-services/index.ts';
import type { CancelReason, ShippingOrderStatus } from './domain.ts';
import type { PackageView, PartyView } from './views.ts';

export interface ShippingOrderRow extends CustomerOrderRow {
  status: ShippingOrderStatus;
  sender: PartyView | null;
  recipient: PartyView;
  packages: PackageView[];
  total: bigint;
  tax: bigint;
  price_details: PriceLine[];
  paid_amount: bigint;
  wallet_amount: bigint;
  settled_offline: boolean;
  expires_at: Date;
  order_id: number | null;
  placement_error: Record<string, unknown> | null;
  /** Why it was cancelled, when it was. */
  cancel_reason: CancelReason | null;
  /** The SHA-256 of its creation's canonical request (null on rows written before it was kept). */
  request_hash: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The row with its delivery order's number and status, when one is placed. */
export type ShippingOrderRead = ShippingOrderRow & {
  order_tracking_number: string | null;
  order_status_id: number | null;
};

type Raw = Omit<ShippingOrderRead, 'total' | 'tax' | 'paid_amount' | 'wallet_amount'> & {
  total: string;
  tax: string;
  paid_amount: string;
  wallet_amount: string;
};

const COLUMNS = `s.id, s.business_id, s.customer_id, s.service_id, s.service_code, s.status, s.reference, s.sender,
  s.recipient, s.packages, s.currency, s.total::text as total, s.tax::text as tax, s.price_details,
  s.paid_amount::text as paid_amount, s.wallet_amount::text as wallet_amount, s.payments, s.settled_offline, s.expires_at, s.order_id, s.placement_error,
  s.cancel_reason, s.request_hash, s.idempotency_key, s.created_at, s.updated_at`;

const READ_COLUMNS = `${COLUMNS}, o.tracking_number as order_tracking_number, o.status_id as order_status_id`;
const READ_FROM = 'shipping_order s left join delivery_order o on o.id = s.order_id';
const READ = `select ${READ_COLUMNS} from ${READ_FROM}`;

const rowOf = (r: Raw): ShippingOrderRead => ({
  ...r,
  total: BigInt(r.total),
  tax: BigInt(r.tax),
  paid_amount: BigInt(r.paid_amount),
  wallet_amount: BigInt(r.wallet_amount),
});

const ROWS: OrderRows<Raw, ShippingOrderRead> = { columns: READ_COLUMNS, from: READ_FROM, rowOf };

export type NewShippingOrder = Pick<
  ShippingOrderRow,
  | 'id'
  | 'business_id'
  | 'customer_id'
  | 'service_id'
  | 'service_code'
  | 'status'
  | 'reference'
  | 'sender'
  | 'recipient'
  | 'packages'
  | 'currency'
  | 'total'
  | 'tax'
  | 'price_details'
  | 'expires_at'
  | 'idempotency_key'
  | 'request_hash'
>;

/** The id of an order about to be written (its process starts with it before the row commits). */
export async function nextShippingOrderId(em: Em): Promise<number> {
  const [row] = await executeBound<{ id: number }>(
    em,
    "select nextval(pg_get_serial_sequence('shipping_order', 'id'))::int as id",
    [],
  );
  return row!.id;
}

/**
 * Writes a new order; answers false when the customer's idempotency key names an earlier order (then nothing is
 * written).
 */
export async function insertShippingOrder(em: Em, o: NewShippingOrder): Promise<boolean> {
  const rows = await executeBound<{ id: number }>(
    em,
    `insert into shipping_order (id, business_id, customer_id, service_id, service_code, status, reference, sender,
       recipient, packages, currency, total, tax, price_details, expires_at, idempotency_key, request_hash)
     values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10::jsonb, $11, $12, $13, $14::jsonb, $15, $16, $17)
     on conflict (business_id, customer_id, idempotency_key) where idempotency_key is not null do nothing
     returning id`,
    [
      o.id,
      o.business_id,
      o.customer_id,
      o.service_id,
      o.service_code,
      o.status,
      o.reference,
      o.sender === null ? null : JSON.stringify(o.sender),
      JSON.stringify(o.recipient),
      JSON.stringify(o.packages),
      o.currency,
      o.total.toString(),
      o.tax.toString(),
      JSON.stringify(o.price_details),
      o.expires_at,
      o.idempotency_key,
      o.request_hash,
    ],
  );
  return rows.length === 1;
}

/** The order a customer's idempotency key created. */
export const shippingOrderByKey = (
  em: Em,
  businessId: number,
  customerId: number,
  key: string,
): Promise<ShippingOrderRead | null> => customerOrderByKey(em, ROWS, { businessId, customerId }, key);

/**
 * An order of the business (of the customer, when one is named); null when there is none. Only the process reads an
 * order by its id alone (businessId null).
 */
export async function shippingOrderOf(
  em: Em,
  businessId: number | null,
  customerId: number | null,
  id: number,
): Promise<ShippingOrderRead | null> {
  const rows = await executeBound<Raw>(
    em,
    `${READ} where s.id = $1 and ($2::int is null or s.business_id = $2) and ($3::int is null or s.customer_id = $3)`,
    [id, businessId, customerId],
  );
  return rows[0] ? rowOf(rows[0]) : null;
}

/** The order locked for its change, in the caller's transaction; scoped like shippingOrderOf when a scope is given. */
export async function lockShippingOrder(
  em: Em,
  id: number,
  scope?: { businessId: number; customerId: number | null },
): Promise<ShippingOrderRow | null> {
  const rows = await executeBound<Raw>(
    em,
    `select ${COLUMNS} from shipping_order s
     where s.id = $1 and ($2::int is null or s.business_id = $2) and ($3::int is null or s.customer_id = $3)
     for update`,
    [id, scope?.businessId ?? null, scope?.customerId ?? null],
  );
  return rows[0] ? rowOf({ ...rows[0], order_tracking_number: null, order_status_id: null }) : null;
}

/** A customer's orders of one service, newest first, a page at a time. */
export const listShippingOrders = (
  em: Em,
  q: { businessId: number; customerId: number; serviceCode: string; offset: number; limit: number },
): Promise<{ total: number; rows: ShippingOrderRead[] }> =>
  customerOrderPage(em, ROWS, {
    businessId: q.businessId,
    customerId: q.customerId,
    filter: { column: 'service_code', value: q.serviceCode },
    limit: q.limit,
    offset: q.offset,
  });

/**
 * Records a payment of `amount`: from the wallet (the next of `payments`), or settled offline. The order is
 * confirmed when nothing is left due.
 */
export async function recordPayment(em: Em, id: number, amount: bigint, how: 'wallet' | 'offline'): Promise<void> {
  const wallet = how === 'wallet';
  await executeBound(
    em,
    `update shipping_order set paid_amount = paid_amount + $2, wallet_amount = wallet_amount + $3,
       payments = payments + $4, settled_offline = settled_offline or $5,
       status = case when paid_amount + $2 >= total then 'confirmed' else status end, updated_at = now()
     where id = $1`,
    [id, amount.toString(), wallet ? amount.toString() : '0', wallet ? 1 : 0, !wallet],
  );
}

/** Today in the business's timezone (YYYY-MM-DD): a delivery order's scheduled date. */
export async function businessToday(em: Em, businessId: number): Promise<string> {
  const [row] = await executeBound<{ today: string }>(
    em,
    "select to_char(now() at time zone timezone, 'YYYY-MM-DD') as today from business where id = $1",
    [businessId],
  );
  return row!.today;
}

/** Moves the order to `status`; a cancel records why. */
export async function setStatus(
  em: Em,
  id: number,
  status: ShippingOrderStatus,
  cancelReason: CancelReason | null = null,
): Promise<void> {
  await executeBound(
    em,
    'update shipping_order set status = $2, cancel_reason = coalesce($3, cancel_reason), updated_at = now() where id = $1',
    [id, status, cancelReason],
  );
}

/** The business's order whose delivery order this is, locked for the caller's transaction; null when none is. */
export async function lockShippingOrderOfDelivery(
  em: Em,
  businessId: number,
  orderId: number,
): Promise<ShippingOrderRow | null> {
  const rows = await executeBound<Raw>(
    em,
    `select ${COLUMNS} from shipping_order s where s.order_id = $1 and s.business_id = $2 for update`,
    [orderId, businessId],
  );
  return rows[0] ? rowOf({ ...rows[0], order_tracking_number: null, order_status_id: null }) : null;
}

/** The delivery order placed for it, or why none could be. */
export async function setPlacement(
  em: Em,
  id: number,
  placed: { orderId: number } | { error: Record<string, unknown> },
): Promise<void> {
  await executeBound(
    em,
    `update shipping_order set order_id = coalesce($2, order_id), placement_error = $3::jsonb, updated_at = now()
     where id = $1`,
    [id, 'orderId' in placed ? placed.orderId : null, 'error' in placed ? JSON.stringify(placed.error) : null],
  );
}

/** The order's customer as the caller its process acts for (placing its delivery order), if still a customer. */
export async function customerAsCaller(
  em: Em,
  businessId: number,
  customerId: number,
  id: number,
): Promise<(Caller & { businessId: number }) | null> {
  const [row] = await executeBound<{ id: number; name: string; email: string; role: Role; business_id: number }>(
    em,
    `select id, name, email, role, business_id from app_user where id = $1 and business_id = $2`,
    [customerId, businessId],
  );
  return row
    ? {
        id: row.id,
        name: row.name,
        email: row.email,
        role: row.role,
        businessId: row.business_id,
        tokenHash: `shipping-order:${id}`,
        via: 'session',
      }
    : null;
}
