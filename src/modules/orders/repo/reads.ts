/** The order reads' queries (docs/orders.md, "Reads: trail, find, snapshot, exceptions"), each within the viewer's sight. */
import type { Em } from '../../../platform/db/orm.ts';
import { LIST_COLUMNS, orderVisibleTo, type OrderListRow, type OrderViewer } from './orders.ts';

/** An order named by id or by a tracking number (its own or any of its packages'), with the numbers that named it. */
export interface NamedOrder {
  id: number;
  orderRef: string | null;
  trackingNumber: string;
  numbers: string[];
}

/** `in (?)` needs one value at least: a value no row has stands for none. */
const some = <T>(values: readonly T[], none: T): readonly T[] => (values.length > 0 ? values : [none]);

/** The orders the viewer may see among those named by id or by tracking number, by id. */
export async function namedOrders(
  em: Em,
  viewer: OrderViewer,
  ids: readonly number[],
  trackingNumbers: readonly string[],
): Promise<NamedOrder[]> {
  const rule = orderVisibleTo(viewer);
  return em.execute<NamedOrder[]>(
    `with k as (
       select id as order_id, null::text as tn from delivery_order where id in (?)
       union all
       select order_id, package_number from order_package where package_number in (?))
     select o.id, o.order_ref as "orderRef", o.tracking_number as "trackingNumber",
       array_remove(array_agg(distinct k.tn), null) as numbers
     from k join delivery_order o on o.id = k.order_id
     where ${rule.sql}
     group by o.id order by o.id`,
    [some(ids, 0), some(trackingNumbers, ''), ...rule.params],
  );
}

/** What find_order matches; every key given must match (a name is a case-blind prefix, a phone its digits). */
export interface OrderKeys {
  orderRef?: string;
  trackingNumber?: string;
  phoneDigits?: string;
  namePrefix?: string;
}

const likePrefix = (s: string) => `${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The viewer's orders matching every key, newest first, at most `limit`. Each key is read through an index. */
export async function findOrders(em: Em, viewer: OrderViewer, keys: OrderKeys, limit: number): Promise<OrderListRow[]> {
  const rule = orderVisibleTo(viewer);
  const where = [rule.sql];
  const params = [...rule.params];
  if (keys.orderRef !== undefined) {
    where.push('o.order_ref = ?');
    params.push(keys.orderRef);
  }
  if (keys.trackingNumber !== undefined) {
    where.push('o.id in (select pk.order_id from order_package pk where pk.package_number = ?)');
    params.push(keys.trackingNumber);
  }
  if (keys.phoneDigits !== undefined) {
    where.push(`o.recipient->>'phone' is not null and regexp_replace(o.recipient->>'phone', '[^0-9]', '', 'g') = ?`);
    params.push(keys.phoneDigits);
  }
  if (keys.namePrefix !== undefined) {
    where.push(`lower(o.recipient->>'name') like ? escape '\\'`);
    params.push(likePrefix(keys.namePrefix));
  }
  return em.execute<OrderListRow[]>(
    `select ${LIST_COLUMNS} from delivery_order o where ${where.join(' and ')} order by o.id desc limit ?`,
    [...params, limit],
  );
}

/** One order the viewer may see, as lists show it, or null. */
export async function visibleOrderRow(em: Em, viewer: OrderViewer, id: number): Promise<OrderListRow | null> {
  const rule = orderVisibleTo(viewer);
  const rows = await em.execute<OrderListRow[]>(
    `select ${LIST_COLUMNS} from delivery_order o where o.id = ? and ${rule.sql}`,
    [id, ...rule.params],
  );
  return rows[0] ?? null;
}

export interface StatusHistoryRow {
  before_status: number | null;
  after_status: number;
  operation_type: number;
  operation_description: string;
  occurred_at: Date;
}

/** Most status changes a snapshot shows: the newest ones when an order has more. */
export const SNAPSHOT_HISTORY_MAX = 200;

/** The order's status history, oldest first, its newest SNAPSHOT_HISTORY_MAX changes. */
export async function statusHistory(em: Em, orderId: number): Promise<StatusHistoryRow[]> {
  const rows = await em.execute<StatusHistoryRow[]>(
    `select before_status, after_status, operation_type, operation_description, occurred_at
     from order_status_change where order_id = ? order by occurred_at desc, id desc limit ?`,
    [orderId, SNAPSHOT_HISTORY_MAX],
  );
  return rows.reverse();
}

/** The order id, reference and tracking number of each of the business's orders named, for the exceptions list. */
export async function orderLabels(
  em: Em,
  viewer: OrderViewer,
  ids: readonly number[],
): Promise<Map<number, { orderRef: string | null; trackingNumber: string }>> {
  if (ids.length === 0) return new Map();
  const rule = orderVisibleTo(viewer);
  const rows = await em.execute<{ id: number; orderRef: string | null; trackingNumber: string }[]>(
    `select o.id, o.order_ref as "orderRef", o.tracking_number as "trackingNumber" from delivery_order o
     where o.id in (?) and ${rule.sql}`,
    [ids, ...rule.params],
  );
  return new Map(rows.map((r) => [r.id, r]));
}
