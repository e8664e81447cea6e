/** The orders' audit trail (docs/orders.md, "Audit trail"): append-only, written in the change's own transaction. */
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import type { OrderActor } from '../actor.ts';
import type { OrderOperationType } from '../domain.ts';

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
