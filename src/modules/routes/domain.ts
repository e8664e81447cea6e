/** Route builds' rules (docs/routes.md, Building routes): the options' ranges, what is left out and why. */

export const BUILD_LIMITS = { orders: 1_000, drivers: 200 } as const;

/** Each option's range and default, as get_build_route_options lists them and the input schema checks them. */
export const BUILD_OPTIONS = {
  objective: { values: ['duration', 'vehicles'] as const, default: 'duration' as const },
  time_limit_seconds: { min: 1, max: 120, default: 10 },
  balance: { default: false },
  average_speed_kmh: { min: 5, max: 150, default: 30 },
  default_service_minutes: { min: 0, max: 480, default: 5 },
  max_route_minutes: { min: 1, max: 1_440, default: null },
  reoptimize: { default: false },
} as const;

export interface BuildOptions {
  objective: 'duration' | 'vehicles';
  time_limit_seconds: number;
  balance: boolean;
  average_speed_kmh: number;
  default_service_minutes: number;
  max_route_minutes: number | null;
  reoptimize: boolean;
}

/** What route_build.request keeps: the request as checked, and who made it (for the store's re-check). */
export interface BuildRequest {
  date: string;
  order_ids: number[];
  driver_ids: number[];
  options: BuildOptions;
  /** The contractor who asked (plans its own orders and the unassigned ones); null for the business's staff. */
  broker_id: number | null;
  actor: { userId: number | null; role: string | null; source: 'api' | 'mcp' | 'system'; ip: string | null };
}

export const ORDER_SKIPS = [
  'NOT_DISPATCHABLE',
  'PROVIDER_HELD',
  'CONTRACTOR_HELD',
  'ALREADY_ON_ROUTE',
  'NO_PICKUP',
  'NO_COORDINATES',
  'UNASSIGNED',
] as const;
export const DRIVER_SKIPS = [
  'DRIVER_NOT_ACTIVE',
  'DRIVER_HAS_ROUTE',
  'DRIVER_NO_START',
  'DRIVER_DAY_NOT_YOURS',
] as const;
export type OrderSkipCode = (typeof ORDER_SKIPS)[number];
export type DriverSkipCode = (typeof DRIVER_SKIPS)[number];
export type SkipCode = OrderSkipCode | DriverSkipCode;

/** One order or driver left out, as route_build.skipped keeps it; `reason` is the solver's, for UNASSIGNED. */
export type Skip =
  { order_id: number; code: OrderSkipCode; reason?: string } | { driver_id: number; code: DriverSkipCode };

export interface Point {
  lat: number;
  lng: number;
}

/** An order as the checks read it. */
export interface OrderToPlan {
  id: number;
  type: 'D' | 'P' | 'P2P';
  statusId: number;
  selfDelivery: boolean;
  carrierProviderId: number | null;
  /** The contractor holding it (an active assignment), if any. */
  brokerId: number | null;
  routeId: number | null;
  /** A stop of its route is done, failed or skipped: the driver has it. */
  stopStarted: boolean;
  at: Point | null;
  hasPickup: boolean;
  pickupAt: Point | null;
}

/**
 * Why an order cannot be planned by this caller, or null. `dispatchable` are the statuses an order waits for
 * dispatch in (the orders module's assignable ones).
 */
export function orderSkip(
  o: OrderToPlan,
  brokerId: number | null,
  dispatchable: readonly number[],
): OrderSkipCode | null {
  if (!dispatchable.includes(o.statusId)) return 'NOT_DISPATCHABLE';
  if (!o.selfDelivery || o.carrierProviderId !== null) return 'PROVIDER_HELD';
  if (o.brokerId !== null && o.brokerId !== brokerId) return 'CONTRACTOR_HELD';
  if (o.routeId !== null && o.stopStarted) return 'ALREADY_ON_ROUTE';
  if (o.type === 'P2P' && !o.hasPickup) return 'NO_PICKUP';
  if (!o.at || (o.type === 'P2P' && !o.pickupAt)) return 'NO_COORDINATES';
  return null;
}

/** A point from an address's `lat`/`lng`, when both are numbers in range. */
export function pointOf(address: unknown): Point | null {
  if (!address || typeof address !== 'object') return null;
  const { lat, lng } = address as { lat?: unknown; lng?: unknown };
  if (typeof lat !== 'number' || typeof lng !== 'number') return null;
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return { lat, lng };
}

/** 'HH:MM' as seconds from midnight. */
export const secondsOfDay = (hhmm: string): number => {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 3600 + (m ?? 0) * 60;
};

export const DAY_SECONDS = 86_400;
