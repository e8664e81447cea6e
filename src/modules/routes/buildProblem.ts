/**
 * The solver's problem from a build's orders and drivers (docs/routes.md, Building routes): D orders are deliveries
 * loaded at the start, P orders pickups carried to the end, P2P orders shipments (pickup, then delivery, same route).
 * Re-optimising a day under way (dayUnderWay): an order a driver carries already (a P2P order picked up, a D order
 * on a route under way) is a delivery pinned to that driver, and what a driver collected for the depot takes room
 * in its vehicle to the end. Times are seconds from the route date's midnight in the business's timezone, a shift's
 * and a break's times of day read on that date's wall clock. Pure: the matrix is asked afterwards for the locations
 * it answers.
 */
import type { PlanningDriver } from '../drivers/index.ts';
import { pointOf, type BuildOptions, type Point } from './domain.ts';
import type { DayStopRow, PlanningOrderRow } from './repo/planning.ts';
import type { Amount, LngLat, SolveJob, SolveProblem, SolveShipment, SolveVehicle, Window } from './solver/problem.ts';
import { wallClockAt } from './wallClock.ts';

export interface ProblemInput {
  /** The route date's midnight in the business's timezone. */
  originAt: Date;
  /** The route date, YYYY-MM-DD, and the business's timezone: a shift's times of day are read on it. */
  date: string;
  timeZone: string;
  businessDepot: Point | null;
  options: BuildOptions;
  orders: readonly PlanningOrderRow[];
  /** Orders a driver carries already (order id to driver id): their delivery is left, on that driver only. */
  carrying: ReadonlyMap<number, number>;
  /** What each driver (by id) has aboard to the end of its route (pickups done, for the depot). */
  aboard: ReadonlyMap<number, Amount>;
  drivers: readonly PlanningDriver[];
  /** Re-optimising: the build's time; vehicles start there, from the driver's newest position of the day. */
  now: Date | null;
}

export type ProblemWithoutMatrix = Omit<SolveProblem, 'matrix'>;

const secondsFrom = (origin: Date, at: Date): number => Math.round((at.getTime() - origin.getTime()) / 1000);

/** The skill that pins a task to one driver: not a skill name a record can hold (those are a-z, 0-9, _ and -). */
export const pinSkill = (driverId: number): string => `driver:${driverId}`;

/**
 * Where a driver's route starts and ends. The end is its depot, else the business's; re-optimising, the start is its
 * newest position when reported since the route date's midnight, else the end. A driver with no depot at all starts
 * at its newest position (however old) and ends at its last stop; with no position either, it has no start (null:
 * left out, DRIVER_NO_START), since the solver needs one of the two.
 */
export function endsOf(
  d: Pick<PlanningDriver, 'depot' | 'position'>,
  businessDepot: Point | null,
  reoptimizeSince: Date | null,
): { start: Point; end: Point | null } | null {
  const home = d.depot ?? businessDepot;
  const fresh = d.position && reoptimizeSince && Date.parse(d.position.recordedAt) >= reoptimizeSince.getTime();
  const start = fresh ? d.position : (home ?? d.position);
  return start ? { start: { lat: start.lat, lng: start.lng }, end: home } : null;
}

/**
 * What re-optimising finds on the drivers' routes of the day: the orders of pending stops, the orders a driver
 * carries (a P2P order whose pickup is done; a D order on a route where a stop is done or failed, so the driver has
 * left the depot with it), and what each driver collected and carries to the end (a P order picked up).
 */
export function dayUnderWay(day: readonly { driverId: number; stops: readonly DayStopRow[] }[]): {
  pending: number[];
  carrying: Map<number, number>;
  collected: Map<number, number[]>;
} {
  const pending: number[] = [];
  const carrying = new Map<number, number>();
  const collected = new Map<number, number[]>();
  for (const { driverId, stops } of day) {
    const tasks = stops.filter((s) => s.orderId !== null && s.kind !== 'break');
    const started = tasks.some((s) => s.status === 'done' || s.status === 'failed');
    const byOrder = Map.groupBy(tasks, (s) => s.orderId!);
    for (const [orderId, own] of byOrder) {
      const pickup = own.find((s) => s.kind === 'pickup');
      const delivery = own.find((s) => s.kind === 'delivery');
      if (own.some((s) => s.status === 'pending')) pending.push(orderId);
      if (delivery?.status !== 'pending') {
        if (pickup?.status === 'done' && !delivery)
          collected.set(driverId, [...(collected.get(driverId) ?? []), orderId]);
        continue;
      }
      if (pickup ? pickup.status === 'done' : started) carrying.set(orderId, driverId);
    }
  }
  return { pending: [...new Set(pending)], carrying, collected };
}

/** Each driver's load aboard: the sum of its collected orders' amounts. */
export function aboardOf(collected: ReadonlyMap<number, readonly number[]>, rows: readonly PlanningOrderRow[]) {
  const byId = new Map(rows.map((o) => [o.id, o]));
  const aboard = new Map<number, Amount>();
  for (const [driverId, ids] of collected) {
    const sum: Amount = { weightGrams: 0, volumeCm3: 0, parcels: 0 };
    for (const o of ids.flatMap((id) => byId.get(id) ?? [])) {
      sum.weightGrams += o.weightGrams;
      sum.volumeCm3 += o.volumeCm3;
      sum.parcels += o.parcels;
    }
    aboard.set(driverId, sum);
  }
  return aboard;
}

const less = (cap: number | null, used: number): number | null => (cap === null ? null : Math.max(0, cap - used));

export function buildProblem(input: ProblemInput): ProblemWithoutMatrix {
  const locations: LngLat[] = [];
  const index = new Map<string, number>();
  const place = (p: Point): number => {
    const key = `${p.lng},${p.lat}`;
    let i = index.get(key);
    if (i === undefined) {
      i = locations.push([p.lng, p.lat]) - 1;
      index.set(key, i);
    }
    return i;
  };
  const { options, originAt, date, timeZone } = input;
  const nowSeconds = input.now ? Math.max(0, secondsFrom(originAt, input.now)) : null;
  /** Seconds from the origin to `hhmm` on the route date plus `days`, on the business's wall clock. */
  const clock = (hhmm: string, days = 0) => secondsFrom(originAt, wallClockAt(date, hhmm, timeZone, days));
  const pinned = new Set(input.carrying.values());

  const vehicles: SolveVehicle[] = input.drivers.flatMap((d) => {
    const ends = endsOf(d, input.businessDepot, input.now ? originAt : null);
    if (!ends) return [];
    const overnight = d.shift !== null && d.shift.end <= d.shift.start;
    // The longest day counts from the shift's start; without a shift, from when work can start: the day's
    // beginning, or when re-optimising, now.
    let from = d.shift ? clock(d.shift.start) : (nowSeconds ?? 0);
    let to = d.shift ? clock(d.shift.end, overnight ? 1 : 0) : clock('00:00', 1);
    const caps = [d.maxRouteMinutes, options.max_route_minutes].filter((m): m is number => m !== null);
    const maxMinutes = caps.length > 0 ? Math.min(...caps) : null;
    if (maxMinutes !== null) to = Math.min(to, from + maxMinutes * 60);
    if (nowSeconds !== null) from = Math.max(from, nowSeconds);
    if (to < from) to = from;
    const breaks = d.breaks.flatMap((b, i) => {
      const seconds = b.minutes * 60;
      // On an overnight shift, a break earlier in the day than the shift's start is taken after midnight.
      const day = overnight && b.start < d.shift!.start ? 1 : 0;
      const opens = Math.max(clock(b.start, day), from);
      const closes = Math.min(clock(b.end, b.end <= b.start ? day + 1 : day) - seconds, to - seconds);
      return closes >= opens ? [{ id: i + 1, windows: [[opens, closes] as Window], seconds }] : [];
    });
    const aboard = input.aboard.get(d.driverId) ?? { weightGrams: 0, volumeCm3: 0, parcels: 0 };
    const grams = d.capacity.weightKg === null ? null : Math.round(d.capacity.weightKg * 1000);
    const cm3 = d.capacity.volumeL === null ? null : Math.round(d.capacity.volumeL * 1000);
    return [
      {
        driverId: d.driverId,
        start: place(ends.start),
        end: ends.end ? place(ends.end) : null,
        capacity: {
          weightGrams: less(grams, aboard.weightGrams),
          volumeCm3: less(cm3, aboard.volumeCm3),
          parcels: less(d.capacity.parcels, aboard.parcels),
        },
        skills: pinned.has(d.driverId) ? [...d.skills, pinSkill(d.driverId)] : d.skills,
        shift: [from, to],
        breaks,
        maxTravelSeconds: maxMinutes === null ? null : maxMinutes * 60,
      },
    ];
  });

  const jobs: SolveJob[] = [];
  const shipments: SolveShipment[] = [];
  for (const o of input.orders) {
    const at = pointOf(o.address);
    if (!at) continue;
    const serviceSeconds = (o.serviceMinutes ?? options.default_service_minutes) * 60;
    const windows = windowOf(o, originAt);
    const amount = { weightGrams: o.weightGrams, volumeCm3: o.volumeCm3, parcels: o.parcels };
    const delivery = { location: place(at), serviceSeconds, windows };
    const pickupAt = o.type === 'P2P' ? pointOf(o.pickup?.address) : null;
    const carrier = input.carrying.get(o.id);
    if (carrier !== undefined) {
      jobs.push({
        orderId: o.id,
        kind: 'delivery',
        ...delivery,
        amount,
        skills: [...o.requiredSkills, pinSkill(carrier)],
      });
    } else if (o.type === 'P2P' && pickupAt) {
      shipments.push({
        orderId: o.id,
        pickup: { location: place(pickupAt), serviceSeconds, windows: [] },
        delivery,
        amount,
        skills: o.requiredSkills,
      });
    } else {
      jobs.push({
        orderId: o.id,
        kind: o.type === 'P' ? 'pickup' : 'delivery',
        ...delivery,
        amount,
        skills: o.requiredSkills,
      });
    }
  }

  return {
    originAt: originAt.toISOString(),
    locations,
    vehicles,
    jobs,
    shipments,
    objective: options.objective,
    balance: options.balance,
    timeLimitSeconds: options.time_limit_seconds,
  };
}

/** The order's time window in seconds from the origin; a window over already is [0, 0], which no driver meets. */
function windowOf(o: PlanningOrderRow, origin: Date): Window[] {
  if (!o.windowStart || !o.windowEnd) return [];
  const from = Math.max(0, secondsFrom(origin, new Date(o.windowStart)));
  const to = secondsFrom(origin, new Date(o.windowEnd));
  return to >= from ? [[from, to]] : [[0, 0]];
}
