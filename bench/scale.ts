/**
 * `npm run bench:scale`: the service on the engines it is built on, at the size of a real locker network. The
 * Temporal server (built from the Go module proxy, not the CLI's dev server) runs on the embedded PostgreSQL, in
 * databases of its own beside the service's. It prints:
 *   1. a bare `workflow.start` rate on that server (the baseline), then the HTTP store rate while filling up to
 *      SCALE_OPEN (100,000) open device-order workflows, each waiting on its due timer, per tenth of the fill, and
 *      the sustained rate (a tenth ends when the worker has run its first workflow tasks);
 *   2. bytes per open workflow in PostgreSQL (Temporal's two databases, and the service's own);
 *   3. overdue lateness when SCALE_DUE (10,000) of them fall due within one minute, against the same number of bare
 *      workflows that only sleep until their due time (bench/workflows/bareTimer.ts), due with the same spread on the
 *      same server with the same open workflows, served by a worker of their own; and where the device orders' time
 *      went, from a sample of their histories (the server's timer and dispatch, then the service's own task).
 * The API runs in the bench's process, the worker in its own (`npm run worker`), as docker-compose runs them.
 * Not part of `npm test` (it takes about 40 minutes on 2 cores); the figures are in docs/performance.md.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { bootstrap } from '../src/main/bootstrap.ts';
import { seedDemo } from '../src/main/seed.ts';
import { compartmentsOf, insertDevice } from '../src/modules/lockers/index.ts';
import { ENTITIES } from '../src/modules/index.ts';
import { loadConfig } from '../src/platform/config.ts';
import { createOrm, migrate } from '../src/platform/db/orm.ts';
import { makePostgresTempDir, startEmbeddedPostgres } from '../src/launchers/postgres.ts';
import { freePort } from '../src/launchers/startup.ts';
import {
  postgresAccess,
  startTemporalOnPostgres,
  TEMPORAL_POSTGRES_SETTINGS,
} from '../src/launchers/temporalPostgresServer.ts';
import { createLogger } from '../src/platform/logger.ts';
import { UNREACHED_RATE_LIMITS } from '../scripts/stack.ts';
import { makeBusiness, PASSWORD } from '../test/helpers/factories.ts';
import { spawnRole, stopChild } from '../test/helpers/roles.ts';
import { fmt, load, percentile } from './load.ts';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, Worker } from '@temporalio/worker';
import { DEVICE_ORDER_QUEUE, deviceOrderWorkflowId } from '../src/modules/device-orders/contract.ts';
import type { Em } from '../src/platform/db/orm.ts';
import type { bareTimerWorkflow } from './workflows/bareTimer.ts';

const OPEN = Number(process.env.SCALE_OPEN ?? 100_000);
const DUE = Math.min(OPEN, Number(process.env.SCALE_DUE ?? 10_000));
const CONCURRENCY = Number(process.env.SCALE_CONCURRENCY ?? 32);
const BARE_STARTS = 2_000;
const COMPARTMENTS = 100;
/** temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW */
const TASK_QUEUE_TYPE_WORKFLOW = 1;

const log = createLogger(process.env.SCALE_LOG_LEVEL ?? 'warn');
const line = (label: string, ours: string, base: string, ratio: number) =>
  console.log(`${label.padEnd(40)} ${ours.padEnd(16)} baseline ${base.padEnd(28)} ratio ${ratio.toFixed(2)}`);
const dir = makePostgresTempDir('tms-scale-');
const pgServer = await startEmbeddedPostgres(
  path.join(dir, 'pg'),
  await freePort(),
  log,
  false,
  TEMPORAL_POSTGRES_SETTINGS,
);
const access = postgresAccess(pgServer.url);
const admin = new pg.Client({ ...access, database: 'postgres' });
await admin.connect();
const bytesOf = async (db: string) =>
  Number((await admin.query<{ n: string }>('select pg_database_size($1) as n', [db])).rows[0]!.n);

let stopTemporal: (() => Promise<void>) | undefined;
const workers = new Set<ChildProcess>();
// A bench stopped half-way (Ctrl-C) takes its worker along.
process.once('exit', () => {
  for (const w of workers) w.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
try {
  const started = performance.now();
  const temporal = await startTemporalOnPostgres(
    { pg: access, dir: path.join(dir, 'temporal'), namespace: 'default' },
    log,
  );
  stopTemporal = temporal.stop;
  console.log(
    `machine: ${os.cpus().length} cores, Node ${process.version}; Temporal server on PostgreSQL (ready in ${fmt((performance.now() - started) / 1000)} s)`,
  );

  const orm = await createOrm(pgServer.url, ENTITIES);
  await migrate(orm);
  await seedDemo(orm.em.fork());
  await orm.close();
  const shared = {
    DATABASE_URL: pgServer.url,
    TEMPORAL_ADDRESS: temporal.address,
    METRICS_PORT: '0',
    SECRETS_KEY: randomBytes(32).toString('base64'),
  };
  const config = loadConfig({ ...UNREACHED_RATE_LIMITS, ...shared, LOG_LEVEL: 'silent' });
  // The API in this process, the worker in its own (`npm run worker`), as docker-compose runs them: the API's
  // requests would otherwise starve the worker's workflow tasks on the same event loop.
  const app = await bootstrap(config, log, { port: 0, worker: false });
  await spawnRole('worker', { ...shared, LOG_LEVEL: 'info' }, workers);
  try {
    const em = app.orm.em.fork();
    const b = await makeBusiness(em);
    // A locker network: lockers of 100 compartments, as many as the open orders need.
    const devices = Math.ceil(OPEN / COMPARTMENTS);
    const grids = Array.from({ length: COMPARTMENTS }, (_, i) => `C${i}`);
    for (let d = 0; d < devices; d++)
      await insertDevice(em, {
        businessId: b.business.id,
        code: `SCALE-${b.tag}-${d}`,
        name: `Scale ${d}`,
        compartments: compartmentsOf(grids),
      });
    const target = (i: number) => ({
      device_id: `SCALE-${b.tag}-${i % devices}`,
      grid_code: grids[Math.floor(i / devices)],
    });
    const login = await fetch(`${app.url}/api/v1/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: b.users.admin.email, password: PASSWORD }),
    });
    const headers = {
      authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}`,
      'content-type': 'application/json',
    };
    /** Waits until no workflow task waits on the worker's task queue; answers how long that took and how many waited. */
    const drain = async (): Promise<{ seconds: number; backlog: number }> => {
      const started = Date.now();
      let first: number | undefined;
      for (;;) {
        const { stats } = await app.temporal.workflowService.describeTaskQueue({
          namespace: config.temporalNamespace,
          taskQueue: { name: DEVICE_ORDER_QUEUE },
          taskQueueType: TASK_QUEUE_TYPE_WORKFLOW,
          reportStats: true,
        });
        const waiting = Number(stats?.approximateBacklogCount ?? 0);
        first ??= waiting;
        if (waiting === 0) return { seconds: (Date.now() - started) / 1000, backlog: first };
        await new Promise((r) => setTimeout(r, 2_000));
      }
    };
    const store = async (i: number, dueAt: string): Promise<number> => {
      const res = await fetch(`${app.url}/api/v1/device-orders`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ kind: 'delivery', ...target(i), reference_number: `S${i}`, due_at: dueAt }),
      });
      if (res.status !== 201) throw new Error(`store ${i}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { device_order: { id: number } }).device_order.id;
    };

    // 1. The baseline: bare starts of an empty workflow nobody runs, on the same server, at the same concurrency.
    const bare = await load(BARE_STARTS, CONCURRENCY, async (i) => {
      await app.temporal.workflow.start('scaleEmptyWorkflow', {
        workflowId: `scale-bare-${i}`,
        taskQueue: 'scale-no-worker',
        args: [],
      });
    });
    const before = {
      temporal: (await bytesOf('temporal')) + (await bytesOf('temporal_visibility')),
      app: await bytesOf('tms'),
    };
    const far = new Date(Date.now() + 30 * 24 * 3600_000).toISOString();
    const fill = OPEN - DUE;
    const tenth = Math.max(1, Math.ceil(fill / 10));
    // Each store's first workflow task (handlers, search attributes, the due timer) runs on the worker, which on this
    // machine shares the cores with the server, PostgreSQL and the API, and falls behind the stores (first runs: 13 to
    // 20 tasks/s while 100 stores/s came, 95/s once they stopped). Each tenth therefore ends when its first tasks
    // have run: the sustained rate is what the machine holds, stores and timers set.
    const sustained: number[] = [];
    for (let from = 0; from < fill; from += tenth) {
      const n = Math.min(tenth, fill - from);
      const run = await load(n, CONCURRENCY, async (i) => {
        await store(from + i, far);
      });
      const drained = await drain();
      sustained.push(n / (n / run.perSecond + drained.seconds));
      line(
        `store rate, open ${from + n} (per s)`,
        fmt(run.perSecond),
        `workflow.start ${fmt(bare.perSecond)}`,
        run.perSecond / bare.perSecond,
      );
      line(
        '  sustained, first tasks run (per s)',
        fmt(sustained.at(-1)!),
        `workflow.start ${fmt(bare.perSecond)}`,
        sustained.at(-1)! / bare.perSecond,
      );
      const [p50, bareP50] = [percentile(run.latencies, 50), percentile(bare.latencies, 50)];
      line('  store p50 (ms)', fmt(p50), `workflow.start ${fmt(bareP50)}`, p50 / bareP50);
    }

    // 3. The last DUE fall due within one minute that starts once they are stored and their first tasks have run.
    const rate = sustained.length ? Math.min(...sustained.slice(-3)) : bare.perSecond / 4;
    const dueStart = Date.now() + Math.ceil((DUE / rate) * 1.5 * 1000) + 60_000;
    const ids: number[] = [];
    const dueRun = await load(DUE, CONCURRENCY, async (i) => {
      ids.push(await store(fill + i, new Date(dueStart + (i * 60_000) / DUE).toISOString()));
    });
    line(
      `store rate, open ${OPEN} (per s)`,
      fmt(dueRun.perSecond),
      `workflow.start ${fmt(bare.perSecond)}`,
      dueRun.perSecond / bare.perSecond,
    );
    await drain();
    if (Date.now() > dueStart)
      console.log(
        'warning: storing the due ones and their first tasks took longer than planned: their lateness includes it',
      );

    // 2. Bytes per open workflow, measured while all of them are open (the due ones wait on their timers still).
    const after = {
      temporal: (await bytesOf('temporal')) + (await bytesOf('temporal_visibility')),
      app: await bytesOf('tms'),
    };
    const { count: open } = await app.temporal.workflow.count(
      'WorkflowType = "deviceOrderWorkflow" AND ExecutionStatus = "Running"',
    );
    console.log(`open device-order workflows (visibility): ${open}`);
    console.log(
      `bytes per open workflow: Temporal ${fmt((after.temporal - before.temporal) / OPEN)} (its databases ${fmt(before.temporal / 1e6)} -> ${fmt(after.temporal / 1e6)} MB); ` +
        `the service ${fmt((after.app - before.app) / OPEN)} per device order`,
    );

    const wait = dueStart + 60_000 - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const idList = ids.join(',');
    for (let polls = 0; ; polls++) {
      const [row] = await em.execute<{ n: number }[]>(
        `select count(*)::int as n from device_order where id in (${idList}) and status = 'overdue'`,
      );
      if (row!.n === ids.length) break;
      if (polls % 20 === 0) console.log(`  overdue so far: ${row!.n} of ${ids.length}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const lateness = (
      await em.execute<{ ms: number }[]>(
        `select extract(epoch from (overdue_at - due_at)) * 1000 as ms from device_order where id in (${idList})`,
      )
    ).map((r) => Number(r.ms));
    // A sample spread over the minute: the late ones are those that fell due once a queue had built up.
    const split = await latenessSplit(
      app.temporal,
      em,
      ids.filter((_, i) => i % Math.max(1, Math.floor(ids.length / 200)) === 0),
    );

    // The baseline: as many bare timers, due with the same spread, on the same server while the same workflows stay
    // open; their worker is in this process (the API here is idle by now), the service's in its own.
    const bareLateness = await bareTimers(app.temporal, temporal.address, config.temporalNamespace, bare.perSecond);
    for (const [name, p] of [
      ['p50', 50],
      ['p99', 99],
      ['max', 100],
    ] as const) {
      line(
        `overdue lateness ${name} (ms, ${DUE} in 1 min)`,
        fmt(percentile(lateness, p)),
        `bare timer ${fmt(percentile(bareLateness, p))}`,
        percentile(lateness, p) / Math.max(1, percentile(bareLateness, p)),
      );
    }
    for (const p of [50, 99] as const)
      console.log(
        `where a device order's lateness went (p${p} of ${split.sample} spread over the minute): the server's timer ` +
          `${fmt(percentile(split.timer, p))} ms, the fired task waiting for the worker ${fmt(percentile(split.dispatch, p))} ms, ` +
          `the service's task to the transition's commit (local activity: row, ledger, outbox event) ${fmt(percentile(split.service, p))} ms`,
      );
  } finally {
    await app.close();
    for (const w of workers) await stopChild(w, 'SIGTERM');
  }
} finally {
  await stopTemporal?.();
  await admin.end();
  await pgServer.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * Runs DUE bare timer workflows due within one minute, once all are started, and answers how late each woke
 * (bench/workflows/bareTimer.ts).
 */
async function bareTimers(
  client: Client,
  address: string,
  namespace: string,
  startsPerSecond: number,
): Promise<number[]> {
  const taskQueue = 'scale-bare-timer';
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection,
    namespace,
    taskQueue,
    workflowBundle: await bundleWorkflowCode({
      workflowsPath: path.resolve(import.meta.dirname, 'workflows/bareTimer.ts'),
      logger: { trace() {}, debug() {}, info() {}, warn() {}, error: (m) => log.error(m), log() {} },
    }),
  });
  const running = worker.run();
  try {
    const dueStart = Date.now() + Math.ceil((DUE / startsPerSecond) * 2 * 1000) + 30_000;
    const handles: WorkflowHandle<typeof bareTimerWorkflow>[] = [];
    await load(DUE, CONCURRENCY, async (i) => {
      handles.push(
        await client.workflow.start<typeof bareTimerWorkflow>('bareTimerWorkflow', {
          workflowId: `scale-bare-timer-${i}-${dueStart}`,
          taskQueue,
          args: [dueStart + (i * 60_000) / DUE],
        }),
      );
    });
    if (Date.now() > dueStart) console.log('warning: starting the bare timers took longer than planned');
    // Waited for by count, not by a long poll each (the namespace caps concurrent polls), then read in bounded batches.
    await new Promise((r) => setTimeout(r, Math.max(0, dueStart + 60_000 - Date.now())));
    while (
      (await client.workflow.count(`WorkflowType = "bareTimerWorkflow" AND ExecutionStatus = "Running"`)).count > 0
    )
      await new Promise((r) => setTimeout(r, 1_000));
    const late: number[] = [];
    await load(handles.length, CONCURRENCY, async (i) => {
      late.push(await handles[i]!.result());
    });
    return late;
  } finally {
    worker.shutdown();
    await running;
    await connection.close();
  }
}

/**
 * Where a device order's lateness went, from its history: the due timer fired (its event's time after the due
 * time: the server's timer), the task it brought started on the worker (dispatch), and the transition's local
 * activity wrote overdue_at (the service's own task).
 */
async function latenessSplit(
  client: Client,
  em: Em,
  ids: number[],
): Promise<{ sample: number; timer: number[]; dispatch: number[]; service: number[] }> {
  const rows = await em.execute<{ id: number; due: string; overdue: string }[]>(
    `select id, extract(epoch from due_at) * 1000 as due, extract(epoch from overdue_at) * 1000 as overdue
     from device_order where id in (${ids.join(',')})`,
  );
  const times = new Map(rows.map((r) => [r.id, { due: Number(r.due), overdue: Number(r.overdue) }]));
  const parts = { timer: [] as number[], dispatch: [] as number[], service: [] as number[] };
  const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
    Number(t?.seconds ?? 0) * 1000 + Math.floor((t?.nanos ?? 0) / 1e6);
  for (const id of ids) {
    const history = await client.workflow.getHandle(deviceOrderWorkflowId(id)).fetchHistory();
    const events = history.events ?? [];
    const fired = events.findIndex((e) => e.timerFiredEventAttributes);
    const started = events.findIndex((e, i) => i > fired && e.workflowTaskStartedEventAttributes);
    const t = times.get(id);
    if (fired < 0 || started < 0 || !t) continue;
    const firedAt = ms(events[fired]!.eventTime);
    const startedAt = ms(events[started]!.eventTime);
    parts.timer.push(firedAt - t.due);
    parts.dispatch.push(startedAt - firedAt);
    parts.service.push(t.overdue - startedAt);
  }
  return { sample: parts.timer.length, ...parts };
}
