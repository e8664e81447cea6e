/**
 * What the route solver is given and what it answers (docs/routes.md, The solver), in the service's own terms: the
 * routes module builds a problem from orders and drivers, the solver (VROOM in a child process, run.ts) answers a
 * plan. Neither crosses a workflow's history: both are kept in route_build.
 *
 * Times are whole seconds from `originAt` (the route date's midnight in the business's timezone); places are
 * indexes into `locations`, whose travel durations (seconds) and distances (metres) are `matrix`.
 */

/** A place: longitude, latitude. */
export type LngLat = readonly [lng: number, lat: number];

/** From, to: seconds from the problem's origin. */
export type Window = readonly [from: number, to: number];

/** What an order weighs on a vehicle; a vehicle's capacity has null for "no limit". */
export interface Amount {
  weightGrams: number;
  volumeCm3: number;
  parcels: number;
}

export interface SolveVehicle {
  driverId: number;
  /** Index into locations; null: starts at its first stop. */
  start: number | null;
  /** Index into locations; null: ends at its last stop. */
  end: number | null;
  capacity: { weightGrams: number | null; volumeCm3: number | null; parcels: number | null };
  skills: readonly string[];
  /** When it may work: its shift, cut to the route's maximum duration. */
  shift: Window;
  breaks: readonly { id: number; windows: readonly Window[]; seconds: number }[];
  /** The most time it may spend driving; null: no limit beyond the shift. */
  maxTravelSeconds: number | null;
}

/** One stop: where, how long, when. */
export interface SolveStop {
  location: number;
  serviceSeconds: number;
  /** When the service may begin; empty: any time. */
  windows: readonly Window[];
}

/** A D order (delivery, loaded at the start) or a P order (pickup, carried to the end). */
export interface SolveJob extends SolveStop {
  orderId: number;
  kind: 'delivery' | 'pickup';
  amount: Amount;
  skills: readonly string[];
}

/** A P2P order: its pickup before its delivery, on the same route. */
export interface SolveShipment {
  orderId: number;
  pickup: SolveStop;
  delivery: SolveStop;
  amount: Amount;
  skills: readonly string[];
}

export interface SolveProblem {
  /** ISO time of second 0. */
  originAt: string;
  locations: readonly LngLat[];
  /** Travel between locations: durations[i][j] seconds, distances[i][j] metres. */
  matrix: { durations: readonly (readonly number[])[]; distances: readonly (readonly number[])[] };
  vehicles: readonly SolveVehicle[];
  jobs: readonly SolveJob[];
  shipments: readonly SolveShipment[];
  objective: 'duration' | 'vehicles';
  /** No vehicle gets more than the average number of stops plus one fifth. */
  balance: boolean;
  timeLimitSeconds: number;
}

export interface PlanStep {
  type: 'start' | 'pickup' | 'delivery' | 'break' | 'end';
  /** The order of a pickup or delivery. */
  orderId?: number;
  breakId?: number;
  location: number | null;
  /** When the vehicle arrives, and when it leaves (service done, waiting included). */
  arrival: number;
  departure: number;
}

export interface PlanRoute {
  driverId: number;
  steps: readonly PlanStep[];
  /** Driving time, seconds. */
  travelSeconds: number;
  serviceSeconds: number;
  waitingSeconds: number;
  distanceMeters: number;
}

export interface SolvePlan {
  /** The engine and its version, e.g. "vroom 1.15.2". */
  engine: string;
  /** Wall time of the solve. */
  seconds: number;
  /** The solver's objective value: total travel seconds (plus vehicle costs with objective vehicles). */
  cost: number;
  routes: readonly PlanRoute[];
  unassigned: readonly { orderId: number; reason: string }[];
}
