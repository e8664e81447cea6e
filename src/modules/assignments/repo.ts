/**
 * Data access: MikroORM entities in the operation's unit of work (the operation flushes); SQL for the list, which
 * joins orders and users.
 */
import { LockMode, type RequiredEntityData } from '@mikro-orm/core';
import type { Em } from '../../platform/db/orm.ts';
import type { ReadCache } from '../../platform/db/readCache.ts';
import { Business, User } from '../identity/index.ts';
import { Order } from '../orders/index.ts';
import type { ASSIGNMENT_STATUSES } from './domain.ts';
import { BrokerOrderAssignment } from './entities.ts';

/** Whether the platform has switched the module on for the business; kept by the read cache. */
export async function moduleEnabledFor(em: Em, reads: ReadCache, businessId: number): Promise<boolean> {
  const load = async () => (await em.findOne(Business, businessId))?.assignmentModuleEnabled ?? false;
  return (await reads.get(`business:${businessId}:assignments`, load))!;
}

export async function contractorOf(em: Em, businessId: number, userId: number): Promise<User | null> {
  return em.findOne(User, { id: userId, businessId, role: 'contractor' });
}

/** Locks the business's orders among `ids` in id order, so that concurrent batches cannot deadlock. */
export async function lockOrders(em: Em, businessId: number, ids: number[]): Promise<Map<number, Order>> {
  const orders = await em.find(
    Order,
    { id: { $in: ids }, businessId },
    { orderBy: { id: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE },
  );
  return new Map(orders.map((o) => [o.id, o]));
}

export async function activeAssignments(
  em: Em,
  orderIds: number[],
  brokerId?: number,
): Promise<Map<number, BrokerOrderAssignment>> {
  const rows = await em.find(BrokerOrderAssignment, {
    orderId: { $in: orderIds },
    status: 'active',
    ...(brokerId !== undefined && { brokerId }),
  });
  return new Map(rows.map((a) => [a.orderId, a]));
}

/** A new assignment in the unit of work; the caller's flush writes it. */
export function addAssignment(em: Em, fields: RequiredEntityData<BrokerOrderAssignment>): BrokerOrderAssignment {
  return em.create(BrokerOrderAssignment, fields);
}

export interface AssignmentRow {
  id: number;
  order_id: number;
  order_ref: string | null;
  status_id: number | null;
  scheduled_date: string | Date | null;
  route_id: number | null;
  broker_id: number;
  broker_name: string | null;
  status: (typeof ASSIGNMENT_STATUSES)[number];
  note: string | null;
  assigned_by: number | null;
  assigned_at: Date | null;
  ended_by: number | null;
  ended_at: Date | null;
  end_reason: string | null;
}

/** A page of the business's assignments, newest first, with each order's current status and the total. */
export async function listAssignments(
  em: Em,
  businessId: number,
  filter: { brokerId?: number; status?: string; orderId?: number },
  limit: number,
  offset: number,
): Promise<{ total: number; rows: AssignmentRow[] }> {
  const where = ['a.business_id = ?'];
  const params: unknown[] = [businessId];
  if (filter.brokerId !== undefined) {
    where.push('a.broker_id = ?');
    params.push(filter.brokerId);
  }
  if (filter.status) {
    where.push('a.status = ?');
    params.push(filter.status);
  }
  if (filter.orderId !== undefined) {
    where.push('a.order_id = ?');
    params.push(filter.orderId);
  }
  const clause = where.join(' and ');
  const [count] = await em.execute<{ total: string }[]>(
    `select count(*) as total from broker_order_assignment a where ${clause}`,
    params,
  );
  const rows = await em.execute<AssignmentRow[]>(
    `select a.*, o.order_ref, o.status_id, o.scheduled_date::text as scheduled_date, o.route_id, u.name as broker_name
     from broker_order_assignment a join delivery_order o on o.id = a.order_id join app_user u on u.id = a.broker_id
     where ${clause} order by a.assigned_at desc, a.id desc limit ? offset ?`,
    [...params, limit, offset],
  );
  return { total: Number(count!.total), rows };
}

/** The order's active contractor assignment (at most one), for the orders module's snapshot. */
export function activeAssignmentOf(
  em: Em,
  businessId: number,
  orderId: number,
): Promise<{ id: number; broker_id: number; assigned_at: Date }[]> {
  return em.execute(
    `select id, broker_id, assigned_at from broker_order_assignment
     where order_id = ? and business_id = ? and status = 'active'`,
    [orderId, businessId],
  );
}

/** Ends the order's active assignment, if any (revoked, with the reason): answers the contractors that had it. */
export async function endAssignmentsOfOrder(
  em: Em,
  orderId: number,
  endedBy: number | null,
  reason: string,
): Promise<{ id: number; broker_id: number }[]> {
  return em.execute<{ id: number; broker_id: number }[]>(
    `update broker_order_assignment set status = 'revoked', ended_by = ?, ended_at = now(), end_reason = ?
     where order_id = ? and status = 'active' returning id, broker_id`,
    [endedBy, reason, orderId],
  );
}
