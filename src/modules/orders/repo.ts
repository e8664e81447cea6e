import type { Em } from '../../platform/db/orm.ts';
import { Order } from '../entities.ts';
import { ASSIGNABLE_STATUS_IDS } from './domain.ts';

/**
 * The orders a planner may plan: not on a route, a self-delivery order, in an assignable status, not held by
 * a carrier, and either unassigned or (for a contractor) actively assigned to that contractor. An actively
 * assigned order leaves every other contractor's pool and the client's own planning pool.
 */
export async function plannableOrders(em: Em, businessId: number, forBrokerId: number | null, limit = 500): Promise<Order[]> {
  const assigned = forBrokerId === null
    ? 'not exists (select 1 from broker_order_assignment a where a.order_id = o.id and a.status = \'active\')'
    : 'not exists (select 1 from broker_order_assignment a where a.order_id = o.id and a.status = \'active\' and a.broker_id <> ?)';
  const params: unknown[] = [businessId, ...(forBrokerId === null ? [] : [forBrokerId]), limit];
  const statusList = ASSIGNABLE_STATUS_IDS.join(',');
  const rows = await em.execute(
    `select o.* from delivery_order o
     where o.business_id = ? and o.route_id is null and o.self_delivery and o.carrier_provider_id is null
       and o.status_id in (${statusList}) and ${assigned}
     order by o.scheduled_date, o.id limit ?`,
    params,
  );
  return rows.map((r) => em.map(Order, r));
}
