/** What the orders module's reads ask of distribution (its hooks orderProcesses and orderExceptions). */
import type { Em } from '../../../platform/db/orm.ts';

/** The order's packages whose distribution still runs (created or in transit), by package position. */
export function openDistributionsOf(
  em: Em,
  businessId: number,
  orderId: number,
): Promise<{ package_number: string; status: string; since: Date }[]> {
  return em.execute(
    `select pk.package_number, pd.status, pd.last_step_at as since
     from package_distribution pd join order_package pk on pk.id = pd.package_id
     where pd.order_id = ? and pd.business_id = ? and pd.status in ('created', 'in_transit') order by pk.position`,
    [orderId, businessId],
  );
}

/**
 * The business's flagged scans that no applied scan of the same package followed, newest first: a flag stays for a
 * person until the package is scanned where it belongs.
 */
export function standingFlaggedScans(
  em: Em,
  query: { businessId: number; limit: number; before?: Date; orderIds?: readonly number[] },
): Promise<
  { id: string; flag: string; action: string; recorded_at: Date; order_id: number; package_number: string }[]
> {
  const where = ['s.business_id = ?', "s.outcome = 'flagged'"];
  const params: unknown[] = [query.businessId];
  if (query.before) {
    where.push('s.recorded_at < ?');
    params.push(query.before);
  }
  if (query.orderIds) {
    where.push('pk.order_id in (?)');
    params.push(query.orderIds.length > 0 ? query.orderIds : [0]);
  }
  return em.execute(
    `select s.id::text as id, s.flag, s.action, s.recorded_at, pk.order_id, pk.package_number
     from distribution_scan s join order_package pk on pk.id = s.package_id
     where ${where.join(' and ')}
       and not exists (select 1 from distribution_scan a where a.package_id = s.package_id and a.outcome = 'applied' and a.id > s.id)
     order by s.id desc limit ?`,
    [...params, query.limit],
  );
}
