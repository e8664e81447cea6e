/**
 * A customer's order rows read the same way by each order module (shipping orders, storage, ship-outs): the order
 * its idempotency key created, and a page of its orders newest first with their total. Each module names its
 * select list, its table aliased `s` (with business_id, customer_id, idempotency_key) and how a row is typed.
 */
import { executeBound, type Em } from '../../../platform/db/orm.ts';

/** What every customer order row holds (shipping_order, storage_order, shipout); each module's row extends it. */
export interface CustomerOrderRow {
  id: number;
  business_id: number;
  customer_id: number;
  service_id: number;
  service_code: string;
  reference: string | null;
  currency: string;
  /** Wallet payments (or holds) made so far: the next one's key counts on from it. */
  payments: number;
  idempotency_key: string | null;
}

export interface OrderRows<Raw, Row> {
  /** The select list, over `from`. */
  columns: string;
  /** The table aliased `s`, with any joins. */
  from: string;
  rowOf: (raw: Raw) => Row;
}

/** The customer's order with this idempotency key, if any. */
export async function customerOrderByKey<Raw, Row>(
  em: Em,
  t: OrderRows<Raw, Row>,
  scope: { businessId: number; customerId: number },
  key: string,
): Promise<Row | null> {
  const rows = await executeBound<Raw>(
    em,
    `select ${t.columns} from ${t.from} where s.business_id = $1 and s.customer_id = $2 and s.idempotency_key = $3`,
    [scope.businessId, scope.customerId, key],
  );
  return rows[0] ? t.rowOf(rows[0]) : null;
}

/**
 * A page of the customer's orders, newest first, with the total; only those whose `filter.column` is
 * `filter.value` when that is not null.
 */
export async function customerOrderPage<Raw, Row>(
  em: Em,
  t: OrderRows<Raw, Row>,
  q: {
    businessId: number;
    customerId: number;
    filter: { column: string; value: string | null };
    limit: number;
    offset: number;
  },
): Promise<{ total: number; rows: Row[] }> {
  const where = `where s.business_id = $1 and s.customer_id = $2 and ($3::text is null or s.${q.filter.column} = $3)`;
  const params = [q.businessId, q.customerId, q.filter.value];
  const rows = await executeBound<Raw & { full_count: number }>(
    em,
    `select ${t.columns}, count(*) over ()::int as full_count from ${t.from} ${where}
     order by s.id desc limit $4 offset $5`,
    [...params, q.limit, q.offset],
  );
  if (rows.length === 0 && q.offset > 0) {
    // Past the last page: no row carries the total.
    const [c] = await executeBound<{ n: number }>(em, `select count(*)::int as n from ${t.from} ${where}`, params);
    return { total: c?.n ?? 0, rows: [] };
  }
  return { total: rows[0]?.full_count ?? 0, rows: rows.map(({ full_count: _n, ...r }) => t.rowOf(r as Raw)) };
}
