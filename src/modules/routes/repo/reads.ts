/** The route reads (docs/routes.md, Routes): lists, one route with its stops and their orders, a build's routes. */
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import type { Recipient } from '../../orders/index.ts';
import type { RouteStatus, StopKind, StopStatus } from './routes.ts';

export interface RouteListRow {
  id: number;
  driverId: number;
  driverName: string;
  routeDate: string;
  status: RouteStatus;
  buildId: number | null;
  plannedStart: Date | null;
  plannedEnd: Date | null;
  distanceM: number | null;
  durationS: number | null;
  stopsTotal: number;
  stopsDone: number;
}

export interface RouteStopRow {
  id: number;
  routeId: number;
  seq: number;
  kind: StopKind;
  status: StopStatus;
  orderId: number | null;
  plannedArrival: Date | null;
  plannedDeparture: Date | null;
  lat: number | null;
  lng: number | null;
  doneAt: Date | null;
  orderRef: string | null;
  trackingNumber: string | null;
  orderType: string | null;
  statusId: number | null;
  recipient: Recipient | null;
  pickup: Recipient | null;
  note: string | null;
  deliveryInstruction: string | null;
  windowStart: Date | null;
  windowEnd: Date | null;
  requiredSkills: string[] | null;
  serviceMinutes: number | null;
  packages: number | null;
}

const LIST_COLUMNS = `r.id, r.driver_id as "driverId", u.name as "driverName", r.route_date::text as "routeDate", r.status,
  r.build_id as "buildId", r.planned_start as "plannedStart", r.planned_end as "plannedEnd",
  r.distance_m as "distanceM", r.duration_s as "durationS",
  (select count(*)::int from route_stop s where s.route_id = r.id and s.kind <> 'break') as "stopsTotal",
  (select count(*)::int from route_stop s where s.route_id = r.id and s.kind <> 'break' and s.status <> 'pending')
    as "stopsDone"`;

export interface RouteFilter {
  date?: string;
  driverId?: number;
  status?: RouteStatus;
  /** Today in the business's timezone (the date filter is ignored then). */
  today?: boolean;
  notCancelled?: boolean;
}

export async function listRoutes(
  em: Em,
  businessId: number,
  f: RouteFilter,
  page: { limit: number; offset: number },
): Promise<{ total: number; rows: RouteListRow[] }> {
  const where = `r.business_id = $1 and ($2::date is null or r.route_date = $2::date)
    and ($3::int is null or r.driver_id = $3) and ($4::text is null or r.status = $4)
    and (not $5::boolean or r.route_date = (now() at time zone b.timezone)::date)
    and (not $6::boolean or r.status <> 'cancelled')`;
  const params = [
    businessId,
    f.date ?? null,
    f.driverId ?? null,
    f.status ?? null,
    f.today ?? false,
    f.notCancelled ?? false,
  ];
  const from = `from route r join app_user u on u.id = r.driver_id join business b on b.id = r.business_id`;
  const [count] = await executeBound<{ total: number }>(
    em,
    `select count(*)::int as total ${from} where ${where}`,
    params,
  );
  const rows = await executeBound<RouteListRow>(
    em,
    `select ${LIST_COLUMNS} ${from} where ${where} order by r.route_date desc, r.id desc limit $7 offset $8`,
    [...params, page.limit, page.offset],
  );
  return { total: count?.total ?? 0, rows };
}

export async function findRoute(em: Em, businessId: number, routeId: number): Promise<RouteListRow | null> {
  const [row] = await executeBound<RouteListRow>(
    em,
    `select ${LIST_COLUMNS} from route r join app_user u on u.id = r.driver_id where r.id = $1 and r.business_id = $2`,
    [routeId, businessId],
  );
  return row ?? null;
}

/** The stops of these routes of the business, in order, with their orders: place, contact and what the driver needs. */
export function stopsOf(em: Em, businessId: number, routeIds: readonly number[]): Promise<RouteStopRow[]> {
  if (routeIds.length === 0) return Promise.resolve([]);
  return executeBound<RouteStopRow>(
    em,
    `select s.id, s.route_id as "routeId", s.seq, s.kind, s.status, s.order_id as "orderId",
       s.planned_arrival as "plannedArrival", s.planned_departure as "plannedDeparture", s.lat, s.lng, s.done_at as "doneAt",
       o.order_ref as "orderRef", o.tracking_number as "trackingNumber", o.type as "orderType", o.status_id as "statusId",
       o.recipient, o.pickup, o.note, o.delivery_instruction as "deliveryInstruction",
       o.time_window_start as "windowStart", o.time_window_end as "windowEnd", o.required_skills as "requiredSkills",
       o.service_minutes as "serviceMinutes",
       (select count(*)::int from order_package k where k.order_id = o.id) as packages
     from route_stop s left join delivery_order o on o.id = s.order_id and o.business_id = s.business_id
     where s.business_id = $1 and s.route_id = any($2::int[]) order by s.route_id, s.seq`,
    [businessId, [...routeIds]],
  );
}

/** The routes a build planned last (a later build of the same driver and day takes them over). */
export function buildRoutes(em: Em, businessId: number, buildId: number): Promise<{ id: number; driverId: number }[]> {
  return executeBound(
    em,
    `select id, driver_id as "driverId" from route where business_id = $1 and build_id = $2 order by id`,
    [businessId, buildId],
  );
}
