/** What the orders module's reads ask of third-party deliveries (its hook orderProcesses). */
import type { Em } from '../../../platform/db/orm.ts';

/** The order's live assignment to a provider (at most one). */
export function liveAssignmentsOf(
  em: Em,
  businessId: number,
  orderId: number,
): Promise<{ id: number; number: string; status: string; since: Date }[]> {
  return em.execute(
    `select a.id, a.number, a.status, coalesce(a.handed_over_at, a.created_at) as since
     from third_party_assignment a
     where a.order_id = ? and a.business_id = ? and a.status in ('assigned', 'handed_over', 'partial_delivered')`,
    [orderId, businessId],
  );
}
