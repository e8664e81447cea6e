/** The orders' audit trail (docs/orders.md, "Audit trail"): append-only, written in the change's own transaction. */
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import type { OrderActor } from '../actor.ts';
import { ORDER_OPERATION, type OrderOperationType } from '../domain.ts';

/** One change to one order. */
export interface OrderTrailEntry {
  orderId: number;
  businessId: number;
  operationType: OrderOperationType;
  actor: OrderActor;
  beforeStatus?: number | null;
  afterStatus?: number | null;
  /** What changed, in the change's own words: old and new values, the reason, the assignment's number. No secrets. */
  details?: Record<string, unknown>;
  occurredAt?: Date;
}

/** Appends the entries in one statement, in the caller's transaction. */
export async function appendOrderTrail(em: Em, entries: readonly OrderTrailEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const rows = entries.map((e) => ({
    order_id: e.orderId,
    business_id: e.businessId,
    operation_type: e.operationType,
    before_status: e.beforeStatus ?? null,
    after_status: e.afterStatus ?? null,
    actor_id: e.actor.userId,
    actor_role: e.actor.role,
    source: e.actor.source,
    ip_address: e.actor.ip,
    details: e.details ?? {},
    occurred_at: (e.occurredAt ?? new Date()).toISOString(),
  }));
  await executeBound(
    em,
    `insert into order_operation_event (order_id, business_id, operation_type, before_status, after_status, actor_id, actor_role,
       source, ip_address, details, occurred_at)
     select order_id, business_id, operation_type, before_status, after_status, actor_id, actor_role, source, ip_address,
       coalesce(details, '{}'), occurred_at
     from jsonb_to_recordset($1::jsonb) as t(order_id int, business_id int, operation_type int, before_status int,
       after_status int, actor_id int, actor_role text, source text, ip_address text, details jsonb, occurred_at timestamptz)`,
    [JSON.stringify(rows)],
  );
}

/** Where a trail page starts: after the row with this time, kind (0 trail row, 1 webhook delivery) and id. */
export interface TrailCursor {
  /** The row's time as PostgreSQL's text, to the microsecond: a JavaScript Date would lose the order within a ms. */
  at: string;
  kind: 0 | 1;
  id: string;
}

/** A row of the trail as the read answers it: a change, or a webhook delivery about the order (kind 1). */
export interface TrailRow {
  kind: 0 | 1;
  id: string;
  order_id: number;
  operation_type: number;
  before_status: number | null;
  after_status: number | null;
  actor_id: number | null;
  actor_role: string | null;
  source: string;
  ip_address: string | null;
  details: Record<string, unknown>;
  occurred_at: Date;
  /** occurred_at as PostgreSQL's text, for the next cursor. */
  at: string;
}

const AT = `to_char(%s at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const at = (column: string) => AT.replace('%s', column);

/**
 * One page of the orders' trail in time order (then trail rows before deliveries, then id), at most `limit` rows
 * after `after`. The orders are already known to be the business's. Each source is read through its index
 * (order_operation_event (order_id, occurred_at, id); webhook_delivery (business_id, reference_type, reference_id))
 * and cut at `limit` before the merge, so a page costs the same whatever the tables hold. Webhook deliveries are
 * the order's business's own (its settings, its customers' overrides, its OHP subscriptions): a provider's endpoint
 * is the provider's log.
 */
export async function readOrderTrail(
  em: Em,
  businessId: number,
  orderIds: readonly number[],
  opts: { after: TrailCursor | null; limit: number; webhooks: boolean },
): Promise<TrailRow[]> {
  if (orderIds.length === 0) return [];
  const after = opts.after ?? { at: '-infinity', kind: 0, id: '0' };
  // Trail rows (kind 0) at the cursor's time come before deliveries (kind 1): after a delivery, only later times.
  const trailAfterId = after.kind === 0 ? after.id : MAX_BIGINT;
  const deliveryAfterId = after.kind === 1 ? after.id : '0';
  const rows = await executeBound<TrailRow>(
    em,
    `select 0 as kind, e.id::text as id, e.order_id, e.operation_type, e.before_status, e.after_status, e.actor_id,
       e.actor_role, e.source, e.ip_address, e.details, e.occurred_at, ${at('e.occurred_at')} as at
     from order_operation_event e
     where e.order_id = any($1::int[]) and e.business_id = $2 and (e.occurred_at, e.id) > ($3::timestamptz, $4::bigint)
     order by e.occurred_at, e.id limit $5`,
    [orderIds, businessId, after.at, trailAfterId, opts.limit],
  );
  if (opts.webhooks)
    rows.push(
      ...(await executeBound<TrailRow>(
        em,
        `select 1 as kind, d.id::text as id, d.reference_id::int as order_id, ${ORDER_OPERATION.WEBHOOK_SENT} as operation_type,
           null::int as before_status, null::int as after_status, null::int as actor_id, null as actor_role,
           'system' as source, null as ip_address,
           jsonb_build_object('delivery_id', d.id, 'event_id', d.event_id, 'event_type', d.event_type, 'url', d.url,
             'status', d.status, 'attempts', d.attempts, 'last_status', d.last_status,
             'delivered_at', d.delivered_at) as details,
           d.created_at as occurred_at, ${at('d.created_at')} as at
         from webhook_delivery d
         where d.business_id = $2 and d.reference_type = 'order' and d.reference_id = any($1::text[])
           and (d.created_at, d.id) > ($3::timestamptz, $4::bigint)
         order by d.created_at, d.id limit $5`,
        [orderIds.map(String), businessId, after.at, deliveryAfterId, opts.limit],
      )),
    );
  rows.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.kind - b.kind || compareIds(a.id, b.id)));
  return rows.slice(0, opts.limit);
}

const MAX_BIGINT = '9223372036854775807';
const compareIds = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/**
 * Among the ids, the business's orders that were permanently deleted: their trail outlives them, and its deletion
 * row (3051) keeps their reference and tracking number.
 */
export async function deletedOrdersInTrail(
  em: Em,
  businessId: number,
  ids: readonly number[],
): Promise<{ id: number; orderRef: string | null; trackingNumber: string }[]> {
  if (ids.length === 0) return [];
  return executeBound(
    em,
    `select e.order_id as id, e.details->>'order_ref' as "orderRef", coalesce(e.details->>'tracking_number', '') as "trackingNumber"
     from order_operation_event e
     where e.order_id = any($1::int[]) and e.business_id = $2 and e.operation_type = $3
       and not exists (select 1 from delivery_order o where o.id = e.order_id)
     order by e.order_id`,
    [ids, businessId, ORDER_OPERATION.DELETED],
  );
}
