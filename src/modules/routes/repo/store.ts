/**
 * The bulk writes of a build's store (docs/routes.md, Building routes), in the store's transaction: a route's pending
 * stops cleared, the new stops in one statement, the orders given their route and driver, the route's planned
 * figures. The single-order writers are in routes.ts.
 */
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import { renumberStops, type StopKind } from './routes.ts';

/** Deletes the route's pending stops (done and failed ones stay, renumbered first); answers the orders they held. */
export async function clearPendingStops(em: Em, businessId: number, routeId: number): Promise<number[]> {
  const gone = await executeBound<{ orderId: number | null }>(
    em,
    `delete from route_stop where route_id = $1 and business_id = $2 and status = 'pending' returning order_id as "orderId"`,
    [routeId, businessId],
  );
  await renumberStops(em, routeId);
  return [...new Set(gone.map((g) => g.orderId).filter((id): id is number => id !== null))];
}

export interface NewStop {
  kind: StopKind;
  orderId: number | null;
  plannedArrival: string | null;
  plannedDeparture: string | null;
  lat: number | null;
  lng: number | null;
}

/** Appends the stops after the route's last, in this order; answers each new stop's id and order. */
export function appendStops(
  em: Em,
  businessId: number,
  routeId: number,
  stops: readonly NewStop[],
): Promise<{ id: number; orderId: number | null; seq: number }[]> {
  if (stops.length === 0) return Promise.resolve([]);
  return executeBound(
    em,
    `insert into route_stop (route_id, business_id, seq, kind, order_id, planned_arrival, planned_departure, lat, lng)
     select $1, $2, coalesce((select max(seq) from route_stop where route_id = $1), 0) + k.n, k.kind, k.order_id,
       k.arrival, k.departure, k.lat, k.lng
     from jsonb_to_recordset($3::jsonb) as k(n int, kind text, order_id int, arrival timestamptz, departure timestamptz,
       lat double precision, lng double precision)
     returning id, order_id as "orderId", seq`,
    [
      routeId,
      businessId,
      JSON.stringify(
        stops.map((s, i) => ({
          n: i + 1,
          kind: s.kind,
          order_id: s.orderId,
          arrival: s.plannedArrival,
          departure: s.plannedDeparture,
          lat: s.lat,
          lng: s.lng,
        })),
      ),
    ],
  );
}

/** Gives the orders this route and its driver (null, null: no route). */
export async function setOrdersRoute(
  em: Em,
  businessId: number,
  orderIds: readonly number[],
  route: { id: number; driverId: number } | null,
): Promise<void> {
  if (orderIds.length === 0) return;
  await executeBound(
    em,
    `update delivery_order set route_id = $3, driver_id = $4, updated_at = now()
     where business_id = $1 and id = any($2::int[])`,
    [businessId, [...orderIds], route?.id ?? null, route?.driverId ?? null],
  );
}

/** The route's plan: when it starts and ends, how far and how long, and the build that made it. */
export async function setRoutePlan(
  em: Em,
  routeId: number,
  plan: { buildId: number; start: string | null; end: string | null; distanceM: number; durationS: number },
): Promise<void> {
  await executeBound(
    em,
    `update route set build_id = $2, planned_start = $3, planned_end = $4, distance_m = $5, duration_s = $6,
       updated_at = now() where id = $1`,
    [routeId, plan.buildId, plan.start, plan.end, plan.distanceM, plan.durationS],
  );
}

/** Cancels the route when it is planned and holds no order any more. */
export async function cancelIfEmpty(em: Em, routeId: number): Promise<void> {
  await executeBound(
    em,
    `update route set status = 'cancelled', updated_at = now()
     where id = $1 and status = 'planned' and not exists (select 1 from route_stop where route_id = $1 and kind <> 'break')`,
    [routeId],
  );
  await executeBound(
    em,
    `delete from route_stop where route_id = $1 and kind = 'break'
       and exists (select 1 from route where id = $1 and status = 'cancelled')`,
    [routeId],
  );
}

/** Whether the route has a stop that is no break (a build that does not re-optimise leaves such a route alone). */
export async function hasOrderStops(em: Em, routeId: number): Promise<boolean> {
  const [row] = await executeBound<{ found: boolean }>(
    em,
    `select exists (select 1 from route_stop where route_id = $1 and kind <> 'break') as found`,
    [routeId],
  );
  return row?.found ?? false;
}

/** Completes a route under way that has no pending stop left but breaks (a re-optimisation cleared the rest). */
export async function completeIfFinished(em: Em, routeId: number): Promise<void> {
  await executeBound(
    em,
    `update route set status = 'completed', updated_at = now()
     where id = $1 and status = 'in_progress'
       and not exists (select 1 from route_stop where route_id = $1 and status = 'pending' and kind <> 'break')`,
    [routeId],
  );
}
