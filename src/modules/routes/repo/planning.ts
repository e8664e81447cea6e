/**
 * What a route build reads (docs/routes.md, Orders as planning reads them): the orders with their demand and
 * holders, the business's time origin and depot, and the chosen drivers' routes of the day. Every query filters on
 * the business.
 */
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import type { Recipient } from '../../orders/index.ts';
import type { StopKind, StopStatus } from './routes.ts';

export interface PlanningOrderRow {
  id: number;
  businessId: number;
  type: 'D' | 'P' | 'P2P';
  statusId: number;
  orderRef: string | null;
  trackingNumber: string;
  customerId: number | null;
  selfDelivery: boolean;
  carrierProviderId: number | null;
  brokerId: number | null;
  routeId: number | null;
  driverId: number | null;
  stopStarted: boolean;
  address: Recipient['address'] | null;
  pickup: Recipient | null;
  requiredSkills: string[];
  serviceMinutes: number | null;
  windowStart: Date | null;
  windowEnd: Date | null;
  weightGrams: number;
  volumeCm3: number;
  parcels: number;
}

const ORDER_COLUMNS = `o.id, o.business_id as "businessId", o.type, o.status_id as "statusId", o.order_ref as "orderRef",
  o.tracking_number as "trackingNumber", o.customer_id as "customerId", o.self_delivery as "selfDelivery",
  o.carrier_provider_id as "carrierProviderId",
  (select a.broker_id from broker_order_assignment a where a.order_id = o.id and a.status = 'active' limit 1) as "brokerId",
  o.route_id as "routeId", o.driver_id as "driverId",
  exists (select 1 from route_stop s where s.order_id = o.id and s.route_id = o.route_id and s.status <> 'pending'
      and s.released_at is null)
    as "stopStarted",
  o.recipient -> 'address' as address, o.pickup, o.required_skills as "requiredSkills",
  o.service_minutes as "serviceMinutes", o.time_window_start as "windowStart", o.time_window_end as "windowEnd",
  p.weight as "weightGrams", p.volume as "volumeCm3", p.parcels`;

/** The business's orders of these ids (others are not answered), with their demand. */
export function planningOrders(em: Em, businessId: number, orderIds: readonly number[]): Promise<PlanningOrderRow[]> {
  if (orderIds.length === 0) return Promise.resolve([]);
  return executeBound<PlanningOrderRow>(
    em,
    `select ${ORDER_COLUMNS}
     from delivery_order o
     left join lateral (
       select coalesce(sum(k.weight_grams), 0)::float8 as weight,
         round(coalesce(sum(k.length_mm::float8 * k.width_mm * k.height_mm), 0) / 1000)::float8 as volume,
         count(*)::int as parcels
       from order_package k where k.order_id = o.id) p on true
     where o.business_id = $1 and o.id = any($2::int[])
     order by o.id`,
    [businessId, [...orderIds]],
  );
}

/** Locks the business's orders of these ids (in id order, so that two stores never deadlock). */
export async function lockOrders(em: Em, businessId: number, orderIds: readonly number[]): Promise<void> {
  if (orderIds.length === 0) return;
  await executeBound(
    em,
    `select id from delivery_order where business_id = $1 and id = any($2::int[]) order by id for update`,
    [businessId, [...orderIds]],
  );
}

export interface PlanningFrame {
  /** The route date's midnight in the business's timezone. */
  originAt: Date;
  /** The depot of the business's price model, if it has one. */
  depot: { lat: number; lng: number } | null;
  /** The business's timezone, and its date now (YYYY-MM-DD) there. */
  timeZone: string;
  today: string;
}

export async function planningFrame(em: Em, businessId: number, date: string): Promise<PlanningFrame> {
  const [row] = await executeBound<{
    originAt: Date | string;
    lat: number | null;
    lng: number | null;
    timeZone: string;
    today: string;
  }>(
    em,
    `select ($2::date::timestamp at time zone b.timezone) as "originAt", m.origin_lat as lat, m.origin_lng as lng,
       b.timezone as "timeZone", to_char(now() at time zone b.timezone, 'YYYY-MM-DD') as today
     from business b left join delivery_price_model m on m.business_id = b.id where b.id = $1`,
    [businessId, date],
  );
  if (!row) throw new Error(`business ${businessId} is missing`);
  return {
    originAt: new Date(row.originAt),
    depot: row.lat !== null && row.lng !== null ? { lat: row.lat, lng: row.lng } : null,
    timeZone: row.timeZone,
    today: row.today,
  };
}

export interface DayStopRow {
  id: number;
  routeId: number;
  driverId: number;
  seq: number;
  kind: StopKind;
  orderId: number | null;
  status: StopStatus;
  plannedArrival: Date | null;
  plannedDeparture: Date | null;
  doneAt: Date | null;
  lat: number | null;
  lng: number | null;
}

/** The routes (not cancelled) of these drivers on that date, with their stops in order; a route without stops too. */
export async function driversDay(
  em: Em,
  businessId: number,
  driverIds: readonly number[],
  date: string,
): Promise<{ routeId: number; driverId: number; stops: DayStopRow[] }[]> {
  if (driverIds.length === 0) return [];
  const rows = await executeBound<DayStopRow & { stopId: number | null }>(
    em,
    `select r.id as "routeId", r.driver_id as "driverId", s.id as "stopId", s.seq, s.kind, s.order_id as "orderId",
       s.status, s.planned_arrival as "plannedArrival", s.planned_departure as "plannedDeparture", s.done_at as "doneAt",
       s.lat, s.lng
     from route r left join route_stop s on s.route_id = r.id
     where r.business_id = $1 and r.driver_id = any($2::int[]) and r.route_date = $3::date and r.status <> 'cancelled'
     order by r.id, s.seq`,
    [businessId, [...driverIds], date],
  );
  const byRoute = new Map<number, { routeId: number; driverId: number; stops: DayStopRow[] }>();
  for (const { stopId, ...r } of rows) {
    const day = byRoute.get(r.routeId) ?? { routeId: r.routeId, driverId: r.driverId, stops: [] };
    byRoute.set(r.routeId, day);
    if (stopId !== null) day.stops.push({ ...r, id: stopId });
  }
  return [...byRoute.values()];
}
