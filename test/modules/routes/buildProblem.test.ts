// The solver's problem from orders and drivers (docs/routes.md, Building routes, Re-optimising): a shift's times of
// day on the day a clock changes, a driver without a depot, what a day under way pins to its driver and what it
// leaves aboard, and the real solver keeping a carried parcel with its carrier and counting the load aboard.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PlanningDriver } from '../../../src/modules/drivers/index.ts';
import {
  aboardOf,
  buildProblem,
  dayUnderWay,
  endsOf,
  type ProblemInput,
} from '../../../src/modules/routes/buildProblem.ts';
import { BUILD_OPTIONS, type BuildOptions } from '../../../src/modules/routes/domain.ts';
import type { DayStopRow, PlanningOrderRow } from '../../../src/modules/routes/repo/planning.ts';
import { travelMatrix } from '../../../src/modules/routes/solver/matrix.ts';
import { runSolver } from '../../../src/modules/routes/solver/run.ts';
import { wallClockAt } from '../../../src/modules/routes/wallClock.ts';

const HOUR = 3600;
const DEPOT = { lat: 50.08, lng: 14.42 };
const OPTIONS: BuildOptions = {
  objective: 'duration',
  time_limit_seconds: 1,
  balance: false,
  average_speed_kmh: 30,
  default_service_minutes: 5,
  max_route_minutes: null,
  reoptimize: false,
};
assert.equal(OPTIONS.average_speed_kmh, BUILD_OPTIONS.average_speed_kmh.default);

const driver = (driverId: number, over: Partial<PlanningDriver> = {}): PlanningDriver => ({
  driverId,
  name: `D${driverId}`,
  status: 'active',
  onDuty: true,
  capacity: { weightKg: null, volumeL: null, parcels: null },
  skills: [],
  shift: null,
  breaks: [],
  depot: DEPOT,
  maxRouteMinutes: null,
  position: null,
  ...over,
});

const order = (id: number, over: Partial<PlanningOrderRow> = {}): PlanningOrderRow => ({
  id,
  businessId: 1,
  type: 'D',
  statusId: 1,
  orderRef: null,
  trackingNumber: `T${id}`,
  customerId: null,
  selfDelivery: true,
  carrierProviderId: null,
  brokerId: null,
  routeId: null,
  driverId: null,
  stopStarted: false,
  address: {
    line1: 'x',
    city: 'Praha',
    postal_code: '11000',
    country: 'CZ',
    lat: DEPOT.lat,
    lng: DEPOT.lng + id / 100,
  },
  pickup: null,
  requiredSkills: [],
  serviceMinutes: null,
  windowStart: null,
  windowEnd: null,
  weightGrams: 100,
  volumeCm3: 0,
  parcels: 1,
  ...over,
});

function input(date: string, over: Partial<ProblemInput> = {}): ProblemInput {
  return {
    originAt: wallClockAt(date, '00:00', 'Europe/Prague'),
    date,
    timeZone: 'Europe/Prague',
    businessDepot: null,
    options: OPTIONS,
    orders: [],
    carrying: new Map(),
    aboard: new Map(),
    drivers: [],
    now: null,
    ...over,
  };
}

const stop = (id: number, orderId: number, kind: DayStopRow['kind'], status: DayStopRow['status']): DayStopRow => ({
  id,
  routeId: 1,
  driverId: 1,
  seq: id,
  kind,
  orderId,
  status,
  plannedArrival: null,
  plannedDeparture: null,
  doneAt: null,
  lat: null,
  lng: null,
});

describe('the problem of a build', () => {
  test("shifts and breaks are read on the business's wall clock, on the days its clock changes too", () => {
    const shift = { start: '08:00', end: '17:00' };
    const breaks = [{ start: '12:00', end: '13:30', minutes: 30 }];
    // 29 March 2026, Prague: 02:00 becomes 03:00, a day of 23 hours; 08:00 is 7 hours after midnight.
    const spring = buildProblem(input('2026-03-29', { drivers: [driver(1, { shift, breaks }), driver(2)] }));
    assert.deepEqual(spring.vehicles[0]!.shift, [7 * HOUR, 16 * HOUR]);
    assert.deepEqual(spring.vehicles[0]!.breaks[0]!.windows, [[11 * HOUR, 12 * HOUR]]);
    assert.deepEqual(spring.vehicles[1]!.shift, [0, 23 * HOUR], 'no shift: the whole day, 23 hours');
    // 25 October 2026: 03:00 becomes 02:00, a day of 25 hours; 08:00 is 9 hours after midnight.
    const autumn = buildProblem(input('2026-10-25', { drivers: [driver(1, { shift }), driver(2)] }));
    assert.deepEqual(autumn.vehicles[0]!.shift, [9 * HOUR, 18 * HOUR]);
    assert.deepEqual(autumn.vehicles[1]!.shift, [0, 25 * HOUR]);
    // An ordinary day, and a shift over midnight that ends the next morning.
    const night = buildProblem(
      input('2026-03-30', { drivers: [driver(1, { shift: { start: '22:00', end: '06:00' } })] }),
    );
    assert.deepEqual(night.vehicles[0]!.shift, [22 * HOUR, 30 * HOUR]);
  });

  test("a longest day counts from the shift's start, or without a shift from when a re-optimisation starts", () => {
    const now = wallClockAt('2026-03-30', '21:00', 'Europe/Prague');
    const capped = { maxRouteMinutes: 600 };
    const p = buildProblem(
      input('2026-03-30', {
        now,
        drivers: [driver(1, capped), driver(2, { ...capped, shift: { start: '08:00', end: '22:00' } })],
      }),
    );
    assert.deepEqual(p.vehicles[0]!.shift, [21 * HOUR, 24 * HOUR], 'from now to the end of the day');
    assert.deepEqual(p.vehicles[1]!.shift, [21 * HOUR, 21 * HOUR], 'its ten hours from 08:00 are over');
    const fresh = buildProblem(input('2026-03-30', { drivers: [driver(1, capped)] }));
    assert.deepEqual(fresh.vehicles[0]!.shift, [0, 10 * HOUR], 'a plan of a day ahead: from its beginning');
  });

  test('a driver without a depot starts at its position, and without either is left out', () => {
    const position = { lat: 50.1, lng: 14.5, recordedAt: '2026-03-01T10:00:00Z' };
    const p = buildProblem(
      input('2026-03-30', {
        drivers: [driver(1, { depot: null, position }), driver(2, { depot: null }), driver(3, { depot: null })],
        businessDepot: null,
      }),
    );
    assert.deepEqual(
      p.vehicles.map((v) => v.driverId),
      [1],
      'a vehicle with neither start nor end would fail the whole solve',
    );
    assert.deepEqual(p.locations[p.vehicles[0]!.start!], [14.5, 50.1]);
    assert.equal(p.vehicles[0]!.end, null, 'it ends at its last stop');
    assert.equal(endsOf(driver(2, { depot: null }), null, null), null);
    // The business's depot serves a driver without its own.
    assert.deepEqual(endsOf(driver(2, { depot: null }), DEPOT, null), { start: DEPOT, end: DEPOT });
  });

  test("re-optimising starts from the driver's position only when it is of the route date", () => {
    const since = new Date('2026-03-30T00:00:00+02:00');
    const today = { lat: 50.1, lng: 14.5, recordedAt: '2026-03-30T07:00:00Z' };
    const yesterday = { ...today, recordedAt: '2026-03-29T21:59:00Z' };
    assert.deepEqual(endsOf(driver(1, { position: today }), null, since)!.start, { lat: 50.1, lng: 14.5 });
    assert.deepEqual(endsOf(driver(1, { position: yesterday }), null, since)!.start, DEPOT);
    assert.deepEqual(endsOf(driver(1, { position: today }), null, null)!.start, DEPOT, 'a fresh plan starts home');
  });

  test('a day under way pins what a driver carries to it, and counts what it collected', () => {
    const day = [
      {
        driverId: 1,
        stops: [
          stop(1, 10, 'delivery', 'done'), // D, delivered
          stop(2, 11, 'delivery', 'pending'), // D, in the van since the route is under way
          stop(3, 12, 'pickup', 'done'), // P2P picked up ...
          stop(4, 12, 'delivery', 'pending'), // ... its delivery left
          stop(5, 13, 'pickup', 'done'), // P collected, for the depot
          stop(6, 14, 'pickup', 'pending'), // P still to collect
          stop(7, 15, 'pickup', 'pending'), // P2P not picked up yet
          stop(8, 15, 'delivery', 'pending'),
        ],
      },
      { driverId: 2, stops: [{ ...stop(9, 16, 'delivery', 'pending'), driverId: 2 }] }, // not started: not carried
    ];
    const { pending, carrying, collected } = dayUnderWay(day);
    assert.deepEqual(pending.sort(), [11, 12, 14, 15, 16]);
    assert.deepEqual([...carrying].sort(), [
      [11, 1],
      [12, 1],
    ]);
    assert.deepEqual([...collected], [[1, [13]]]);
    const aboard = aboardOf(collected, [order(13, { type: 'P', weightGrams: 4000, parcels: 3 })]);
    assert.deepEqual(aboard.get(1), { weightGrams: 4000, volumeCm3: 0, parcels: 3 });

    const p = buildProblem(
      input('2026-03-30', {
        orders: [
          order(11),
          order(12, { type: 'P2P', pickup: { name: 'S', address: { ...order(1).address!, lat: 50.2, lng: 14.4 } } }),
          order(16),
        ],
        carrying,
        aboard,
        drivers: [driver(1, { capacity: { weightKg: 10, volumeL: null, parcels: 5 }, skills: ['fridge'] }), driver(2)],
      }),
    );
    const jobs = new Map(p.jobs.map((j) => [j.orderId, j]));
    assert.deepEqual(jobs.get(11)!.skills, ['driver:1']);
    assert.deepEqual([jobs.get(12)!.kind, jobs.get(12)!.skills], ['delivery', ['driver:1']], 'a delivery, pinned');
    assert.deepEqual(jobs.get(16)!.skills, []);
    assert.equal(p.shipments.length, 0);
    assert.deepEqual(p.vehicles[0]!.skills, ['fridge', 'driver:1']);
    assert.deepEqual(p.vehicles[1]!.skills, []);
    assert.deepEqual(p.vehicles[0]!.capacity, { weightGrams: 6000, volumeCm3: null, parcels: 2 });
  });

  test('the solver keeps a carried parcel with its carrier, and the load aboard takes room', async () => {
    // Driver 1 is far away; driver 2 sits on the order. Driver 1 carries it, so driver 1 gets it.
    const far = { lat: 50.3, lng: 14.9 };
    const near = { lat: DEPOT.lat, lng: DEPOT.lng + 0.2 };
    const p = buildProblem(
      input('2026-03-30', {
        orders: [order(20, { address: { ...order(1).address!, ...near } }), order(21, { type: 'P' })],
        carrying: new Map([[20, 1]]),
        // Driver 2 has its van full of collected parcels: the P order's pickup fits nowhere but driver 1.
        aboard: new Map([[2, { weightGrams: 0, volumeCm3: 0, parcels: 4 }]]),
        drivers: [
          driver(1, { depot: far }),
          driver(2, { depot: near, capacity: { weightKg: null, volumeL: null, parcels: 4 } }),
        ],
      }),
    );
    const m = await travelMatrix(p.locations, { speedKmh: 30 });
    const plan = await runSolver({ ...p, matrix: { durations: m.durations, distances: m.distances } });
    const holder = (orderId: number) => plan.routes.find((r) => r.steps.some((s) => s.orderId === orderId))?.driverId;
    assert.deepEqual(plan.unassigned, []);
    assert.equal(holder(20), 1);
    assert.equal(holder(21), 1);
  });
});
