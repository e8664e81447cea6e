/**
 * `npm run bench:routes -- <instance.vrp>... [--seconds N] [--objective duration|vehicles] [--url BASE --token T]`:
 * VRPLIB instances with time windows (Solomon's, up to 1,000 customers) through the service's own build-route path
 * over HTTP, against BASE (a client admin's token T) or a throw-away stack, one line each: the plan's distance in
 * the instance's own metric (DIMACS) against the best known (the `.sol` beside the instance, its `Cost N` line), the
 * vehicles used, the seconds from the POST to the build done, and what breaks the instance's windows or capacity.
 *
 * The mapping (docs/routes.md, Building routes): one unit of distance is 0.001 degrees of latitude or longitude near
 * (0, 0), about 111.2 m, driven at 6.672 km/h, so that one unit takes one minute, as the instance's times do. Each
 * customer is a D order of tomorrow at its point with one package of its demand in kilograms, its service time in
 * minutes and its window as times of tomorrow (from midnight UTC: the business's timezone must be UTC); each vehicle
 * is a driver whose capacity is the instance's, depot its depot and shift the depot's window. An instance whose
 * depot closes after minute 1439 (the larger Gehring-Homberger ones) does not fit a day: its time is then scaled,
 * one unit to 1/k minute with k the smallest whole number that fits it, the speed k times as fast, so that
 * distances and their order stay; a service time that is not a whole number of minutes then is rounded up and the
 * shift's ends rounded inwards, so that a plan the service finds keeps every window in the instance's own units.
 *
 * bench/run.ts section 13 calls `routesBench` with Solomon's C101, R101 and RC208 (bench/data/solomon).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bestKnownCost, planCost, planViolations, readInstance, type VrpInstance } from './vrplib.ts';

export const SOLOMON = ['C101', 'R101', 'RC208'].map((n) =>
  path.join(import.meta.dirname, 'data', 'solomon', `${n}.vrp`),
);
/** The speed at which 0.001 degrees (111.2 m) take one minute. */
const SPEED_KMH = 6.672;
const DEGREES_PER_UNIT = 0.001;
const BULK_ROWS = 100;
const MAX_DRIVERS = 200;
const POLL_MS = 200;

export interface RoutesRun {
  name: string;
  customers: number;
  cost: number;
  bestKnown: number | null;
  /** Percent above the best known; null without one. */
  gap: number | null;
  vehicles: number;
  seconds: number;
  /** What breaks the instance's windows, capacity or "every customer once", recomputed in its own units. */
  violations: string[];
  /** Instance units to a minute (timeScale). */
  unitsPerMinute: number;
}

interface Api {
  url: string;
  headers: Record<string, string>;
}

async function call<T>(api: Api, method: string, route: string, body?: unknown): Promise<T> {
  const res = await fetch(`${api.url}/api${route}`, {
    method,
    headers: api.headers,
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

const point = (inst: VrpInstance, node: number) => ({
  lat: inst.coords[node]![1] * DEGREES_PER_UNIT,
  lng: inst.coords[node]![0] * DEGREES_PER_UNIT,
});
const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** How many instance units make a minute: 1, or more for an instance whose depot closes after minute 1439. */
export const timeScale = (inst: VrpInstance): number => Math.max(1, Math.ceil(inst.windows[0]![1] / 1439));

/** The orders (one per customer, in customer order) and the drivers of an instance; answers their ids. */
async function load(api: Api, inst: VrpInstance, date: string): Promise<{ orders: number[]; drivers: number[] }> {
  const k = timeScale(inst);
  const [open, close] = inst.windows[0]!;
  const at = (unit: number) =>
    new Date(Date.parse(`${date}T00:00:00Z`) + Math.round((unit * 60_000) / k)).toISOString();
  const tag = randomBytes(4).toString('hex');
  const rows = inst.coords.slice(1).map((_, i) => {
    const c = i + 1;
    return {
      type: 'D',
      scheduled_date: date,
      order_ref: `${inst.name}-${tag}-${c}`,
      recipient: {
        name: `Customer ${c}`,
        address: { line1: `Customer ${c}`, city: inst.name, postal_code: '00000', country: 'CZ', ...point(inst, c) },
      },
      packages: [inst.demand[c]! > 0 ? { weight_grams: inst.demand[c]! * 1000 } : {}],
      service_minutes: Math.ceil(inst.service[c]! / k),
      time_window: { start: at(inst.windows[c]![0]), end: at(inst.windows[c]![1]) },
    };
  });
  const orders: number[] = [];
  for (let i = 0; i < rows.length; i += BULK_ROWS) {
    const answer = await call<{ failed: number; results: { order_id?: number; errors?: unknown }[] }>(
      api,
      'POST',
      '/v1/client/batchOrderCreate',
      { orders: rows.slice(i, i + BULK_ROWS) },
    );
    if (answer.failed) throw new Error(`orders refused: ${JSON.stringify(answer.results.find((r) => r.errors))}`);
    orders.push(...answer.results.map((r) => r.order_id!));
  }
  const drivers: number[] = [];
  for (let v = 0; v < Math.min(inst.vehicles, MAX_DRIVERS); v++) {
    const { driver } = await call<{ driver: { id: number } }>(api, 'POST', '/v1/drivers', {
      name: `${inst.name} vehicle ${v + 1}`,
      email: `bench-${tag}-${v + 1}@example.com`,
      password: randomBytes(12).toString('hex'),
      capacity: { weight_kg: inst.capacity, volume_l: null, parcels: null },
      shift: { start: hhmm(Math.ceil(open / k)), end: hhmm(Math.floor(close / k)) },
      depot: point(inst, 0),
    });
    drivers.push(driver.id);
  }
  return { orders, drivers };
}

interface BuildRead {
  status: string;
  routes?: { driver_id: number; stops: { order_id: number | null; kind: string; seq: number }[] }[];
  error?: string | null;
}

/** One instance through POST /v3/client/build-route and its reads until done. */
export async function runInstance(
  api: Api,
  file: string,
  opts: { seconds: number; objective: 'duration' | 'vehicles' },
): Promise<RoutesRun> {
  const inst = readInstance(fs.readFileSync(file, 'utf8'));
  const solution = file.replace(/\.vrp$/, '.sol');
  const bestKnown = fs.existsSync(solution) ? bestKnownCost(fs.readFileSync(solution, 'utf8')) : null;
  const date = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const { orders, drivers } = await load(api, inst, date);
  const customerOf = new Map(orders.map((id, i) => [id, i + 1]));

  const started = performance.now();
  const build = await call<{ id: number }>(api, 'POST', '/v3/client/build-route', {
    date,
    order_ids: orders,
    driver_ids: drivers,
    options: {
      time_limit_seconds: opts.seconds,
      average_speed_kmh: SPEED_KMH * timeScale(inst),
      objective: opts.objective,
    },
  });
  let read: BuildRead;
  for (;;) {
    read = await call<BuildRead>(api, 'GET', `/v3/client/build-route/${build.id}`);
    if (read.status === 'done') break;
    if (['failed', 'cancelled', 'nothing_to_plan'].includes(read.status))
      throw new Error(`${inst.name}: the build ended ${read.status} ${read.error ?? ''}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const seconds = (performance.now() - started) / 1000;

  const routes = (read.routes ?? [])
    .map((r) =>
      [...r.stops]
        .sort((a, b) => a.seq - b.seq)
        .filter((s) => s.kind === 'delivery')
        .map((s) => customerOf.get(s.order_id!) ?? 0),
    )
    .filter((r) => r.length > 0);
  const cost = planCost(inst, routes);
  return {
    name: inst.name,
    customers: inst.coords.length - 1,
    cost,
    bestKnown,
    gap: bestKnown ? (100 * (cost - bestKnown)) / bestKnown : null,
    vehicles: routes.length,
    seconds,
    violations: planViolations(inst, routes),
    unitsPerMinute: timeScale(inst),
  };
}

/** One line: the instance, its distance against the best known, vehicles, seconds, violations. */
export function routesLine(r: RoutesRun): string {
  const best =
    r.bestKnown === null ? 'best known -' : `best known ${r.bestKnown.toFixed(1)} gap ${r.gap!.toFixed(2)} %`;
  const wrong = r.violations.length
    ? `${r.violations.length} violations: ${r.violations.slice(0, 3).join('; ')}`
    : 'feasible';
  const scaled = r.unitsPerMinute > 1 ? `  (time scaled: ${r.unitsPerMinute} units a minute)` : '';
  return `${r.name.padEnd(8)} ${String(r.customers).padStart(4)} customers  distance ${r.cost.toFixed(1).padStart(8)}  ${best}  vehicles ${r.vehicles}  ${r.seconds.toFixed(1)} s  ${wrong}${scaled}`;
}

/** Section 13 of bench/run.ts: the instances one after the other, a line each. */
export async function routesBench(
  api: Api,
  opts: { files?: readonly string[]; seconds?: number; objective?: 'duration' | 'vehicles' } = {},
): Promise<RoutesRun[]> {
  const runs: RoutesRun[] = [];
  for (const file of opts.files ?? SOLOMON)
    runs.push(await runInstance(api, file, { seconds: opts.seconds ?? 10, objective: opts.objective ?? 'duration' }));
  return runs;
}

/** A throw-away stack (scripts/stack.ts), a fresh business and its client admin's token. */
async function throwAwayStack(): Promise<{ api: Api; stop: () => Promise<void> }> {
  const { createLogger } = await import('../src/platform/logger.ts');
  const { loadConfig } = await import('../src/platform/config.ts');
  const { bootstrap } = await import('../src/main/bootstrap.ts');
  const { startStack, UNREACHED_RATE_LIMITS } = await import('../scripts/stack.ts');
  const { makeBusiness, PASSWORD } = await import('../test/helpers/factories.ts');
  const log = createLogger('warn');
  const stack = await startStack(log, 'tms-bench-routes-');
  const config = loadConfig({
    ...UNREACHED_RATE_LIMITS,
    DATABASE_URL: stack.databaseUrl!,
    TEMPORAL_ADDRESS: stack.temporalAddress,
    LOG_LEVEL: 'silent',
    METRICS_PORT: '0',
    SECRETS_KEY: randomBytes(32).toString('base64'),
  });
  config.workflowBundlePath = stack.bundlePath;
  const app = await bootstrap(config, createLogger(process.env.BENCH_LOG_LEVEL ?? 'silent'), { port: 0 });
  const b = await makeBusiness(app.orm.em.fork());
  const login = await fetch(`${app.url}/api/v1/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: b.users.admin.email, password: PASSWORD }),
  });
  const token = ((await login.json()) as { access_token: string }).access_token;
  return {
    api: { url: app.url!, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } },
    stop: async () => {
      await app.close();
      await stack.stop();
    },
  };
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      seconds: { type: 'string', default: '10' },
      objective: { type: 'string', default: 'duration' },
      url: { type: 'string' },
      token: { type: 'string' },
    },
  });
  const files = positionals.length ? positionals.map((p) => path.resolve(p)) : SOLOMON;
  const objective = values.objective === 'vehicles' ? 'vehicles' : 'duration';
  const stack = values.url
    ? {
        api: {
          url: values.url.replace(/\/+$/, '').replace(/\/api$/, ''),
          headers: { authorization: `Bearer ${values.token ?? ''}`, 'content-type': 'application/json' },
        },
        stop: async () => {},
      }
    : await throwAwayStack();
  let failed = false;
  try {
    for (const file of files) {
      try {
        console.log(routesLine(await runInstance(stack.api, file, { seconds: Number(values.seconds), objective })));
      } catch (err) {
        failed = true;
        console.log(`${path.basename(file)}: ${(err as Error).message}`);
      }
    }
  } finally {
    await stack.stop();
  }
  process.exit(failed ? 1 : 0);
}
