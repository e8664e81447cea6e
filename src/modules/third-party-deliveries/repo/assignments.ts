import type { Em } from '../../../platform/db/orm.ts';
import { assignmentNumber, type AssignmentStatus, type CancelReason } from '../domain.ts';
import type { AssignmentRow } from '../views.ts';

const SELECT_ASSIGNMENT = `select a.id, a.number, a.status, a.source, a.order_id, o.order_ref, o.tracking_number, p.code as provider_code, p.name as provider_name,
    (select coalesce(json_agg(json_build_object('package_number', pk.package_number, 'handed_over_at', h.scanned_at) order by pk.position), '[]')
       from order_package pk left join third_party_handover h on h.assignment_id = a.id and h.package_id = pk.id where pk.order_id = a.order_id) as packages,
    (select coalesce(json_agg(json_build_object('carrier_order_number', l.carrier_order_number, 'package_numbers',
         (select json_agg(pk.package_number order by pk.position) from third_party_leg_package lp join order_package pk on pk.id = lp.package_id where lp.leg_id = l.id))
       order by l.id), '[]') from third_party_leg l where l.assignment_id = a.id) as legs, a.delivered_packages,
    a.handover_deadline, a.handed_over_at, a.cancel_reason, a.ended_at, a.created_at, a.business_id, a.provider_id
  from third_party_assignment a join delivery_order o on o.id = a.order_id join business p on p.id = a.provider_id`;

export type StoredAssignment = AssignmentRow & { business_id: number; provider_id: number };

/** The assignment of this number that the business gave, or that the provider holds. */
export async function findAssignment(
  em: Em,
  owner: { businessId: number } | { providerId: number },
  number: string,
): Promise<StoredAssignment | null> {
  const [column, id] =
    'businessId' in owner ? ['a.business_id', owner.businessId] : ['a.provider_id', owner.providerId];
  const [row] = await em.execute<StoredAssignment[]>(`${SELECT_ASSIGNMENT} where ${column} = ? and a.number = ?`, [
    id,
    number,
  ]);
  return row ?? null;
}

export async function findAssignmentById(em: Em, id: number): Promise<StoredAssignment | null> {
  const [row] = await em.execute<StoredAssignment[]>(`${SELECT_ASSIGNMENT} where a.id = ?`, [id]);
  return row ?? null;
}

/** A provider's assignments, newest first. */
export async function listProviderAssignments(
  em: Em,
  providerId: number,
  status: AssignmentStatus | null,
  limit: number,
  offset: number,
): Promise<{ total: number; items: StoredAssignment[] }> {
  const where = 'a.provider_id = ? and (?::text is null or a.status = ?)';
  const [count] = await em.execute<{ n: number }[]>(
    `select count(*)::int as n from third_party_assignment a where ${where}`,
    [providerId, status, status],
  );
  const items = await em.execute<StoredAssignment[]>(
    `${SELECT_ASSIGNMENT} where ${where} order by a.id desc limit ? offset ?`,
    [providerId, status, status, limit, offset],
  );
  return { total: count!.n, items };
}

export interface AssignTarget {
  order: { id: number; statusId: number; onRoute: boolean; held: boolean; contractorAssigned: boolean } | null;
  /** Taken from the sequence beforehand, so that the process can start before the row is written. */
  nextId: number;
}

/** What an assignment of this order needs to know of it, in one statement. */
export async function findAssignTarget(em: Em, businessId: number, orderId: number): Promise<AssignTarget> {
  const [row] = await em.execute<
    {
      order_id: number | null;
      status_id: number;
      on_route: boolean;
      held: boolean;
      contractor: boolean;
      next_id: number;
    }[]
  >(
    `select o.id as order_id, o.status_id, o.route_id is not null as on_route, o.carrier_provider_id is not null as held,
       exists (select 1 from broker_order_assignment b where b.order_id = o.id and b.status = 'active') as contractor,
       nextval('third_party_assignment_id_seq')::int as next_id
     from (select 1) one left join delivery_order o on o.id = ? and o.business_id = ?`,
    [orderId, businessId],
  );
  const r = row!;
  return {
    order:
      r.order_id === null
        ? null
        : {
            id: r.order_id,
            statusId: r.status_id,
            onRoute: r.on_route,
            held: r.held,
            contractorAssigned: r.contractor,
          },
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
    [a.id, assignmentNumber(a.id), a.businessId, a.orderId, a.providerId, a.source, a.handoverDeadline, a.createdBy],
  );
  return rows.length > 0;
}

/** Records a package handed over; answers how many of the order's packages are still to go, or null when the package is not the order's. */
export async function recordHandover(
  em: Em,
  id: number,
  packageNumber: string,
  scannedAt: string,
  actorId: number,
): Promise<number | null> {
  const [pkg] = await em.execute<{ package_id: number }[]>(
    `select pk.id as package_id from third_party_assignment a join order_package pk on pk.order_id = a.order_id
     where a.id = ? and pk.package_number = ?`,
    [id, packageNumber],
  );
  if (!pkg) return null;
  await em.execute(
    'insert into third_party_handover (assignment_id, package_id, scanned_at, actor_id) values (?, ?, ?, ?) on conflict do nothing',
    [id, pkg.package_id, scannedAt, actorId],
  );
  const [left] = await em.execute<{ n: number }[]>(
    `select count(*)::int as n from third_party_assignment a join order_package pk on pk.order_id = a.order_id
     where a.id = ? and not exists (select 1 from third_party_handover h where h.assignment_id = a.id and h.package_id = pk.id)`,
    [id],
  );
  return left!.n;
}

/** Moves the assignment to a status: handed over (with the time), or ended by a cancellation (with its reason). */
export async function setAssignmentStatus(
  em: Em,
  id: number,
  status: AssignmentStatus,
  cancelReason: CancelReason | null = null,
): Promise<void> {
  await em.execute(
    `update third_party_assignment set status = ?, cancel_reason = ?, updated_at = now(),
       handed_over_at = case when ? = 'handed_over' then now() else handed_over_at end,
       ended_at = case when ? in ('delivered', 'cancelled') then now() else ended_at end
     where id = ?`,
    [status, cancelReason, status, status, id],
  );
}

export async function nextAssignmentId(em: Em): Promise<number> {
  const [row] = await em.execute<{ id: number }[]>("select nextval('third_party_assignment_id_seq')::int as id");
  return row!.id;
}

/** Locks the assignment's row for a step, so that two steps of one assignment never interleave. */
export async function lockAssignment(em: Em, id: number): Promise<void> {
  await em.execute('select 1 from third_party_assignment where id = ? for update', [id]);
}

export interface PackageProgress {
  package_number: string;
  /** The phase of the package's newest tracking event; null before any. */
  phase: string | null;
}

/** Each package of the assignment's order with the phase of its newest tracking event, in position order. */
export async function findPackageProgress(em: Em, id: number): Promise<PackageProgress[]> {
  return em.execute<PackageProgress[]>(
    `select pk.package_number, t.phase from third_party_assignment a join order_package pk on pk.order_id = a.order_id
     left join lateral (select phase from tracking_event where package_id = pk.id order by occurred_at desc, id desc limit 1) t on true
     where a.id = ? order by pk.position`,
    [id],
  );
}

/** Records how many packages were delivered when the assignment last moved, so the same partial delivery is reported once. */
export async function setDeliveredPackages(em: Em, id: number, count: number): Promise<void> {
  await em.execute('update third_party_assignment set delivered_packages = ?, updated_at = now() where id = ?', [
    count,
    id,
  ]);
}

/**
 * Writes a leg of a live assignment, answering why not when it cannot: a package that is not the order's, a carrier
 * order number the assignment has already, a package on another leg, an assignment that has ended.
 */
export async function insertLeg(
  em: Em,
  id: number,
  carrierOrderNumber: string,
  packageNumbers: readonly string[],
): Promise<'ok' | 'not_packages' | 'leg_exists' | 'package_on_leg' | 'ended'> {
  const [state] = await em.execute<{ live: boolean; known: number; leg: boolean; on_leg: boolean }[]>(
    `select a.status in ('assigned', 'handed_over', 'partial_delivered') as live,
       (select count(*)::int from order_package pk where pk.order_id = a.order_id and pk.package_number in (?)) as known,
       exists (select 1 from third_party_leg l where l.assignment_id = a.id and l.carrier_order_number = ?) as leg,
       exists (select 1 from third_party_leg_package lp join order_package pk on pk.id = lp.package_id where lp.assignment_id = a.id and pk.package_number in (?)) as on_leg
     from third_party_assignment a where a.id = ? for update of a`,
    [packageNumbers, carrierOrderNumber, packageNumbers, id],
  );
  if (!state!.live) return 'ended';
  if (state!.known !== new Set(packageNumbers).size) return 'not_packages';
  if (state!.leg) return 'leg_exists';
  if (state!.on_leg) return 'package_on_leg';
  const [leg] = await em.execute<{ id: number }[]>(
    'insert into third_party_leg (assignment_id, carrier_order_number) values (?, ?) returning id',
    [id, carrierOrderNumber],
  );
  await em.execute(
    `insert into third_party_leg_package (leg_id, assignment_id, package_id)
     select ?, a.id, pk.id from third_party_assignment a join order_package pk on pk.order_id = a.order_id where a.id = ? and pk.package_number in (?)`,
    [leg!.id, id, packageNumbers],
  );
  return 'ok';
}

/** The live assignments, handed over, of the orders of these packages that this provider holds. */
export async function findProgressingAssignments(
  em: Em,
  providerId: number,
  packageNumbers: readonly string[],
): Promise<number[]> {
  if (packageNumbers.length === 0) return [];
  const rows = await em.execute<{ id: number }[]>(
    `select distinct a.id from order_package pk join third_party_assignment a on a.order_id = pk.order_id
     where pk.package_number in (?) and a.provider_id = ? and a.status in ('handed_over', 'partial_delivered')`,
    [packageNumbers, providerId],
  );
  return rows.map((r) => r.id);
}
