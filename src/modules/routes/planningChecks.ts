/**
 * The checks of a build request before anything is written (docs/routes.md, Building routes): which orders and
 * drivers are left out and why. An id the business does not have is refused like an unknown one (the caller learns
 * nothing of other businesses).
 */
import type { Em } from '../../platform/db/orm.ts';
import { errors, type FieldError } from '../../platform/errors.ts';
import { planningDrivers, type PlanningDriver } from '../drivers/index.ts';
import { ASSIGNABLE_STATUS_IDS } from '../orders/index.ts';
import { endsOf } from './buildProblem.ts';
import { orderSkip, pointOf, type OrderToPlan, type Skip } from './domain.ts';
import { driversDay, planningFrame, planningOrders, type PlanningOrderRow } from './repo/planning.ts';

export const toPlanned = (o: PlanningOrderRow): OrderToPlan => ({
  id: o.id,
  type: o.type,
  statusId: o.statusId,
  selfDelivery: o.selfDelivery,
  carrierProviderId: o.carrierProviderId,
  brokerId: o.brokerId,
  routeId: o.routeId,
  stopStarted: o.stopStarted,
  at: pointOf(o.address),
  hasPickup: o.pickup !== null,
  pickupAt: pointOf(o.pickup?.address),
});

export interface CheckedRequest {
  orders: PlanningOrderRow[];
  drivers: PlanningDriver[];
  skipped: Skip[];
}

/**
 * Reads the orders and drivers and sorts out what cannot be planned. Unknown ids (another business's included)
 * refuse the whole request (422, each named).
 */
export async function checkBuildRequest(
  em: Em,
  businessId: number,
  req: { date: string; order_ids: number[]; driver_ids: number[]; reoptimize: boolean; brokerId: number | null },
): Promise<CheckedRequest> {
  const frame = await planningFrame(em, businessId, req.date);
  // Re-optimising plans from now and the drivers' positions: another day has neither.
  if (req.reoptimize && req.date !== frame.today)
    throw errors.field('options.reoptimize', 'routes.reoptimize_not_today');
  const orders = await planningOrders(em, businessId, req.order_ids);
  const drivers = await planningDrivers(em, businessId, req.driver_ids);
  const unknown: FieldError[] = [
    ...req.order_ids.flatMap((id, i) =>
      orders.some((o) => o.id === id) ? [] : [{ field: `order_ids.${i}`, key: 'routes.unknown_order' as const }],
    ),
    ...req.driver_ids.flatMap((id, i) =>
      drivers.some((d) => d.driverId === id)
        ? []
        : [{ field: `driver_ids.${i}`, key: 'routes.unknown_driver' as const }],
    ),
  ];
  if (unknown.length > 0) throw errors.validation(unknown);

  const skipped: Skip[] = [];
  const keptOrders = orders.filter((o) => {
    const code = orderSkip(toPlanned(o), req.brokerId, ASSIGNABLE_STATUS_IDS);
    if (code) skipped.push({ order_id: o.id, code });
    return !code;
  });
  const day = await driversDay(
    em,
    businessId,
    drivers.map((d) => d.driverId),
    req.date,
  );
  const notYours =
    req.reoptimize && req.brokerId !== null
      ? driversNotYours(day, await planningOrders(em, businessId, pendingOrdersOf(day)), req.brokerId)
      : new Set<number>();
  const keptDrivers = drivers.filter((d) => {
    if (d.status !== 'active') skipped.push({ driver_id: d.driverId, code: 'DRIVER_NOT_ACTIVE' });
    else if (!endsOf(d, frame.depot, req.reoptimize ? frame.originAt : null))
      skipped.push({ driver_id: d.driverId, code: 'DRIVER_NO_START' });
    else if (!req.reoptimize && day.some((r) => r.driverId === d.driverId && r.stops.some((s) => s.kind !== 'break')))
      skipped.push({ driver_id: d.driverId, code: 'DRIVER_HAS_ROUTE' });
    else if (notYours.has(d.driverId)) skipped.push({ driver_id: d.driverId, code: 'DRIVER_DAY_NOT_YOURS' });
    else return true;
    return false;
  });
  return { orders: keptOrders, drivers: keptDrivers, skipped };
}

type Day = Awaited<ReturnType<typeof driversDay>>;

/** The orders of the day's pending stops (those a re-optimisation plans again). */
export const pendingOrdersOf = (day: Day): number[] => [
  ...new Set(day.flatMap((d) => d.stops.flatMap((s) => (s.status === 'pending' && s.orderId ? [s.orderId] : [])))),
];

/**
 * The drivers whose day a contractor may not re-optimise: a pending stop of theirs holds an order that is not
 * assigned to that contractor (the staff's, or another contractor's). Re-planning it would move or drop it.
 */
export function driversNotYours(day: Day, orders: readonly PlanningOrderRow[], brokerId: number): Set<number> {
  const foreign = new Set(orders.filter((o) => o.brokerId !== brokerId).map((o) => o.id));
  return new Set(
    day
      .filter((d) => d.stops.some((s) => s.status === 'pending' && s.orderId !== null && foreign.has(s.orderId)))
      .map((d) => d.driverId),
  );
}
