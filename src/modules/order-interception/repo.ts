/**
 * Data access: SQL only, with typed rows (table order_interception, and the order row an interception locks and,
 * for a redelivery, readdresses). Operations reach an interception through an order they were allowed to see
 * (`visibleOrder`); the activities go by the ids their process was given.
 */
import { executeBound, type Em } from '../../platform/db/orm.ts';
import type { Address, OrderFacts } from '../orders/index.ts';
import type { HeldSource, InterceptionState, InterceptOutcome, NewAddress, RequestChannel } from './contract.ts';

export interface InterceptionRow {
  id: number;
  business_id: number;
  order_id: number;
  customer_id: number | null;
  request_key: string;
  workflow_id: string;
  state: InterceptionState;
  outcome: InterceptOutcome;
  new_address: NewAddress | null;
  channel: RequestChannel;
  requested_by: number | null;
  requester_role: string | null;
  request_reason: string | null;
  end_reason: string | null;
  status_before: number | null;
  status_after: number | null;
  hold_deadline: Date | null;
  held_at: Date | null;
  held_place: string | null;
  held_package: string | null;
  held_source: HeldSource | null;
  ended_by: number | null;
  created_at: Date;
  updated_at: Date;
  ended_at: Date | null;
}

const COLUMNS = `id, business_id, order_id, customer_id, request_key, workflow_id, state, outcome, new_address, channel,
  requested_by, requester_role, request_reason, end_reason, status_before, status_after, hold_deadline, held_at,
  held_place, held_package, held_source, ended_by, created_at, updated_at, ended_at`;

/** The order as an interception step needs it, locked for the step's transaction. */
export type LockedOrder = OrderFacts & {
  customerId: number | null;
  selfDelivery: boolean;
  address: Address;
};

export async function lockOrder(em: Em, orderId: number): Promise<LockedOrder | null> {
  const [row] = await executeBound<LockedOrder>(
    em,
    `select id, business_id as "businessId", order_ref as "orderRef", tracking_number as "trackingNumber", type,
       status_id as "statusId", carrier_provider_id as "carrierProviderId", customer_id as "customerId",
       self_delivery as "selfDelivery", recipient->'address' as address, created_at as "createdAt",
       price_family as "priceFamily"
     from delivery_order where id = $1 for update`,
    [orderId],
  );
  return row ?? null;
}

/**
 * True when a request to cancel the order waits for its delivery provider (order_cancellation, the cancellation
 * module's table: at most one such row per order). Read with the order locked, which the cancellation locks too.
 */
export async function cancelPending(em: Em, orderId: number): Promise<boolean> {
  const [row] = await executeBound<{ pending: boolean }>(
    em,
    `select exists (select 1 from order_cancellation where order_id = $1 and status = 'awaiting_provider') as pending`,
    [orderId],
  );
  return row!.pending;
}

/**
 * True when the order's carrier sent a tracking event (new, or a correction) since `since`: while the order was in
 * 48 the ingest recorded it without moving the order, so its leaving 48 is to follow it.
 */
export async function carrierEventsSince(em: Em, orderId: number, since: Date): Promise<boolean> {
  const [row] = await executeBound<{ any: boolean }>(
    em,
    `select exists (select 1 from tracking_event where order_id = $1 and recorded_at >= $2) as any`,
    [orderId, since],
  );
  return row!.any;
}

export async function byRequestKey(em: Em, requestKey: string): Promise<InterceptionRow | null> {
  const [row] = await executeBound<InterceptionRow>(
    em,
    `select ${COLUMNS} from order_interception where request_key = $1`,
    [requestKey],
  );
  return row ?? null;
}

export async function lockInterception(em: Em, id: number): Promise<InterceptionRow | null> {
  const [row] = await executeBound<InterceptionRow>(
    em,
    `select ${COLUMNS} from order_interception where id = $1 for update`,
    [id],
  );
  return row ?? null;
}

export interface NewInterception {
  businessId: number;
  orderId: number;
  customerId: number | null;
  requestKey: string;
  workflowId: string;
  state: InterceptionState;
  outcome: InterceptOutcome;
  newAddress: NewAddress | null;
  channel: RequestChannel;
  requestedBy: number | null;
  requesterRole: string | null;
  requestReason: string | null;
  endReason: string | null;
  statusBefore: number;
  statusAfter: number | null;
  holdDeadline: Date | null;
}

export async function insertInterception(em: Em, n: NewInterception): Promise<InterceptionRow> {
  const ended = n.state === 'rejected';
  const [row] = await executeBound<InterceptionRow>(
    em,
    `insert into order_interception (business_id, order_id, customer_id, request_key, workflow_id, state, outcome,
       new_address, channel, requested_by, requester_role, request_reason, end_reason, status_before, status_after,
       hold_deadline, ended_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, $13, $14, $15, $16, ${ended ? 'now()' : 'null'})
     returning ${COLUMNS}`,
    [
      n.businessId,
      n.orderId,
      n.customerId,
      n.requestKey,
      n.workflowId,
      n.state,
      n.outcome,
      n.newAddress === null ? null : JSON.stringify(n.newAddress),
      n.channel,
      n.requestedBy,
      n.requesterRole,
      n.requestReason,
      n.endReason,
      n.statusBefore,
      n.statusAfter,
      n.holdDeadline,
    ],
  );
  return row!;
}

export async function markHeld(
  em: Em,
  id: number,
  held: { at: Date; place: string | null; packageNumber: string; source: HeldSource },
): Promise<InterceptionRow> {
  const [row] = await executeBound<InterceptionRow>(
    em,
    `update order_interception set state = 'held_at_warehouse', held_at = $2, held_place = $3, held_package = $4,
       held_source = $5, updated_at = now()
     where id = $1 returning ${COLUMNS}`,
    [id, held.at, held.place, held.packageNumber, held.source],
  );
  return row!;
}

export async function markEnded(
  em: Em,
  id: number,
  end: { state: InterceptionState; statusAfter: number | null; reason: string | null; endedBy: number | null },
): Promise<InterceptionRow> {
  const [row] = await executeBound<InterceptionRow>(
    em,
    `update order_interception set state = $2, status_after = $3, end_reason = coalesce($4, end_reason), ended_by = $5,
       ended_at = now(), updated_at = now()
     where id = $1 returning ${COLUMNS}`,
    [id, end.state, end.statusAfter, end.reason, end.endedBy],
  );
  return row!;
}

/** A redelivery's new address becomes the recipient's; the old one is kept on the trail row of the step. */
export async function readdressOrder(em: Em, orderId: number, address: NewAddress): Promise<void> {
  await executeBound(
    em,
    `update delivery_order set recipient = jsonb_set(recipient, '{address}', $2::jsonb), updated_at = now() where id = $1`,
    [orderId, JSON.stringify(address)],
  );
}

/**
 * The order's open interception, else its newest (a request rejected while one was open does not hide the open one),
 * or null. The order was already found visible to the caller.
 */
export async function newestOf(em: Em, orderId: number): Promise<InterceptionRow | null> {
  const [row] = await executeBound<InterceptionRow>(
    em,
    `select ${COLUMNS} from order_interception where order_id = $1
     order by state in ('requested', 'in_effect', 'held_at_warehouse') desc, id desc limit 1`,
    [orderId],
  );
  return row ?? null;
}

/**
 * The interceptions in effect (waiting for their parcel) of the orders of these packages, as the reporter may reach
 * them: a scan (`business`) only the orders of the scanning business, a carrier's event (`carrier`) only the orders
 * that provider holds.
 */
export async function inEffectByPackages(
  em: Em,
  reporter: { kind: 'business' | 'carrier'; businessId: number },
  packageNumbers: readonly string[],
): Promise<{ order_id: number; workflow_id: string }[]> {
  const scope = reporter.kind === 'business' ? 'o.business_id = $2' : 'o.carrier_provider_id = $2';
  return executeBound(
    em,
    `select distinct i.order_id, i.workflow_id from order_interception i
       join delivery_order o on o.id = i.order_id
       join order_package pk on pk.order_id = i.order_id
     where pk.package_number = any($1::text[]) and i.state = 'in_effect' and i.business_id = o.business_id
       and ${scope}`,
    [[...new Set(packageNumbers)], reporter.businessId],
  );
}

/** The order's open interception, for the order snapshot's open processes. */
export async function openOf(em: Em, businessId: number, orderId: number): Promise<InterceptionRow[]> {
  return executeBound<InterceptionRow>(
    em,
    `select ${COLUMNS} from order_interception
     where business_id = $1 and order_id = $2 and state in ('requested', 'in_effect', 'held_at_warehouse')`,
    [businessId, orderId],
  );
}

/**
 * The business's failed interceptions that still need a person: the newest of their order, newest first, at most
 * `limit`, ended before `before` when given.
 */
export async function failedOf(
  em: Em,
  q: { businessId: number; limit: number; before?: Date; orderIds?: readonly number[] },
): Promise<InterceptionRow[]> {
  return executeBound<InterceptionRow>(
    em,
    `select ${COLUMNS} from order_interception i
     where i.business_id = $1 and i.state = 'failed'
       and ($2::timestamptz is null or i.ended_at < $2)
       and ($3::int[] is null or i.order_id = any($3::int[]))
       and not exists (select 1 from order_interception later where later.order_id = i.order_id and later.id > i.id)
     order by i.ended_at desc, i.id desc limit $4`,
    [q.businessId, q.before ?? null, q.orderIds ? [...q.orderIds] : null, q.limit],
  );
}

/**
 * The business's interceptions held at a warehouse for longer than `heldMs` with no outcome carried out and no
 * withdrawal, newest first by when they became an exception (held_at + heldMs), before `before` when given.
 */
export async function heldTooLongOf(
  em: Em,
  q: { businessId: number; limit: number; before?: Date; orderIds?: readonly number[] },
  heldMs: number,
): Promise<(InterceptionRow & { overdue_since: Date })[]> {
  return executeBound(
    em,
    `select ${COLUMNS}, held_at + $5 * interval '1 millisecond' as overdue_since from order_interception i
     where i.business_id = $1 and i.state = 'held_at_warehouse'
       and i.held_at + $5 * interval '1 millisecond' < now()
       and ($2::timestamptz is null or i.held_at + $5 * interval '1 millisecond' < $2)
       and ($3::int[] is null or i.order_id = any($3::int[]))
     order by i.held_at desc, i.id desc limit $4`,
    [q.businessId, q.before ?? null, q.orderIds ? [...q.orderIds] : null, q.limit, heldMs],
  );
}

export async function interceptionById(em: Em, id: number): Promise<InterceptionRow | null> {
  const [row] = await executeBound<InterceptionRow>(em, `select ${COLUMNS} from order_interception where id = $1`, [
    id,
  ]);
  return row ?? null;
}

export async function packagesOfOrders(
  em: Em,
  orderIds: readonly number[],
): Promise<{ order_id: number; package_number: string }[]> {
  return executeBound(em, 'select order_id, package_number from order_package where order_id = any($1::int[])', [
    [...orderIds],
  ]);
}
