/** What the orders module's reads ask of device orders (its hooks orderProcesses and orderExceptions). */
import type { Em } from '../../../platform/db/orm.ts';

/** The order's device orders still in a compartment, oldest first. */
export function openDeviceOrdersOf(
  em: Em,
  businessId: number,
  orderId: number,
): Promise<{ id: number; status: string; since: Date }[]> {
  return em.execute(
    `select id, status, coalesce(overdue_at, stored_at) as since from device_order
     where order_id = ? and business_id = ? and status in ('stored', 'overdue') order by id`,
    [orderId, businessId],
  );
}

/** The business's open exceptions of device orders that carry an order, newest first. */
export function openExceptionsOfOrders(
  em: Em,
  query: { businessId: number; limit: number; before?: Date; orderIds?: readonly number[] },
): Promise<
  { id: number; type: string; severity: string; opened_at: Date; order_id: number; device_order_id: number }[]
> {
  const where = ['x.business_id = ?', "x.status = 'open'", 'd.order_id is not null'];
  const params: unknown[] = [query.businessId];
  if (query.before) {
    where.push('x.opened_at < ?');
    params.push(query.before);
  }
  if (query.orderIds) {
    where.push('d.order_id in (?)');
    params.push(query.orderIds.length > 0 ? query.orderIds : [0]);
  }
  return em.execute(
    `select x.id, x.type, x.severity, x.opened_at, d.order_id, d.id as device_order_id
     from device_order_exception x join device_order d on d.id = x.device_order_id
     where ${where.join(' and ')} order by x.opened_at desc, x.id desc limit ?`,
    [...params, query.limit],
  );
}
