/**
 * Cancellation requests (order_cancellation, the read model of the provider's wait) and the permanent deletion of
 * an order with the rows that hang off it. SQL only, with typed rows.
 */
import { executeBound, type Em } from '../../platform/db/orm.ts';
import type { OrderActor, OrderFacts } from '../orders/index.ts';
import type { CancellationStatus } from './domain.ts';

/** The order as a cancellation decides on it, locked for the transaction. */
export interface CancelTarget extends OrderFacts {
  customerId: number | null;
  packageNumbers: string[];
  /** The live third-party assignment holding the order, if any. */
  assignment: { id: number; number: string; providerId: number } | null;
  /** The request already waiting for its provider, if any. */
  pendingId: number | null;
  /** A carrier label was bought for it (docs/labels.md): voiding the label is what cancels it, whatever its family. */
  hasLabel: boolean;
}

const ORDER_FACTS = `o.id, o.business_id as "businessId", o.order_ref as "orderRef", o.tracking_number as "trackingNumber",
  o.type, o.status_id as "statusId", o.carrier_provider_id as "carrierProviderId", o.customer_id as "customerId",
  o.created_at as "createdAt", o.price_family as "priceFamily"`;

/** Locks the order (of this business) and reads what a cancellation decides on; null when there is none. */
export async function lockCancelTarget(tx: Em, businessId: number, orderId: number): Promise<CancelTarget | null> {
  const [o] = await tx.execute<(OrderFacts & { customerId: number | null })[]>(
    `select ${ORDER_FACTS} from delivery_order o where o.id = ? and o.business_id = ? for update`,
    [orderId, businessId],
  );
  if (!o) return null;
  const [extra] = await tx.execute<
    {
      package_numbers: string[];
      assignment_id: number | null;
      assignment_number: string | null;
      provider_id: number | null;
      pending_id: number | null;
      has_label: boolean;
    }[]
  >(
    `select array(select package_number from order_package where order_id = ? order by position) as package_numbers,
       a.id as assignment_id, a.number as assignment_number, a.provider_id,
       (select c.id from order_cancellation c where c.order_id = ? and c.status = 'awaiting_provider') as pending_id,
       exists (select 1 from label_order l where l.order_id = ?) as has_label
     from (select 1) one
     left join lateral (select id, number, provider_id from third_party_assignment
       where order_id = ? and status in ('assigned', 'handed_over', 'partial_delivered') order by id desc limit 1) a on true`,
    [orderId, orderId, orderId, orderId],
  );
  return {
    ...o,
    packageNumbers: extra!.package_numbers,
    assignment:
      extra!.assignment_id === null
        ? null
        : { id: extra!.assignment_id, number: extra!.assignment_number!, providerId: extra!.provider_id! },
    pendingId: extra!.pending_id,
    hasLabel: extra!.has_label,
  };
}

export interface NewCancellation {
  orderId: number;
  businessId: number;
  status: CancellationStatus;
  providerId?: number | null;
  assignmentId?: number | null;
  refusalCode?: string | null;
  message?: string | null;
  reason?: string | null;
  actor: OrderActor;
  answerDeadline?: string | null;
}

/** Writes a request; a decided one is ended at once. Answers its id. */
export async function insertCancellation(tx: Em, c: NewCancellation): Promise<number> {
  const [row] = await executeBound<{ id: number }>(
    tx,
    `insert into order_cancellation (order_id, business_id, status, provider_id, assignment_id, refusal_code, message, reason,
       requested_by, requested_role, requested_source, requested_ip, answer_deadline, ended_at)
     values ($1, $2, $3::varchar, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, case when $3::varchar = 'awaiting_provider' then null else now() end)
     returning id`,
    [
      c.orderId,
      c.businessId,
      c.status,
      c.providerId ?? null,
      c.assignmentId ?? null,
      c.refusalCode ?? null,
      c.message ?? null,
      c.reason ?? null,
      c.actor.userId,
      c.actor.role,
      c.actor.source,
      c.actor.ip,
      c.answerDeadline ?? null,
    ],
  );
  return row!.id;
}

export interface CancellationRow {
  id: number;
  order_id: number;
  business_id: number;
  status: CancellationStatus;
  provider_id: number | null;
  provider_code: string | null;
  assignment_id: number | null;
  assignment_number: string | null;
  refusal_code: string | null;
  message: string | null;
  reason: string | null;
  requested_by: number | null;
  requested_role: string | null;
  requested_source: string | null;
  requested_ip: string | null;
  requested_at: Date;
  answer_deadline: Date | null;
  answered_by: number | null;
  ended_at: Date | null;
}

const CANCELLATION_COLUMNS = `c.id, c.order_id, c.business_id, c.status, c.provider_id, p.code as provider_code, c.assignment_id,
  a.number as assignment_number, c.refusal_code, c.message, c.reason, c.requested_by, c.requested_role, c.requested_source,
  c.requested_ip, c.requested_at, c.answer_deadline, c.answered_by, c.ended_at`;
const CANCELLATION_FROM = `order_cancellation c left join business p on p.id = c.provider_id
  left join third_party_assignment a on a.id = c.assignment_id`;

export async function findCancellation(em: Em, id: number, lock = false): Promise<CancellationRow | null> {
  const [row] = await em.execute<CancellationRow[]>(
    `select ${CANCELLATION_COLUMNS} from ${CANCELLATION_FROM} where c.id = ?${lock ? ' for update of c' : ''}`,
    [id],
  );
  return row ?? null;
}

/** The newest request about the assignment of this number made to this provider, or null. */
export async function findProviderCancellation(
  em: Em,
  providerId: number,
  assignmentNumber: string,
): Promise<CancellationRow | null> {
  const [row] = await em.execute<CancellationRow[]>(
    `select ${CANCELLATION_COLUMNS} from ${CANCELLATION_FROM}
     where a.number = ? and c.provider_id = ? order by c.id desc limit 1`,
    [assignmentNumber, providerId],
  );
  return row ?? null;
}

/** Ends a waiting request with its outcome. */
export async function endCancellation(
  tx: Em,
  id: number,
  outcome: {
    status: Exclude<CancellationStatus, 'awaiting_provider'>;
    refusalCode?: string | null;
    message?: string | null;
    answeredBy?: number | null;
  },
): Promise<void> {
  await tx.execute(
    `update order_cancellation set status = ?, refusal_code = ?, message = ?, answered_by = ?, ended_at = now()
     where id = ? and status = 'awaiting_provider'`,
    [outcome.status, outcome.refusalCode ?? null, outcome.message ?? null, outcome.answeredBy ?? null, id],
  );
}

/**
 * Waits for the transaction that wrote the request to end: it locked the order's row first and holds it until it
 * commits or rolls back. Answers the request's status then, or null when the request was never written.
 */
export async function awaitRequestWritten(
  em: Em,
  orderId: number,
  cancellationId: number,
): Promise<CancellationStatus | null> {
  return em.transactional(async (tx) => {
    await tx.execute('select 1 from delivery_order where id = ? for share', [orderId]);
    const [row] = await tx.execute<{ status: CancellationStatus }[]>(
      'select status from order_cancellation where id = ? and order_id = ?',
      [cancellationId, orderId],
    );
    return row?.status ?? null;
  });
}

/**
 * Whether the order's newest request is a refusal by the service with this code, made less than `minutes` ago: a
 * repeat of it writes nothing new (order.cancel_failed went out already).
 */
export async function repeatsRecentRefusal(tx: Em, orderId: number, code: string, minutes: number): Promise<boolean> {
  const [row] = await tx.execute<{ repeats: boolean }[]>(
    `select (c.status = 'refused' and c.provider_id is null and c.refusal_code = ?
       and c.requested_at > now() - make_interval(mins => ?)) as repeats
     from order_cancellation c where c.order_id = ? order by c.id desc limit 1`,
    [code, minutes, orderId],
  );
  return row?.repeats ?? false;
}

/** The order (any business) as a cancellation outcome writes it, locked. */
export async function lockOrderFacts(
  tx: Em,
  orderId: number,
): Promise<(OrderFacts & { customerId: number | null; packageNumbers: string[] }) | null> {
  const [o] = await tx.execute<(OrderFacts & { customerId: number | null; packageNumbers: string[] })[]>(
    `select ${ORDER_FACTS},
       array(select package_number from order_package where order_id = o.id order by position) as "packageNumbers"
     from delivery_order o where o.id = ? for update`,
    [orderId],
  );
  return o ?? null;
}

/** What the provider's cancel_requested event says of its assignment. */
export interface AssignmentFacts {
  number: string;
  order_ref: string | null;
  tracking_number: string;
  packages: string[];
}

export async function findAssignmentFacts(em: Em, assignmentId: number): Promise<AssignmentFacts> {
  const [row] = await em.execute<AssignmentFacts[]>(
    `select a.number, o.order_ref, o.tracking_number,
       array(select package_number from order_package where order_id = o.id order by position) as packages
     from third_party_assignment a join delivery_order o on o.id = a.order_id where a.id = ?`,
    [assignmentId],
  );
  return row!;
}

/** The requests of the order waiting for a provider (the order's open processes). */
export function openCancellations(em: Em, orderId: number): Promise<CancellationRow[]> {
  return em.execute<CancellationRow[]>(
    `select ${CANCELLATION_COLUMNS} from ${CANCELLATION_FROM} where c.order_id = ? and c.status = 'awaiting_provider'`,
    [orderId],
  );
}

/**
 * The business's cancellations a delivery provider refused (or let time out), of orders still going on (not
 * delivered, cancelled, refused by the recipient or returned to its sender): a person should look at them. The newest request per order,
 * newest first. A refusal by the service needs nobody: its caller was answered at once.
 */
export function refusedCancellations(
  em: Em,
  q: { businessId: number; limit: number; before?: Date; orderIds?: readonly number[] },
): Promise<CancellationRow[]> {
  const params: unknown[] = [q.businessId];
  let extra = '';
  if (q.before) {
    extra += ' and newest.ended_at < ?';
    params.push(q.before);
  }
  if (q.orderIds) {
    if (q.orderIds.length === 0) return Promise.resolve([]);
    extra += ' and newest.order_id in (?)';
    params.push([...q.orderIds]);
  }
  params.push(q.limit);
  return em.execute<CancellationRow[]>(
    `select * from (
       select distinct on (c.order_id) ${CANCELLATION_COLUMNS}
       from ${CANCELLATION_FROM} join delivery_order o on o.id = c.order_id
       where c.business_id = ? and o.status_id not in (3, 5, 14, 15)
       order by c.order_id, c.id desc) newest
     where newest.status in ('refused', 'timed_out') and newest.provider_id is not null${extra}
     order by newest.ended_at desc limit ?`,
    params,
  );
}

// ---- Permanent deletion

/**
 * The order to delete, locked, with what may still hold it; null when the business has no such order. Held: a live
 * third-party assignment, a cancellation awaiting its provider, a parcel stored in a locker, or a package whose
 * distribution still runs towards its recipient (received, on its way, delivered to its locker or store and not yet
 * shelved; a removed or shelved one is not).
 */
export async function lockDeleteTarget(
  tx: Em,
  businessId: number,
  orderId: number,
): Promise<(OrderFacts & { customerId: number | null; held: boolean }) | null> {
  const [o] = await tx.execute<(OrderFacts & { customerId: number | null; held: boolean })[]>(
    `select ${ORDER_FACTS},
       exists (select 1 from third_party_assignment a where a.order_id = o.id
         and a.status in ('assigned', 'handed_over', 'partial_delivered'))
       or exists (select 1 from order_cancellation c where c.order_id = o.id and c.status = 'awaiting_provider')
       or exists (select 1 from device_order d where d.order_id = o.id and d.status in ('stored', 'overdue'))
       or exists (select 1 from package_distribution pd where pd.order_id = o.id
         and pd.status in ('created', 'in_transit', 'delivered')) as held
     from delivery_order o where o.id = ? and o.business_id = ? for update`,
    [orderId, businessId],
  );
  return o ?? null;
}

/**
 * The tables whose rows hang off one order and go with it, children first (the dependents of its packages, of its
 * tracking events and of its third-party assignments before those). A device order that stored one of its parcels
 * keeps its own history: it only loses the link. The audit trail (order_operation_event, no foreign key) and the
 * outbox with the webhook delivery log (referenced by id in text) are not touched. A table added later with a
 * foreign key to delivery_order must be added here, or declare `on delete cascade`; the deletion test checks it.
 */
export const DELETED_WITH_ORDER = [
  'order_cancellation',
  'third_party_leg_package',
  'third_party_leg',
  'third_party_handover',
  'third_party_assignment',
  'distribution_scan',
  'package_distribution',
  'order_status_change',
  'tracking_event',
  'broker_order_assignment',
  'device_order',
  'order_package',
] as const;

/** Deletes the order and every row of DELETED_WITH_ORDER about it, in the caller's transaction. */
export async function deleteOrderRows(tx: Em, orderId: number): Promise<void> {
  const pkgs = 'select id from order_package where order_id = $1';
  const assignments = 'select id from third_party_assignment where order_id = $1';
  const statements = [
    'delete from order_cancellation where order_id = $1',
    `delete from third_party_leg_package where assignment_id in (${assignments})`,
    `delete from third_party_leg where assignment_id in (${assignments})`,
    `delete from third_party_handover where assignment_id in (${assignments})`,
    'delete from third_party_assignment where order_id = $1',
    `delete from distribution_scan where package_id in (${pkgs})`,
    'delete from package_distribution where order_id = $1',
    'delete from order_status_change where order_id = $1',
    'delete from tracking_event where order_id = $1',
    'delete from broker_order_assignment where order_id = $1',
    'update device_order set order_id = null where order_id = $1',
    'delete from order_package where order_id = $1',
    'delete from delivery_order where id = $1',
  ];
  for (const sql of statements) await executeBound(tx, sql, [orderId]);
}

/** The order's newest request, or null. */
export async function latestCancellation(em: Em, orderId: number): Promise<CancellationRow | null> {
  const [row] = await em.execute<CancellationRow[]>(
    `select ${CANCELLATION_COLUMNS} from ${CANCELLATION_FROM} where c.order_id = ? order by c.id desc limit 1`,
    [orderId],
  );
  return row ?? null;
}
