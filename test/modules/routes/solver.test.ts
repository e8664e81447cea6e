// The route solver (docs/routes.md, The solver) through its child process: Solomon's RC208 comes back with every
// customer served once, within its window and the capacity (checked in the instance's own units and on the plan's
// own times); a small problem keeps a P2P order's pickup before its delivery on one route, gives a skilled order to
// the skilled driver only, places the break in its window and says why the rest is unassigned; an abort kills the
// child and rejects.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { planViolations, readInstance, tenths, type VrpInstance } from '../../../bench/vrplib.ts';
import type { SolvePlan, SolveProblem, SolveVehicle } from '../../../src/modules/routes/solver/problem.ts';
import { travelMatrix } from '../../../src/modules/routes/solver/matrix.ts';
import { runSolver } from '../../../src/modules/routes/solver/run.ts';

const SOLOMON = path.join(import.meta.dirname, '..', '..', '..', 'bench', 'data', 'solomon');
const MINUTE = 60;

const amount = (weightGrams: number) => ({ weightGrams, volumeCm3: 0, parcels: 1 });

/** The instance in seconds (one unit of distance and time: a minute), its customers as delivery orders 1..n. */
function solomonProblem(inst: VrpInstance): SolveProblem {
  const n = inst.coords.length;
  const index = [...Array(n).keys()];
  const depot = inst.windows[0]!;
  return {
    originAt: '2026-11-27T00:00:00Z',
    locations: inst.coords,
    matrix: {
      durations: index.map((a) => index.map((b) => (tenths(inst, a, b) * MINUTE) / 10)),
      distances: index.map((a) => index.map((b) => tenths(inst, a, b))),
    },
    vehicles: Array.from({ length: inst.vehicles }, (_, v) => ({
      driverId: v + 1,
      start: 0,
      end: 0,
      capacity: { weightGrams: inst.capacity, volumeCm3: null, parcels: null },
      skills: [],
      shift: [depot[0] * MINUTE, depot[1] * MINUTE],
      breaks: [],
      maxTravelSeconds: null,
    })),
    jobs: index.slice(1).map((c) => ({
      orderId: c,
      kind: 'delivery',
      location: c,
      serviceSeconds: inst.service[c]! * MINUTE,
      windows: [[inst.windows[c]![0] * MINUTE, inst.windows[c]![1] * MINUTE]],
      amount: amount(inst.demand[c]!),
      skills: [],
    })),
    shipments: [],
    objective: 'duration',
    balance: false,
    timeLimitSeconds: 10,
  };
}

const orders = (plan: SolvePlan, driverId: number) =>
  plan.routes.find((r) => r.driverId === driverId)?.steps.filter((s) => s.orderId !== undefined) ?? [];

describe('the route solver', () => {
  test('RC208: every customer once, within its window and the capacity', async () => {
    const inst = readInstance(fs.readFileSync(path.join(SOLOMON, 'RC208.vrp'), 'utf8'));
    const problem = solomonProblem(inst);
    const beats: number[] = [];
    const plan = await runSolver(problem, { heartbeat: (s) => beats.push(s) });
    assert.match(plan.engine, /^vroom \d/);
    assert.deepEqual(plan.unassigned, []);
    const routes = plan.routes.map((r) => r.steps.filter((s) => s.type === 'delivery').map((s) => s.orderId!));
    assert.deepEqual(planViolations(inst, routes), []);
    for (const route of plan.routes) {
      for (const step of route.steps.filter((s) => s.type === 'delivery')) {
        const job = problem.jobs[step.orderId! - 1]!;
        const begin = step.departure - job.serviceSeconds;
        assert.ok(begin >= step.arrival, `order ${step.orderId} begins before it arrives`);
        assert.ok(
          begin >= job.windows[0]![0] && begin <= job.windows[0]![1],
          `order ${step.orderId} outside its window`,
        );
      }
      assert.equal(route.steps[0]!.type, 'start');
      assert.equal(route.steps.at(-1)!.type, 'end');
      const last = route.steps.at(-1)!;
      assert.ok(last.arrival <= problem.vehicles[0]!.shift[1], `driver ${route.driverId} back after the shift`);
      const load = route.steps.reduce((sum, s) => sum + (s.orderId ? inst.demand[s.orderId]! : 0), 0);
      assert.ok(load <= inst.capacity);
      const metres = route.steps
        .slice(1)
        .reduce((sum, s, i) => sum + tenths(inst, route.steps[i]!.location!, s.location!), 0);
      assert.equal(route.distanceMeters, metres);
    }
  });

  test('a shipment, a skill, a break, and the reasons of what is left', async () => {
    // Four places on a square 1 km a side, 100 s apart (141 s across); a day from 08:00 to 18:00.
    const d = [
      [0, 100, 100, 141],
      [100, 0, 141, 100],
      [100, 141, 0, 100],
      [141, 100, 100, 0],
    ];
    const vehicle = (driverId: number, skills: string[], breaks: SolveVehicle['breaks']): SolveVehicle => ({
      driverId,
      start: 0,
      end: 0,
      capacity: { weightGrams: 10_000, volumeCm3: null, parcels: null },
      skills,
      shift: [8 * 3600, 18 * 3600],
      breaks,
      maxTravelSeconds: null,
    });
    const job = (
      orderId: number,
      location: number,
      grams: number,
      skills: string[],
      windows: [number, number][] = [],
    ) => ({
      orderId,
      kind: 'delivery' as const,
      location,
      serviceSeconds: 300,
      windows,
      amount: amount(grams),
      skills,
    });
    const problem: SolveProblem = {
      originAt: '2026-11-27T00:00:00Z',
      locations: [
        [0, 0],
        [0, 0.009],
        [0.009, 0],
        [0.009, 0.009],
      ],
      matrix: { durations: d, distances: d.map((r) => r.map((s) => s * 10)) },
      vehicles: [
        vehicle(7, ['van'], [{ id: 1, windows: [[12 * 3600, 13 * 3600]], seconds: 1800 }]),
        vehicle(8, ['fridge'], []),
      ],
      jobs: [
        job(101, 1, 1000, ['van']),
        job(102, 2, 1000, ['fridge']),
        job(103, 2, 1000, ['forklift']),
        job(104, 3, 50_000, []),
        job(105, 3, 1000, [], [[20 * 3600, 21 * 3600]]),
      ],
      shipments: [
        {
          orderId: 201,
          pickup: { location: 3, serviceSeconds: 60, windows: [] },
          delivery: { location: 1, serviceSeconds: 60, windows: [] },
          amount: amount(500),
          skills: [],
        },
      ],
      objective: 'duration',
      balance: false,
      timeLimitSeconds: 5,
    };
    const plan = await runSolver(problem, {});

    assert.deepEqual(plan.unassigned, [
      { orderId: 103, reason: 'no driver has the required skills' },
      { orderId: 104, reason: 'too heavy for every driver' },
      { orderId: 105, reason: "outside every driver's shift" },
    ]);
    const all = plan.routes.flatMap((r) => r.steps.map((s) => ({ ...s, driverId: r.driverId })));
    assert.equal(all.find((s) => s.orderId === 102)?.driverId, 8, 'the fridge order goes to the driver with a fridge');
    assert.equal(all.find((s) => s.orderId === 101)?.driverId, 7, 'the van order goes to the driver with a van');
    const shipment = all.filter((s) => s.orderId === 201);
    assert.deepEqual(
      shipment.map((s) => s.type),
      ['pickup', 'delivery'],
    );
    assert.equal(shipment[0]!.driverId, shipment[1]!.driverId);
    assert.ok(shipment[0]!.departure <= shipment[1]!.arrival);
    assert.deepEqual(orders(plan, 7).length + orders(plan, 8).length, 4);
    const route7 = plan.routes.find((r) => r.driverId === 7);
    const lunch = route7?.steps.find((s) => s.type === 'break');
    assert.ok(lunch, 'driver 7 has its break');
    assert.equal(lunch.breakId, 1);
    const begin = lunch.departure - 1800;
    assert.ok(begin >= 12 * 3600 && begin <= 13 * 3600, 'the break begins within its window');
  });

  test('an abort kills the solver and rejects', async () => {
    // 400 customers with windows: longer to solve than the wait for its first heartbeat.
    const n = 401;
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const inst: VrpInstance = {
      name: 'random',
      capacity: 200,
      vehicles: 60,
      coords: Array.from({ length: n }, (_, i) => (i === 0 ? [50, 50] : [random() * 100, random() * 100])),
      demand: Array.from({ length: n }, (_, i) => (i === 0 ? 0 : 1 + Math.floor(random() * 30))),
      windows: Array.from({ length: n }, (_, i) => {
        if (i === 0) return [0, 1000];
        const from = Math.floor(random() * 800);
        return [from, from + 60];
      }),
      service: Array.from({ length: n }, (_, i) => (i === 0 ? 0 : 10)),
    };
    const controller = new AbortController();
    let beat!: () => void;
    const running = new Promise<void>((resolve) => (beat = resolve));
    const solving = runSolver(
      { ...solomonProblem(inst), timeLimitSeconds: 120 },
      { signal: controller.signal, heartbeat: beat },
    );
    await running;
    const [pid] = solverChildren(process.pid);
    assert.ok(pid, 'the solver runs in a child process');
    controller.abort();
    await assert.rejects(solving, { name: 'AbortError' });
    assert.equal(alive(pid!), false, 'the solver process is gone');
  });
});

describe('the travel matrix', () => {
  test('great-circle at the speed, in whole metres and seconds', async () => {
    // 0.001 degrees of latitude: 111 m; at 6.672 km/h, a minute.
    const m = await travelMatrix(
      [
        [0, 0],
        [0, 0.001],
        [0.003, 0.004],
      ],
      { speedKmh: 6.672 },
    );
    assert.equal(m.source, 'great_circle');
    assert.deepEqual(m.distances[0], [0, 111, 556]);
    assert.deepEqual(m.durations[0], [0, 60, 300]);
    assert.deepEqual(m.distances[2]![0], 556);
  });

  test("OSRM's table in blocks, and great-circle when the router fails", async () => {
    // A router whose every leg is 7 s and 70 m, except one pair it cannot route.
    const asked: string[] = [];
    const router = http.createServer((req, res) => {
      const url = new URL(req.url!, 'http://router');
      asked.push(url.pathname.split('/').slice(0, 4).join('/'));
      if (url.pathname.includes('broken')) return void res.writeHead(500).end();
      const sources = url.searchParams.get('sources')!.split(';');
      const destinations = url.searchParams.get('destinations')!.split(';');
      const row = (v: number) => destinations.map((_, j) => (j === 1 && sources.length === 100 ? null : v));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ code: 'Ok', durations: sources.map(() => row(7)), distances: sources.map(() => row(70)) }),
      );
    });
    await new Promise<void>((r) => router.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(router.address() as AddressInfo).port}`;
    try {
      const places = Array.from({ length: 150 }, (_, i): [number, number] => [i * 0.001, 0]);
      const road = await travelMatrix(places, { speedKmh: 30, routerUrl: base, allowPrivate: true });
      assert.equal(road.source, 'osrm');
      assert.equal(asked.length, 4, 'four blocks of at most 100 x 100');
      assert.equal(road.durations[120]![3], 7);
      assert.equal(road.distances[149]![149], 70);
      assert.equal(road.distances[0]![1], 111, 'a pair the router cannot route keeps its great-circle metres');

      const refused = await travelMatrix(places.slice(0, 3), { speedKmh: 30, routerUrl: base });
      assert.equal(refused.source, 'great_circle');
      assert.match(refused.routerError!, /private address/);
      const failed = await travelMatrix(places.slice(0, 3), {
        speedKmh: 30,
        routerUrl: `${base}/broken`,
        allowPrivate: true,
      });
      assert.deepEqual([failed.source, failed.routerError, failed.distances[0]![1]], ['great_circle', 'HTTP 500', 111]);
    } finally {
      router.close();
    }
  });

  test('a router name resolving to a private address is refused unless allowed; a slow router hears heartbeats', async () => {
    // This router answers only once the caller has heartbeaten: without heartbeats during the matrix, it times out.
    let beats = 0;
    let asked = 0;
    const waiting: (() => void)[] = [];
    const router = http.createServer((req, res) => {
      asked += 1;
      const url = new URL(req.url!, 'http://router');
      const n = url.searchParams.get('sources')!.split(';').length;
      const answer = () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const rows = Array.from({ length: n }, () => Array.from({ length: n }, () => 9));
        res.end(JSON.stringify({ code: 'Ok', durations: rows, distances: rows }));
      };
      if (beats > 0) answer();
      else waiting.push(answer);
    });
    await new Promise<void>((r) => router.listen(0, r));
    const port = (router.address() as AddressInfo).port;
    // The machine's own name resolves to a loopback or private address (this process's host).
    const named = `http://${os.hostname()}:${port}`;
    assert.ok(!net.isIP(os.hostname()));
    const places: [number, number][] = [
      [0, 0],
      [0, 0.001],
    ];
    const heartbeat = () => {
      beats += 1;
      waiting.splice(0).forEach((answer) => answer());
    };
    try {
      const refused = await travelMatrix(places, { speedKmh: 30, routerUrl: named, heartbeat, timeoutMs: 5_000 });
      assert.deepEqual([refused.source, refused.routerError, asked], ['great_circle', 'refused: a private address', 0]);
      const road = await travelMatrix(places, {
        speedKmh: 30,
        routerUrl: named,
        allowPrivate: true,
        heartbeat,
        timeoutMs: 5_000,
      });
      assert.equal(road.routerError, undefined);
      assert.deepEqual([road.source, road.durations[0]![1]], ['osrm', 9]);
      assert.ok(beats > 0);
    } finally {
      router.closeAllConnections();
      router.close();
    }
  });
});

/** The solve.py processes this process started. */
function solverChildren(parent: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return ppid === parent && fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('solve.py');
      } catch {
        return false;
      }
    })
    .map(Number);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
