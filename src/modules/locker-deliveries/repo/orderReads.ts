/** What the orders module's reads ask of partner locker deliveries (its hook orderProcesses). */
import type { Em } from '../../../platform/db/orm.ts';

/**
 * The open locker deliveries carrying one of the order's packages: a parcel whose reference is the package's
 * number, into the business's lockers or by the business as the provider.
 */
export function openDeliveriesOfOrder(
  em: Em,
  businessId: number,
  orderId: number,
): Promise<{ id: number; status: string; since: Date }[]> {
  return em.execute(
    `select distinct d.id, d.status, d.updated_at as since
     from order_package pk
     join locker_delivery_parcel p on p.reference = pk.package_number
     join locker_delivery d on d.id = p.delivery_id
     where pk.order_id = ? and (d.business_id = ? or d.provider_id = ?)
       and d.status in ('awaiting_deposit', 'depositing', 'delivered')
     order by d.id`,
    [orderId, businessId, businessId],
  );
}
