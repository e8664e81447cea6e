/**
 * Routes and their stops (docs/routes.md, Routes): the one writer of `route`, `route_stop` and an order's
 * `route_id`/`driver_id`. A driver has at most one route a day that is not cancelled; an order is on a route while it
 * has stops there. Every function runs in the caller's transaction and filters on the business.
 */
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import { appendOrderTrail, ORDER_OPERATION, type OrderActor } from '../../orders/index.ts';

export type RouteStatus = 'planned' | 'in_progress' | 'completed' | 'cancelled';
export type StopKind = 'pickup' | 'delivery' | 'break';
export type StopStatus = 'pending' | 'done' | 'failed' | 'skipped';

export interface RouteRow {
  id: number;
  businessId: number;
  driverId: number;
  routeDate: string;
  status: RouteStatus;
  buildId: number | null;
  plannedStart: Date | null;
  plannedEnd: Date | null;
  distanceM: number | null;
  durationS: number | null;
}

export interface StopRow {
  id: number;
  routeId: number;
  seq: number;
  kind: StopKind;
  orderId: number | null;
  status: StopStatus;
  plannedArrival: Date | null;
  plannedDeparture: Date | null;
  lat: number | null;
  lng: number | null;
  doneAt: Date | null;
}

const ROUTE_COLUMNS = `r.id, r.business_id as "businessId", r.driver_id as "driverId", r.route_date::text as "routeDate",
  r.status, r.build_id as "buildId", r.planned_start as "plannedStart", r.planned_end as "plannedEnd",
  r.distance_m as "distanceM", r.duration_s as "durationS"`;

const STOP_COLUMNS = `s.id, s.route_id as "routeId", s.seq, s.kind, s.order_id as "orderId", s.status,
  s.planned_arrival as "plannedArrival", s.planned_departure as "plannedDeparture", s.lat, s.lng, s.done_at as "doneAt"`;

/**
 * The driver's route of that date that is not cancelled, locked for the caller's transaction; made (planned, empty)
 * when there is none. Two callers making it at once meet on the one-a-day index: the loser reads the winner's.
 */
export async function driverRouteOf(em: Em, businessId: number, driverId: number, date: string): Promise<RouteRow> {
  const made = await em.execute<RouteRow[]>(
    `insert into route as r (business_id, driver_id, route_date) values (?, ?, ?)
     on conflict (driver_id, route_date) where status <> 'cancelled' do nothing
     returning ${ROUTE_COLUMNS}`,
    [businessId, driverId, date],
  );
  if (made[0]) return made[0];
  const [found] = await em.execute<RouteRow[]>(
    `select ${ROUTE_COLUMNS} from route r
     where r.business_id = ? and r.driver_id = ? and r.route_date = ? and r.status <> 'cancelled' for update`,
    [businessId, driverId, date],
  );
  if (!found) throw new Error(`route of driver ${driverId} on ${date} belongs to another business`);
  return found;
}

/** A route of the business, locked for the caller's transaction; null when it is not the business's. */
export async function lockRoute(em: Em, businessId: number, routeId: number): Promise<RouteRow | null> {
  const [row] = await em.execute<RouteRow[]>(
    `select ${ROUTE_COLUMNS} from route r where r.id = ? and r.business_id = ? for update`,
    [routeId, businessId],
  );
  return row ?? null;
}

/** The stops of a route, in order. */
export function routeStops(em: Em, businessId: number, routeId: number): Promise<StopRow[]> {
  return em.execute<StopRow[]>(
    `select ${STOP_COLUMNS} from route_stop s where s.route_id = ? and s.business_id = ? order by s.seq`,
    [routeId, businessId],
  );
}

/**
 * The order's stops on its route (pickup first), with the route; stops released after a failed attempt
 * (releaseFinishedOrder) are history and left out.
 */
export async function orderStops(
  em: Em,
  businessId: number,
  orderId: number,
): Promise<{ route: RouteRow; stops: StopRow[] } | null> {
  const [route] = await em.execute<RouteRow[]>(
    `select ${ROUTE_COLUMNS} from delivery_order o join route r on r.id = o.route_id
     where o.id = ? and o.business_id = ? and r.business_id = o.business_id`,
    [orderId, businessId],
  );
  if (!route) return null;
  const stops = await em.execute<StopRow[]>(
    `select ${STOP_COLUMNS} from route_stop s where s.route_id = ? and s.order_id = ? and s.released_at is null
     order by s.seq`,
    [route.id, orderId],
  );
  return { route, stops };
}

/** An order as putOrderOnRoute places it: a P2P order with a pickup place gets a pickup stop before its delivery. */
export interface OrderToRoute {
  id: number;
  businessId: number;
  type: 'D' | 'P' | 'P2P';
  statusId: number;
  pickupAt: { lat: number; lng: number } | null;
  deliverAt: { lat: number; lng: number } | null;
}

/**
 * Puts the order on the end of the route (the order must not be on another route: take it off first), and gives the
 * order the route's driver; answers the stops made. One trail row, 3083.
 */
export async function putOrderOnRoute(
  em: Em,
  route: RouteRow,
  order: OrderToRoute,
  actor: OrderActor,
): Promise<StopRow[]> {
  const kinds: { kind: StopKind; at: { lat: number; lng: number } | null }[] =
    order.type === 'P2P' && order.pickupAt
      ? [
          { kind: 'pickup', at: order.pickupAt },
          { kind: 'delivery', at: order.deliverAt },
        ]
      : [{ kind: order.type === 'P' ? 'pickup' : 'delivery', at: order.deliverAt }];
  const stops = await executeBound<StopRow>(
    em,
    `insert into route_stop as s (route_id, business_id, seq, kind, order_id, lat, lng)
     select $1, $2, coalesce((select max(seq) from route_stop where route_id = $1), 0) + k.n, k.kind, $3, k.lat, k.lng
     from jsonb_to_recordset($4::jsonb) as k(n int, kind text, lat double precision, lng double precision)
     returning ${STOP_COLUMNS}`,
    [
      route.id,
      route.businessId,
      order.id,
      JSON.stringify(kinds.map((k, i) => ({ n: i + 1, kind: k.kind, lat: k.at?.lat ?? null, lng: k.at?.lng ?? null }))),
    ],
  );
  await em.execute(
    `update delivery_order set route_id = ?, driver_id = ?, updated_at = now() where id = ? and business_id = ?`,
    [route.id, route.driverId, order.id, route.businessId],
  );
  await appendOrderTrail(em, [
    {
      orderId: order.id,
      businessId: route.businessId,
      operationType: ORDER_OPERATION.ROUTE_PLANNED,
      actor,
      beforeStatus: order.statusId,
      afterStatus: order.statusId,
      details: { route_id: route.id, driver_id: route.driverId },
    },
  ]);
  return stops.sort((a, b) => a.seq - b.seq);
}

/** Why takeOrderOffRoute left an order where it was. */
export type OffRouteRefusal = 'not_on_route' | 'stop_started';

/**
 * Takes the order off its route: its pending stops go, the later stops move up, the order keeps no route and no
 * driver. Refused when one of its stops is done or failed (the driver has it). One trail row, 3084. The route is
 * cancelled when nothing is left on it.
 */
export async function takeOrderOffRoute(
  em: Em,
  businessId: number,
  orderId: number,
  actor: OrderActor,
): Promise<{ routeId: number; driverId: number } | OffRouteRefusal> {
  const found = await orderStops(em, businessId, orderId);
  if (!found || found.stops.length === 0) return 'not_on_route';
  await lockRoute(em, businessId, found.route.id);
  if (found.stops.some((s) => s.status !== 'pending')) return 'stop_started';
  await em.execute(`delete from route_stop where route_id = ? and order_id = ? and released_at is null`, [
    found.route.id,
    orderId,
  ]);
  await renumberStops(em, found.route.id);
  const [order] = await em.execute<{ statusId: number }[]>(
    `update delivery_order set route_id = null, driver_id = null, updated_at = now() where id = ? and business_id = ?
     returning status_id as "statusId"`,
    [orderId, businessId],
  );
  await em.execute(
    `update route set status = 'cancelled', updated_at = now()
     where id = ? and status = 'planned' and not exists (select 1 from route_stop where route_id = ? and kind <> 'break')`,
    [found.route.id, found.route.id],
  );
  await appendOrderTrail(em, [
    {
      orderId,
      businessId,
      operationType: ORDER_OPERATION.ROUTE_REMOVED,
      actor,
      beforeStatus: order?.statusId ?? null,
      afterStatus: order?.statusId ?? null,
      details: { route_id: found.route.id, driver_id: found.route.driverId },
    },
  ]);
  return { routeId: found.route.id, driverId: found.route.driverId };
}

/** Numbers the route's stops 1, 2, 3... in their present order (seq is unique per route, checked at commit). */
export async function renumberStops(em: Em, routeId: number): Promise<void> {
  await em.execute(
    `update route_stop s set seq = n.seq
     from (select id, row_number() over (order by seq) as seq from route_stop where route_id = ?) n
     where s.id = n.id and s.seq <> n.seq`,
    [routeId],
  );
}

/**
 * Finishes a stop (done, failed or skipped) and moves its route: in progress from the first finished stop, completed
 * when none is pending. Answers false when the stop was not pending (a repeated or late report).
 */
export async function finishStop(
  em: Em,
  businessId: number,
  stopId: number,
  status: Exclude<StopStatus, 'pending'>,
  at: Date,
): Promise<boolean> {
  const [stop] = await em.execute<{ routeId: number }[]>(
    `update route_stop set status = ?, done_at = ? where id = ? and business_id = ? and status = 'pending'
     returning route_id as "routeId"`,
    [status, at, stopId, businessId],
  );
  if (!stop) return false;
  await em.execute(
    `update route r set updated_at = now(), status = case
       when exists (select 1 from route_stop where route_id = r.id and status = 'pending' and kind <> 'break') then 'in_progress'
       else 'completed' end
     where r.id = ? and r.status in ('planned', 'in_progress')`,
    [stop.routeId],
  );
  return true;
}

/**
 * The driver's first report moves a planned route to in progress (docs/routes.md, Routes); so does a report on a
 * route completed before an order was added to it (a stop pending again).
 */
export async function startRoute(em: Em, businessId: number, routeId: number): Promise<void> {
  await em.execute(
    `update route r set status = 'in_progress', updated_at = now() where r.id = ? and r.business_id = ?
     and (r.status = 'planned' or (r.status = 'completed'
       and exists (select 1 from route_stop s where s.route_id = r.id and s.status = 'pending' and s.kind <> 'break')))`,
    [routeId, businessId],
  );
}

/**
 * Lets go of an order whose stops on its route are all finished (a failed attempt: the order waits for dispatch
 * again): the stops stay on the route as what happened (released: `released_at`, so that a second attempt on the
 * same route gets new stops of its own), the order keeps no route and no driver. One trail row, 3084.
 * Refused ('stop_pending') while a stop of it is still pending (the driver has it under way).
 */
export async function releaseFinishedOrder(
  em: Em,
  businessId: number,
  orderId: number,
  actor: OrderActor,
): Promise<{ routeId: number; driverId: number } | OffRouteRefusal | 'stop_pending'> {
  const found = await orderStops(em, businessId, orderId);
  if (!found || found.stops.length === 0) return 'not_on_route';
  await lockRoute(em, businessId, found.route.id);
  if (found.stops.some((s) => s.status === 'pending')) return 'stop_pending';
  await em.execute(`update route_stop set released_at = now() where id in (?)`, [found.stops.map((s) => s.id)]);
  const [order] = await em.execute<{ statusId: number }[]>(
    `update delivery_order set route_id = null, driver_id = null, updated_at = now() where id = ? and business_id = ?
     returning status_id as "statusId"`,
    [orderId, businessId],
  );
  await appendOrderTrail(em, [
    {
      orderId,
      businessId,
      operationType: ORDER_OPERATION.ROUTE_REMOVED,
      actor,
      beforeStatus: order?.statusId ?? null,
      afterStatus: order?.statusId ?? null,
      details: { route_id: found.route.id, driver_id: found.route.driverId, stops_kept: true },
    },
  ]);
  return { routeId: found.route.id, driverId: found.route.driverId };
}
