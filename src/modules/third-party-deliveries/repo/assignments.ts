import type { Em } from '../../../platform/db/orm.ts';
import { assignmentNumber, type AssignmentStatus, type CancelReason } from '../domain.ts';
import type { AssignmentRow } from '../views.ts';

const SELECT_ASSIGNMENT = `select a.id, a.number, a.status, a.source, a.order_id, o.order_ref, o.tracking_number, p.code as provider_code, p.name as provider_name,
    (select coalesce(json_agg(json_build_object('package_number', pk.package_number, 'handed_over_at', h.scanned_at) order by pk.position), '[]')
       from order_package pk left join third_party_handover h on h.assignment_id = a.id and h.package_id = pk.id where pk.order_id = a.order_id) as packages,
    a.handover_deadline, a.handed_over_at, a.cancel_reason, a.ended_at, a.created_at, a.business_id, a.provider_id
  from third_party_assignment a join delivery_order o on o.id = a.order_id join business p on p.id = a.provider_id`;

export type StoredAssignment = AssignmentRow & { business_id: number; provider_id: number };

/** The assignment of this number that the business gave, or that the provider holds. */
export async function findAssignment(em: Em, owner: { businessId: number } | { providerId: number }, number: string): Promise<StoredAssignment | null> {
  const [column, id] = 'businessId' in owner ? ['a.business_id', owner.businessId] : ['a.provider_id', owner.providerId];
  const [row] = await em.execute<StoredAssignment[]>(`${SELECT_ASSIGNMENT} where ${column} = ? and a.number = ?`, [id, number]);
  return row ?? null;
}

export async function findAssignmentById(em: Em, id: number): Promise<StoredAssignment | null> {
  const [row] = await em.execute<StoredAssignment[]>(`${SELECT_ASSIGNMENT} where a.id = ?`, [id]);
  return row ?? null;
}

/** A provider's assignments, newest first. */
export async function listProviderAssignments(em: Em, providerId: number, status: AssignmentStatus | null, limit: number, offset: number): Promise<{ total: number; items: StoredAssignment[] }> {
  const where = 'a.provider_id = ? and (?::text is null or a.status = ?)';
  const [count] = await em.execute<{ n: number }[]>(`select count(*)::int as n from third_party_assignment a where ${where}`, [providerId, status, status]);
  const items = await em.execute<StoredAssignment[]>(`${SELECT_ASSIGNMENT} where ${where} order by a.id desc limit ? offset ?`, [providerId, status, status, limit, offset]);
  return { total: count!.n, items };
}

export interface AssignTarget {
  order: { id: number; statusId: number; onRoute: boolean; held: boolean; contractorAssigned: boolean } | null;
  /** The provider business of the code, when it is a delivery provider's. */
  providerId: number | null;
  /** Taken from the sequence beforehand, so that the process can start before the row is written. */
  nextId: number;
}

/** What an assignment of this order to the provider of this code needs to know, in one statement. */
export async function findAssignTarget(em: Em, businessId: number, orderId: number, providerCode: string): Promise<AssignTarget> {
  const [row] = await em.execute<{ order_id: number | null; status_id: number; on_route: boolean; held: boolean; contractor: boolean; provider_id: number | null; next_id: number }[]>(
    `select o.id as order_id, o.status_id, o.route_id is not null as on_route, o.carrier_provider_id is not null as held,
       exists (select 1 from broker_order_assignment b where b.order_id = o.id and b.status = 'active') as contractor,
       (select b.id from business b where b.code = ? and exists (select 1 from app_user u where u.business_id = b.id and u.role = 'delivery_provider')) as provider_id,
       nextval('third_party_assignment_id_seq')::int as next_id
     from (select 1) one left join delivery_order o on o.id = ? and o.business_id = ?`, [providerCode, orderId, businessId]);
  const r = row!;
  return {
    order: r.order_id === null ? null : { id: r.order_id, statusId: r.status_id, onRoute: r.on_route, held: r.held, contractorAssigned: r.contractor },
    providerId: r.provider_id,
    nextId: r.next_id,
  };
}

export interface NewAssignment {
  id: number;
  businessId: number;
  orderId: number;
  providerId: number;
  source: 'manual' | 'rule';
  handoverDeadline: string;
  createdBy: number | null;
}

/** Writes the assignment; false when the order has a live assignment already (the unique index). */
export async function insertAssignment(em: Em, a: NewAssignment): Promise<boolean> {
  const rows = await em.execute(
    `insert into third_party_assignment (id, number, business_id, order_id, provider_id, status, source, handover_deadline, created_by)
     values (?, ?, ?, ?, ?, 'assigned', ?, ?, ?) on conflict do nothing returning id`,
    [a.id, assignmentNumber(a.id), a.businessId, a.orderId, a.providerId, a.source, a.handoverDeadline, a.createdBy]);
  return rows.length > 0;
}

/** Records a package handed over; answers how many of the order's packages are still to go, or null when the package is not the order's. */
export async function recordHandover(em: Em, id: number, packageNumber: string, scannedAt: string, actorId: number): Promise<number | null> {
  const [pkg] = await em.execute<{ package_id: number }[]>(
    `select pk.id as package_id from third_party_assignment a join order_package pk on pk.order_id = a.order_id
     where a.id = ? and pk.package_number = ?`, [id, packageNumber]);
  if (!pkg) return null;
  await em.execute(
    'insert into third_party_handover (assignment_id, package_id, scanned_at, actor_id) values (?, ?, ?, ?) on conflict do nothing', [id, pkg.package_id, scannedAt, actorId]);
  const [left] = await em.execute<{ n: number }[]>(
    `select count(*)::int as n from third_party_assignment a join order_package pk on pk.order_id = a.order_id
     where a.id = ? and not exists (select 1 from third_party_handover h where h.assignment_id = a.id and h.package_id = pk.id)`, [id]);
  return left!.n;
}

/** Moves the assignment to a status: handed over (with the time), or ended by a cancellation (with its reason). */
export async function setAssignmentStatus(em: Em, id: number, status: AssignmentStatus, cancelReason: CancelReason | null = null): Promise<void> {
  await em.execute(
    `update third_party_assignment set status = ?, cancel_reason = ?, updated_at = now(),
       handed_over_at = case when ? = 'handed_over' then now() else handed_over_at end,
       ended_at = case when ? in ('delivered', 'cancelled') then now() else ended_at end
     where id = ?`, [status, cancelReason, status, status, id]);
}

export async function nextAssignmentId(em: Em): Promise<number> {
  const [row] = await em.execute<{ id: number }[]>("select nextval('third_party_assignment_id_seq')::int as id");
  return row!.id;
}

/** Locks the assignment's row for a step, so that two steps of one assignment never interleave. */
export async function lockAssignment(em: Em, id: number): Promise<void> {
  await em.execute('select 1 from third_party_assignment where id = ? for update', [id]);
}
