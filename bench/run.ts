/**
 * `npm run bench`: each figure next to a baseline measured in the same run on the same machine.
 *  1. device-order store over HTTP vs a bare client.workflow.start of an empty workflow on a queue no worker polls,
 *     and vs the same start the store makes (its workflow, arguments and search attributes, run by the worker);
 *     the median of alternating rounds, with the CPU each call cost (bench/store.ts)
 *  2. overdue lateness (overdue_at - due_at) with N device orders due within the same minute
 *  3. GET /v1/broker-order-assignments and GET /v1/orders at 64 in flight vs a bare Koa endpoint of the same body and
 *     vs a bare Koa endpoint running the same SQL through pg (bench/reads.ts)
 *  4. webhook deliveries per second, event committed to 2xx received, vs a bare sign-and-POST loop (after a warm-up
 *     of 8 rounds, the median of 3 alternating rounds each); first-attempt latency p50/p99 at half the measured rate
 *  5. webhook retry lateness (attempt 2 received - attempt 1 received - the planned 10 s) p50/p99/max, R device-order
 *     events whose first attempt fails, vs a setTimeout-scheduled sign-and-POST of each at the same instant in this
 *     process; prints how many retries were pending (status retrying) when the first fell due and at the peak
 *  6. OTEP timeline GET, compared as in 3; OTEP ingest, events per second, for a tenant without and with a receiver
 *     in documents of 500 over HTTP, vs one multi-row INSERT of the same rows per 500 (bench/otep.ts)
 *  7. webhook retry lateness of a real backlog: R retries pending at once, their due times spread over one minute,
 *     at a receiver that answers them (two failing attempts each, the third measured; bench/retries.ts)
 *  8. partner locker deliveries: create -> remote open -> doors_opened webhook received p50/p99, vs the webhook
 *     engine's own first attempt (outbox commit -> received) at the same pace; delivery code expiry lateness
 *     p50/p99 with BENCH_LOCKER_EXPIRIES (default 1000) expiring within one minute, vs setTimeout (bench/lockers.ts)
 *  9. package distribution (bench/distribution.ts): warehouse scans per second, each a workflow update of a running
 *     process plus its read model write, vs as many bare signals to the same processes; an EPCIS document of 500
 *     receiving events (500 packages received) vs the native document of the same events, median ms per document
 * 10. MCP tools/call of get_orders (a page of 50) vs GET /api/v1/orders?per_page=50, same token and concurrency, in
 *     alternating rounds (bench/mcp.ts); the aim is at least 0.8 of REST's throughput
 * 11. the standalone app bootstrap GET (public, from the read cache) at 64 in flight vs a bare Koa endpoint serving the
 *     same body, in alternating rounds (bench/apps.ts); the aim is at least 0.7 of the bare endpoint's throughput
 * 12. order intake and the audit trail (bench/orders.ts): bulk_create_orders of 100 vs 100 single creates (8 in flight),
 *     ms per 100 orders in alternating rounds; an async batch of BENCH_BATCH_ROWS (default 5000) rows per second vs one
 *     multi-row INSERT of the same rows; the trail read of one order with a million operation events in the table vs
 *     a bare Koa endpoint running the same SQL, p99 and throughput
 * 13. routes: Solomon C101, R101, RC208 through build-route (bench/routes.ts): each plan's distance (DIMACS) vs the
 *     best known, the vehicles used and the seconds from the POST to the build done; the aim is within 2 % in 10 s
 * 14. dispatch (bench/dispatch.ts): auto-assign offer -> order.assigned webhook received p50/p99, vs the webhook engine's
 *     own first attempt at the same pace; lifecycle events per second from drivers' reports (pickup_started ->
 *     completed, 8 in flight) until the receiver has them all, vs as many bare signals to as many running workflows
 * 15. labels (bench/labels.ts): label purchases per second through submitOrder vs the sandbox adapter's purchase called
 *     directly at the same concurrency; an async uniorder job of 500 label creations, POST to last result, vs the same
 *     purchases in a bare loop at the job's concurrency per carrier; PDF render time per label p50/p95 vs the same
 *     page without its barcode. BENCH_LABEL_PURCHASES (default 300) and BENCH_JOB_ITEMS (default 500) set its sizes
 * 16. wallet (bench/wallet.ts): ledger payments per second on one hot wallet and on 100 wallets, each against a bare
 *     `update ledger_account ... returning` of the same accounts at the same concurrency; BENCH_WALLET_PAYMENTS
 *     (default 2000) sets its size. The storage fee run over 100,000 stored packages (bench/storageFees.ts), in
 *     packages per second against a bare set-based insert of the same fee rows; BENCH_STORAGE_PACKAGES sets its size
 * BENCH_DEVICE_ORDERS (default 1000) sets N, BENCH_WEBHOOKS (default 2000) the section 4 size, BENCH_RETRIES
 * (default 10000) R; R = 10000 takes about 2 minutes on 2 cores in section 5 and 3 in section 7. BENCH_OTEP_BATCHES (default 200) sets how many
 * documents of 500 events section 6 ingests in each of its two runs; 200 take about 30 s. BENCH_READS (default 5000) sets how many GETs
 * each read figure times; BENCH_DISPATCH_OFFERS (default 200) and BENCH_DISPATCH_REPORTS (default 500) set section 14's
 * auto-assigns and reports; BENCH_SECTIONS (say 3,6) runs only the sections it lists.
 * The API runs in the bench's process and the worker (workflows, activities, the outbox relay) in its own, as
 * production runs them. Profiling: BENCH_WORKER_PROF=<dir> writes the worker's CPU profiles there (its threads
 * included); BENCH_PG_STATEMENTS=1 prints the statements PostgreSQL spent most time on. BENCH_TEMPORAL=postgres runs
 * the sections on the Temporal server on PostgreSQL (the one `bench:scale` builds and starts) instead of the dev
 * server on SQLite, to tell which figures the dev server's SQLite bounds.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/platform/config.ts';
import { bootstrap } from '../src/main/bootstrap.ts';
import { UNREACHED_RATE_LIMITS } from '../scripts/stack.ts';
import { createLogger } from '../src/platform/logger.ts';
import { ENTITIES } from '../src/modules/index.ts';
import { createOrm, migrate, type Em } from '../src/platform/db/orm.ts';
import { seedDemo } from '../src/main/seed.ts';
import { startEmbeddedPostgres } from '../src/launchers/postgres.ts';
import { startTemporalDevServer } from '../src/launchers/temporalServer.ts';
import {
  postgresAccess,
  startTemporalOnPostgres,
  TEMPORAL_POSTGRES_SETTINGS,
} from '../src/launchers/temporalPostgresServer.ts';
import { freePort } from '../src/launchers/startup.ts';
import { spawnRole, stopChild } from '../test/helpers/roles.ts';
import { cpuPerCall, cpuTimes, workerPids, type CpuTimes } from './cpu.ts';
import { addCompartments, makeBusiness, makeOrder, PASSWORD } from '../test/helpers/factories.ts';
import { fmt, load, median, percentile, postKeepAlive, type LoadRun } from './load.ts';
import { compareRead, READ_CONCURRENCY, type ReadRun } from './reads.ts';
import { retryLateness, type RetryRun } from './retries.ts';
import { EVENTS_PER_BATCH, otepBench } from './otep.ts';
import { LOCKER_BENCH_TTL_SECONDS, lockerBench } from './lockers.ts';
import { distributionBench, SCANS_IN_FLIGHT, SCANS_PACKAGES } from './distribution.ts';
import { mcpBench, MCP_IN_FLIGHT } from './mcp.ts';
import { appsBench } from './apps.ts';
import { BATCH_ROWS, ordersBench, TRAIL_ROWS } from './orders.ts';
import { routesBench, routesLine } from './routes.ts';
import { DISPATCH_DRIVERS, DISPATCH_OFFERS, dispatchBench, REPORTS_IN_FLIGHT } from './dispatch.ts';
import { ensureSolverVenv } from '../src/modules/routes/solver/venv.ts';
import { JOB_ITEMS, LABEL_PURCHASES, LABEL_RENDERS, LABELS_IN_FLIGHT, labelsBench } from './labels.ts';
import { WALLET_IN_FLIGHT, WALLET_PAYMENTS, WALLETS, walletBench } from './wallet.ts';
import { storageFeesBench } from './storageFees.ts';
import { UNIORDER_CARRIER_CONCURRENCY } from '../src/modules/uniorder/domain.ts';
import { STORE_CALLS, STORE_GRIDS, STORE_IN_FLIGHT, STORE_ROUNDS, storeBench, type Measured } from './store.ts';

const N = Number(process.env.BENCH_DEVICE_ORDERS ?? 1000);
const READ_GETS = Number(process.env.BENCH_READS ?? 5000);
/** BENCH_SECTIONS=3,6 runs only those sections (all by default). */
const SECTIONS = process.env.BENCH_SECTIONS?.split(',').map(Number);
const section = (n: number) => !SECTIONS || SECTIONS.includes(n);
const log = createLogger('warn');
const workers = new Set<ChildProcess>();
// A bench stopped half-way (Ctrl-C) takes its worker along.
process.once('exit', () => {
  for (const w of workers) w.kill('SIGKILL');
});
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tms-bench-'));
fs.chmodSync(dir, 0o755);
/** BENCH_PG_STATEMENTS=1 loads pg_stat_statements and prints, at the end, the statements PostgreSQL spent most time on. */
const PG_STATEMENTS = Boolean(process.env.BENCH_PG_STATEMENTS);
const TEMPORAL_ON_POSTGRES = process.env.BENCH_TEMPORAL === 'postgres';
const pg = await startEmbeddedPostgres(path.join(dir, 'pg'), await freePort(), log, false, [
  ...(PG_STATEMENTS ? ['shared_preload_libraries=pg_stat_statements'] : []),
  ...(TEMPORAL_ON_POSTGRES ? TEMPORAL_POSTGRES_SETTINGS : []),
]);
const temporal = TEMPORAL_ON_POSTGRES
  ? await startTemporalOnPostgres(
      { pg: postgresAccess(pg.url), dir: path.join(dir, 'temporal'), namespace: 'default' },
      log,
    )
  : await startTemporalDevServer({ port: await freePort(), uiPort: 0, namespace: 'default', headless: true }, log);
const line = (label: string, ours: string, base: string, ratio: number) =>
  console.log(`${label.padEnd(34)} ${ours.padEnd(30)} baseline ${base.padEnd(30)} ratio ${ratio.toFixed(2)}`);
/** Retry lateness against the setTimeout baseline, and how many retries were waiting. */
const retryLines = (label: string, rl: RetryRun) => {
  for (const [name, p] of [
    ['p50', 50],
    ['p99', 99],
    ['max', 100],
  ] as const) {
    const ours = percentile(rl.lateness, p);
    const base = percentile(rl.baseline, p);
    line(`retry lateness ${name} (ms, ${label})`, fmt(ours), `setTimeout+POST ${fmt(base)}`, ours / Math.max(1, base));
  }
  const count = rl.lateness.length + rl.missing;
  console.log(
    `retries pending (status retrying): ${rl.pendingAtFirstDue} when the first fell due (${rl.delayMs / 1000} s after the attempt before it), ${rl.pendingPeak} at the peak; ` +
      `first attempts failed at ${fmt(count / (rl.firstAttemptsSpanMs / 1000))}/s${rl.missing ? `; ${rl.missing} retries never arrived` : ''}` +
      `${rl.baselineFailed ? `; ${rl.baselineFailed} baseline POSTs failed` : ''}${rl.engineRetriesFailed ? `; ${rl.engineRetriesFailed} engine retries got no answer within 3 s and needed another attempt` : ''}`,
  );
};
/** The 15 statements PostgreSQL spent most time on in this run, with their calls and mean time. */
async function printTopStatements(em: Em): Promise<void> {
  const rows = await em.execute<{ total_ms: number; calls: number; mean_ms: number; rows: number; query: string }[]>(
    `select round(total_exec_time)::int as total_ms, calls::int, round(mean_exec_time::numeric, 3)::float8 as mean_ms,
       rows::int, left(regexp_replace(query, '\\s+', ' ', 'g'), 160) as query
     from pg_stat_statements order by total_exec_time desc limit 15`,
  );
  console.log('\nPostgreSQL, statements by total time (pg_stat_statements):');
  for (const r of rows)
    console.log(`  ${fmt(r.total_ms)} ms, ${r.calls} calls, ${r.mean_ms} ms each, ${r.rows} rows: ${r.query}`);
}
/** The median CPU of each part over rounds. */
const cpuLine = (rounds: CpuTimes[]) =>
  (['service', 'worker', 'postgres', 'temporal'] as const)
    .map((part) => `${part} ${fmt(median(rounds.map((c) => c[part] ?? 0)))}`)
    .join(', ');
/** A read's throughput and p99 against the constant body and against the same SQL through pg. */
const readLines = (label: string, r: ReadRun) => {
  console.log(
    `${label}: ${READ_CONCURRENCY} in flight, body ${r.bodyBytes} bytes, the SQL baseline sends ${r.statements} statement(s) per request`,
  );
  const p99 = (run: LoadRun) => percentile(run.latencies, 99);
  for (const [name, base] of [
    ['bare Koa constant', r.constant],
    ['bare Koa + pg', r.sql],
  ] as const) {
    line('  per s', fmt(r.ours.perSecond), `${name} ${fmt(base.perSecond)}`, r.ours.perSecond / base.perSecond);
    line('  p99 (ms)', fmt(p99(r.ours)), `${name} ${fmt(p99(base))}`, p99(r.ours) / p99(base));
  }
};

try {
  const orm = await createOrm(pg.url, ENTITIES);
  await migrate(orm);
  if (PG_STATEMENTS) await orm.em.fork().execute('create extension if not exists pg_stat_statements');
  await seedDemo(orm.em.fork());
  await orm.close();
  // The rate limits stay on, so that their cost is measured, with quotas no bench section reaches from its one address.
  const shared = {
    ...UNREACHED_RATE_LIMITS,
    DATABASE_URL: pg.url,
    TEMPORAL_ADDRESS: temporal.address,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
    METRICS_PORT: '0',
    SECRETS_KEY: randomBytes(32).toString('base64'),
    // Section 8's delivery codes live one hour, which this makes 30 s.
    LOCKER_TIMER_SCALE: String(LOCKER_BENCH_TTL_SECONDS / 3600),
  };
  const config = loadConfig({ ...shared, LOG_LEVEL: 'silent' });
  // The API in this process, the worker (its workflows, activities and the outbox relay) in its own, as production
  // runs them (`npm run api`, `npm run worker`): on one event loop, each would pause the other's figures.
  const app = await bootstrap(config, createLogger('silent'), { port: 0, worker: false });
  const worker = await spawnRole(
    'worker',
    {
      ...shared,
      LOG_LEVEL: 'info',
      ...(process.env.BENCH_WORKER_PROF
        ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_WORKER_PROF}` }
        : {}),
    },
    workers,
  );
  worker.child.stdout!.removeAllListeners('data').resume();
  worker.child.stderr!.removeAllListeners('data').resume();
  workerPids.add(worker.child.pid!);
  const em = app.orm.em.fork();
  const b = await makeBusiness(em);
  const grids = Array.from({ length: STORE_GRIDS + N }, (_, i) => `G${i}`);
  await addCompartments(em, b.device.id, grids);
  const login = await fetch(`${app.url}/api/v1/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: b.users.admin.email, password: PASSWORD }),
  });
  const token = ((await login.json()) as { access_token: string }).access_token;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  console.log(
    `machine: ${os.cpus().length} cores, Node ${process.version}; ${TEMPORAL_ON_POSTGRES ? 'Temporal server on PostgreSQL' : 'Temporal dev server (SQLite)'}, embedded PostgreSQL; the API in this process, the worker in its own\n`,
  );

  // 1. store latency and throughput
  if (section(1)) {
    const st = await storeBench({
      appUrl: app.url!,
      headers,
      temporal: app.temporal,
      config,
      businessId: b.business.id,
      deviceCode: b.device.code,
      grids: grids.slice(0, STORE_GRIDS),
    });
    console.log(
      `device-order store: ${STORE_IN_FLIGHT} in flight, the median of ${STORE_ROUNDS} alternating rounds of ${STORE_CALLS}`,
    );
    const at = (m: Measured, p: number) => median(m.runs.map((r) => percentile(r.latencies, p)));
    const rate = (m: Measured) => median(m.runs.map((r) => r.perSecond));
    for (const [name, base] of [
      ['empty start', st.emptyStart],
      ['same start', st.sameStart],
    ] as const) {
      for (const p of [50, 99])
        line(`  p${p} (ms)`, fmt(at(st.store, p)), `${name} ${fmt(at(base, p))}`, at(st.store, p) / at(base, p));
      line('  per s', fmt(rate(st.store)), `${name} ${fmt(rate(base))}`, rate(st.store) / rate(base));
    }

    for (const [name, m] of [
      ['store', st.store],
      ['empty start', st.emptyStart],
      ['same start', st.sameStart],
    ] as const)
      console.log(`  CPU ms per call, ${name}: ${cpuLine(m.cpu)}`);
  }

  // 2. overdue lateness: N orders due within one minute, starting once they are all stored
  let grid = STORE_GRIDS;
  if (section(2)) {
    const storeWindowMs = Math.max(30_000, N * 40);
    const dueStart = Date.now() + storeWindowMs;
    const ids: number[] = [];
    await load(N, 8, async (i) => {
      const res = await fetch(`${app.url}/api/v1/device-orders`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          kind: 'delivery',
          device_id: b.device.code,
          grid_code: grids[grid++],
          reference_number: 'L',
          due_at: new Date(dueStart + (i * 60_000) / N).toISOString(),
        }),
      });
      ids.push(((await res.json()) as { device_order: { id: number } }).device_order.id);
    });
    if (Date.now() > dueStart) console.log('warning: storing took longer than the window; lateness includes it');
    const idList = ids.join(',');
    for (;;) {
      const [row] = await em.execute<{ n: number }[]>(
        `select count(*)::int as n from device_order where id in (${idList}) and status = 'overdue'`,
      );
      if (row!.n === ids.length) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const lateness = (
      await em.execute<{ ms: number }[]>(
        `select extract(epoch from (overdue_at - due_at)) * 1000 as ms from device_order where id in (${idList})`,
      )
    ).map((r) => Number(r.ms));
    // Baseline: a bare timer set for the same instant in this process.
    const timerLate = await new Promise<number>((resolve) => {
      const at = Date.now() + 50;
      setTimeout(() => resolve(Date.now() - at), 50);
    });
    line(
      `overdue lateness p50 (ms, ${N} in 1 min)`,
      fmt(percentile(lateness, 50)),
      `setTimeout ${fmt(timerLate)}`,
      percentile(lateness, 50) / Math.max(1, timerLate),
    );
    line(
      `overdue lateness p99 (ms, ${N} in 1 min)`,
      fmt(percentile(lateness, 99)),
      `setTimeout ${fmt(timerLate)}`,
      percentile(lateness, 99) / Math.max(1, timerLate),
    );
  }

  // 3. GET assignments (50 rows) and GET orders (a page of 50) at 64 in flight, against both baselines
  if (section(3)) {
    const orders = [];
    for (let i = 0; i < 50; i++) orders.push((await makeOrder(em, b.business.id)).id);
    await fetch(`${app.url}/api/v1/broker-order-assignments`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ order_ids: orders, broker_id: b.users.broker.id }),
    });
    const readCase = { databaseUrl: pg.url, appUrl: app.url!, headers, gets: READ_GETS };
    readLines(
      'GET assignments (50 rows)',
      await compareRead({
        ...readCase,
        paths: ['/api/v1/broker-order-assignments?per_page=50'],
        keep: (sql) => sql.includes('broker_order_assignment'),
      }),
    );
    readLines(
      'GET orders (50 rows)',
      await compareRead({
        ...readCase,
        paths: ['/api/v1/orders?per_page=50'],
        keep: (sql) => sql.includes('delivery_order'),
      }),
    );
  }

  // 4. webhooks: outbox commit -> relay -> signed POST -> 2xx, against signing and POSTing the same bodies directly
  if (section(4)) {
    const W = Number(process.env.BENCH_WEBHOOKS ?? 2000);
    const WEBHOOK_ROUNDS = 3;
    const WEBHOOK_WARMUP_ROUNDS = 8;
    const arrivals = new Map<string, number>();
    // Engine deliveries received (the loop's requests carry x-bench-loop): the rate is measured at the receiver.
    let engineReceived = 0;
    let lastEngineArrival = 0;
    const receiver = http
      .createServer((req, res) => {
        const id = String(req.headers['x-webhook-event-id'] ?? '');
        req.resume().on('end', () => {
          const at = performance.now();
          if (!req.headers['x-bench-loop']) {
            engineReceived++;
            lastEngineArrival = at;
          }
          arrivals.set(`${req.headers['x-bench-loop'] ?? ''}${id}`, at);
          res.end();
        });
      })
      .listen(0, '127.0.0.1');
    await new Promise((r) => receiver.once('listening', r));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    const secret = 'bench-secret-0123456789';
    await fetch(`${app.url}/api/v1/webhook-settings`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ webhook_sign_secret: secret, device_order_webhook_url: hookUrl }),
    });
    const payload = (i: number) => ({
      event: 'device_order.stored',
      business_id: b.business.id,
      occurred_at: new Date().toISOString(),
      data: { device_order: { id: i, status: 'stored' } },
    });
    const enqueue = (prefix: string, ids: number[]) =>
      em.execute(
        `insert into outbox_event (business_id, event_id, event_type, reference_type, reference_id, payload)
       select ?, ? || n, 'device_order.stored', 'device_order', n::text, ?::jsonb from unnest(?::int[]) n`,
        [b.business.id, prefix, JSON.stringify(payload(0)), `{${ids.join(',')}}`],
      );
    const deliveredCount = async () =>
      Number(
        (
          await em.execute<{ n: string }[]>(
            "select count(*) as n from webhook_delivery where status = 'delivered' and event_id like 'BENCH-%'",
          )
        )[0]!.n,
      );
    const { signTenant } = await import('../src/modules/webhooks/signing.ts');
    const bodies = Array.from({ length: W }, (_, i) => JSON.stringify({ event_id: `LOOP-${i}`, ...payload(i) }));
    const loopPost = (i: number, extra: Record<string, string> = {}) =>
      postKeepAlive(
        hookUrl,
        {
          ...signTenant({ secret, body: bodies[i]!, timestamp: Math.floor(Date.now() / 1000), eventId: `LOOP-${i}` }),
          ...extra,
        },
        bodies[i]!,
      );
    /** W events committed in one insert; the rate from their commit to the receiver's last arrival. */
    const engineRound = async (prefix: string) => {
      const want = engineReceived + W;
      await enqueue(
        prefix,
        Array.from({ length: W }, (_, i) => i),
      );
      const t0 = performance.now();
      while (engineReceived < want) await new Promise((r) => setTimeout(r, 5));
      return W / ((lastEngineArrival - t0) / 1000);
    };
    const loopRound = async () => {
      const t1 = performance.now();
      await load(W, 32, (i) => loopPost(i, { 'x-bench-loop': '1' }).then(() => undefined));
      return W / ((performance.now() - t1) / 1000);
    };
    // Steady state: the engine's code runs optimised only after some thousands of deliveries (the optimising
    // compiler shares the 2 busy cores), so both paths are warmed first. Then engine and loop rounds alternate,
    // since one short loop run varies by a quarter from run to run.
    for (let i = 0; i < WEBHOOK_WARMUP_ROUNDS; i++) await engineRound(`BENCH-W${i}-`);
    await loopRound();
    const engineRates: number[] = [];
    const loopRates: number[] = [];
    const engineCpu: CpuTimes[] = [];
    const loopCpu: CpuTimes[] = [];
    for (let round = 0; round < WEBHOOK_ROUNDS; round++) {
      let before = cpuTimes();
      engineRates.push(await engineRound(`BENCH-${round}-`));
      engineCpu.push(cpuPerCall(before, cpuTimes(), W / 1000));
      before = cpuTimes();
      loopRates.push(await loopRound());
      loopCpu.push(cpuPerCall(before, cpuTimes(), W / 1000));
    }
    // Every delivery the receiver saw is also recorded delivered in the log (checked outside the clock).
    while ((await deliveredCount()) < (WEBHOOK_WARMUP_ROUNDS + WEBHOOK_ROUNDS) * W)
      await new Promise((r) => setTimeout(r, 50));
    const oursRate = median(engineRates);
    const loopRate = median(loopRates);
    line(
      `webhook deliveries (per s, median of ${WEBHOOK_ROUNDS})`,
      fmt(oursRate),
      `sign+POST loop ${fmt(loopRate)}`,
      oursRate / loopRate,
    );
    console.log(`  rounds of ${W}: engine ${engineRates.map(fmt).join(', ')}; loop ${loopRates.map(fmt).join(', ')}`);
    for (const [name, cpu] of [
      ['engine', engineCpu],
      ['loop', loopCpu],
    ] as const)
      console.log(`  CPU ms per 1000 deliveries, ${name}: ${cpuLine(cpu)}`);
    // First-attempt latency at half our measured rate: one event per commit, paced.
    const paced = Math.min(1000, W / 2);
    const gapMs = 1000 / (oursRate / 2);
    const committed = new Map<string, number>();
    const keyOf = new Map<string, string>();
    for (let i = 0; i < paced; i++) {
      await enqueue('BENCH-P-', [i]);
      committed.set(`BENCH-P-${i}`, performance.now());
      await new Promise((r) => setTimeout(r, gapMs));
    }
    while ((await deliveredCount()) < (WEBHOOK_WARMUP_ROUNDS + WEBHOOK_ROUNDS) * W + paced)
      await new Promise((r) => setTimeout(r, 50));
    // When the relay began each attempt (its clock, the epoch ms it logged), on this process's performance clock.
    const attemptAt = new Map<string, number>();
    for (const r of await em.execute<{ event_id: string; delivery_key: string; attempted_ms: number }[]>(
      `select d.event_id, d.delivery_key, extract(epoch from a.attempted_at) * 1000 as attempted_ms
       from webhook_delivery d join webhook_attempt a on a.delivery_id = d.id and a.attempt = 1
       where d.event_id like 'BENCH-P-%'`,
    )) {
      keyOf.set(r.event_id, r.delivery_key);
      attemptAt.set(r.event_id, Number(r.attempted_ms) - performance.timeOrigin);
    }
    const firstLatency = [...committed].map(([eventId, at]) => arrivals.get(keyOf.get(eventId)!)! - at);
    // The two halves: commit to the relay's attempt (NOTIFY, claim), and the attempt to the receiver (sign, POST).
    const toAttempt = [...committed].map(([eventId, at]) => attemptAt.get(eventId)! - at);
    const toArrival = [...committed].map(([eventId]) => arrivals.get(keyOf.get(eventId)!)! - attemptAt.get(eventId)!);
    // Baseline at the same pace: sign and POST directly, latency to the receiver's 2xx.
    const loopLatency: Promise<number>[] = [];
    for (let i = 0; i < paced; i++) {
      const started = performance.now();
      loopLatency.push(loopPost(i, { 'x-bench-loop': '1' }).then(() => performance.now() - started));
      await new Promise((r) => setTimeout(r, gapMs));
    }
    const loopLat = await Promise.all(loopLatency);
    line(
      `webhook first attempt p50 (ms, ${fmt(oursRate / 2)}/s)`,
      fmt(percentile(firstLatency, 50)),
      `sign+POST ${fmt(percentile(loopLat, 50))}`,
      percentile(firstLatency, 50) / percentile(loopLat, 50),
    );
    line(
      `webhook first attempt p99 (ms, ${fmt(oursRate / 2)}/s)`,
      fmt(percentile(firstLatency, 99)),
      `sign+POST ${fmt(percentile(loopLat, 99))}`,
      percentile(firstLatency, 99) / percentile(loopLat, 99),
    );
    console.log(
      `  commit to the relay's attempt p50 ${fmt(percentile(toAttempt, 50))} ms, p99 ${fmt(percentile(toAttempt, 99))} ms; ` +
        `the attempt to the receiver p50 ${fmt(percentile(toArrival, 50))} ms, p99 ${fmt(percentile(toArrival, 99))} ms`,
    );
    receiver.close();
  }

  // 5. retry lateness with R retries falling due within seconds: every first attempt fails, every retry succeeds (bench/retries.ts)
  const R = Number(process.env.BENCH_RETRIES ?? 10000);
  if (section(5))
    retryLines(`${R} retries`, await retryLateness(app.url!, config, em, { count: R, failures: 1, spreadMs: 0 }));

  // 6. OTEP timeline reads and ingest (bench/otep.ts)
  if (section(6)) {
    const ot = await otepBench(
      { appUrl: app.url!, databaseUrl: pg.url, gets: READ_GETS },
      em,
      Number(process.env.BENCH_OTEP_BATCHES ?? 200),
    );
    readLines('OTEP timeline GET (11 events)', ot.timeline);
    line(
      'OTEP ingest, no receiver (ev/s)',
      fmt(ot.ingestPerSecond),
      `multi-row INSERT ${fmt(ot.insertPerSecond)}`,
      ot.ingestPerSecond / ot.insertPerSecond,
    );
    line(
      'OTEP ingest, a receiver (ev/s)',
      fmt(ot.ingestReceivedPerSecond),
      `multi-row INSERT ${fmt(ot.insertPerSecond)}`,
      ot.ingestReceivedPerSecond / ot.insertPerSecond,
    );
    line(
      'OTEP ingest, a receiver (ev/s)',
      fmt(ot.ingestReceivedPerSecond),
      `INSERT + outbox INSERT ${fmt(ot.insertWithOutboxPerSecond)}`,
      ot.ingestReceivedPerSecond / ot.insertWithOutboxPerSecond,
    );
    console.log(
      `OTEP: ${ot.events} events in documents of ${EVENTS_PER_BATCH}, ingested twice; with a receiver, their tracking.event outbox rows were all published ${fmt(ot.outboxDrainMs)} ms after the last document`,
    );
  }

  // 7. a real backlog: R retries pending at once, due spread over one minute, at a receiver that answers (bench/retries.ts)
  if (section(7))
    retryLines(
      `${R} due over 1 min`,
      await retryLateness(app.url!, config, em, { count: R, failures: 2, spreadMs: 60_000 }),
    );

  // 8. partner locker deliveries (bench/lockers.ts)
  if (section(8)) {
    const E = Number(process.env.BENCH_LOCKER_EXPIRIES ?? 1000);
    const lk = await lockerBench(app.url!, em, { opened: 200, expiring: E });
    for (const p of [50, 99] as const) {
      line(
        `create->doors_opened p${p} (ms)`,
        fmt(percentile(lk.openLatency, p)),
        `engine first attempt ${fmt(percentile(lk.engineLatency, p))}`,
        percentile(lk.openLatency, p) / percentile(lk.engineLatency, p),
      );
    }
    for (const p of [50, 99] as const) {
      line(
        `locker expiry lateness p${p} (ms, ${E} in 1 min)`,
        fmt(percentile(lk.expiryLateness, p)),
        `setTimeout ${fmt(lk.timerLate)}`,
        percentile(lk.expiryLateness, p) / Math.max(1, lk.timerLate),
      );
    }
  }

  // 9. package distribution: scans and carrier ingest (bench/distribution.ts)
  if (section(9)) {
    const signIn = async (email: string) => {
      const res = await fetch(`${app.url}/api/v1/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      return ((await res.json()) as { access_token: string }).access_token;
    };
    const d = await distributionBench(app.url!, em, app.temporal, signIn);
    console.log(`distribution: ${SCANS_PACKAGES} packages, ${SCANS_IN_FLIGHT} in flight`);
    line(
      'received scans (per s, starts)',
      fmt(d.received.perSecond),
      `bare signals ${fmt(d.signals.perSecond)}`,
      d.received.perSecond / d.signals.perSecond,
    );
    line(
      'loaded scans (per s)',
      fmt(d.loaded.perSecond),
      `bare signals ${fmt(d.signals.perSecond)}`,
      d.loaded.perSecond / d.signals.perSecond,
    );
    line(
      `received in batches of ${d.batchSize} (per s)`,
      fmt(d.batched.perSecond),
      `bare signals x${d.batchInFlight} ${fmt(d.batchSignals.perSecond)}`,
      d.batched.perSecond / d.batchSignals.perSecond,
    );
    line(
      'loaded scan p50 (ms)',
      fmt(median(d.loaded.latencies)),
      `bare signal ${fmt(median(d.signals.latencies))}`,
      median(d.loaded.latencies) / median(d.signals.latencies),
    );
    // Where a scan's time goes: the CPU it cost each part, and how busy the two cores were meanwhile.
    for (const [name, r] of [
      ['received scan', d.received],
      ['loaded scan', d.loaded],
      ['bare signal', d.signals],
      ['batched received scan', d.batched],
      [`bare signal x${d.batchInFlight}`, d.batchSignals],
    ] as const) {
      const busy = Object.values(r.cpu).reduce((a, b) => a + (b ?? 0), 0) * (SCANS_PACKAGES / r.wallMs);
      console.log(`  CPU ms per ${name}: ${cpuLine([r.cpu])}; cores busy ${fmt(busy)} of ${os.cpus().length}`);
    }
    line(
      'EPCIS 500 receiving (ms/doc)',
      fmt(median(d.epcisMs)),
      `native OTEP ${fmt(median(d.nativeMs))}`,
      median(d.epcisMs) / median(d.nativeMs),
    );
  }

  // 10. an MCP tools/call of a read tool against the same read over REST
  if (section(10)) {
    if (!section(3)) for (let i = 0; i < 50; i++) await makeOrder(em, b.business.id);
    const m = await mcpBench(app.url!, token, READ_GETS);
    console.log(
      `MCP tools/call get_orders (a page of 50): ${MCP_IN_FLIGHT} in flight, BENCH_READS calls each side in 3 alternating rounds`,
    );
    line('  per s', fmt(m.mcp.perSecond), `REST GET ${fmt(m.rest.perSecond)}`, m.mcp.perSecond / m.rest.perSecond);
    line(
      '  p50 (ms)',
      fmt(percentile(m.mcp.latencies, 50)),
      `REST GET ${fmt(percentile(m.rest.latencies, 50))}`,
      percentile(m.mcp.latencies, 50) / percentile(m.rest.latencies, 50),
    );
    line(
      '  p99 (ms)',
      fmt(percentile(m.mcp.latencies, 99)),
      `REST GET ${fmt(percentile(m.rest.latencies, 99))}`,
      percentile(m.mcp.latencies, 99) / percentile(m.rest.latencies, 99),
    );
  }

  // 11. the standalone app bootstrap against a bare Koa endpoint of the same body (bench/apps.ts)
  if (section(11)) {
    const boot = await appsBench(app.url!, READ_GETS);
    console.log(
      `GET app bootstrap (demo-customer/DEMO): ${READ_CONCURRENCY} in flight, body ${boot.bodyBytes} bytes, BENCH_READS calls each side in 3 alternating rounds`,
    );
    const p99 = (run: LoadRun) => percentile(run.latencies, 99);
    line(
      '  per s',
      fmt(boot.ours.perSecond),
      `bare Koa constant ${fmt(boot.constant.perSecond)}`,
      boot.ours.perSecond / boot.constant.perSecond,
    );
    line(
      '  p99 (ms)',
      fmt(p99(boot.ours)),
      `bare Koa constant ${fmt(p99(boot.constant))}`,
      p99(boot.ours) / p99(boot.constant),
    );
  }

  // 12. order intake and the audit trail (bench/orders.ts)
  if (section(12)) {
    const o = await ordersBench({
      appUrl: app.url!,
      headers,
      databaseUrl: pg.url,
      em,
      businessId: b.business.id,
      gets: READ_GETS,
    });
    line(
      'bulk_create_orders 100 (ms)',
      fmt(median(o.bulkMs)),
      `100 single creates ${fmt(median(o.singlesMs))}`,
      median(o.bulkMs) / median(o.singlesMs),
    );
    line(
      `async batch ${BATCH_ROWS} (rows per s)`,
      fmt(o.batchRowsPerSecond),
      `one multi-row INSERT ${fmt(o.insertRowsPerSecond)}`,
      o.batchRowsPerSecond / o.insertRowsPerSecond,
    );
    console.log(
      `audit trail read of one order (${o.trail.eventsPerOrder} events, ${TRAIL_ROWS} in the table): ${READ_CONCURRENCY} in flight, the SQL baseline sends ${o.trail.statements} statement(s) per request`,
    );
    const p99 = (run: LoadRun) => percentile(run.latencies, 99);
    line(
      '  per s',
      fmt(o.trail.ours.perSecond),
      `bare Koa + pg ${fmt(o.trail.sql.perSecond)}`,
      o.trail.ours.perSecond / o.trail.sql.perSecond,
    );
    line(
      '  p99 (ms)',
      fmt(p99(o.trail.ours)),
      `bare Koa + pg ${fmt(p99(o.trail.sql))}`,
      p99(o.trail.ours) / p99(o.trail.sql),
    );
  }

  // 13. routes: Solomon C101, R101, RC208 through build-route (bench/routes.ts)
  if (section(13)) {
    await ensureSolverVenv();
    console.log('routes: Solomon C101, R101, RC208 through build-route, 10 s each (aim: within 2 % of the best known)');
    for (const r of await routesBench({ url: app.url!, headers }, { seconds: 10 })) console.log(`  ${routesLine(r)}`);
  }

  // 14. dispatch: auto-assign offers and drivers' reports (bench/dispatch.ts)
  if (section(14)) {
    const signIn = async (email: string) => {
      const res = await fetch(`${app.url}/api/v1/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      return ((await res.json()) as { access_token: string }).access_token;
    };
    const d = await dispatchBench(app.url!, em, app.temporal, signIn);
    console.log(
      `dispatch: ${DISPATCH_OFFERS} auto-assigns one every 50 ms, ${DISPATCH_DRIVERS} drivers; ${d.reportMs.length} reports, ${REPORTS_IN_FLIGHT} orders in flight`,
    );
    for (const p of [50, 99] as const)
      line(
        `offer->order.assigned p${p} (ms)`,
        fmt(percentile(d.offerLatency, p)),
        `engine first attempt ${fmt(percentile(d.engineLatency, p))}`,
        percentile(d.offerLatency, p) / percentile(d.engineLatency, p),
      );
    line(
      'lifecycle events (per s)',
      fmt(d.eventsPerSecond),
      `bare signals ${fmt(d.signals.perSecond)}`,
      d.eventsPerSecond / d.signals.perSecond,
    );
    line(
      'report p50 (ms)',
      fmt(median(d.reportMs)),
      `bare signal ${fmt(median(d.signals.latencies))}`,
      median(d.reportMs) / median(d.signals.latencies),
    );
    console.log(`  reports answered ${fmt(d.reportsPerSecond)}/s`);
  }

  // 15. labels: purchases through the API vs the adapter, and PDF render time (bench/labels.ts)
  if (section(15)) {
    const signIn = async (email: string) => {
      const res = await fetch(`${app.url}/api/v1/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      return ((await res.json()) as { access_token: string }).access_token;
    };
    const l = await labelsBench(app.url!, em, config, signIn);
    console.log(`labels: ${LABEL_PURCHASES} purchases, ${LABELS_IN_FLIGHT} in flight; ${LABEL_RENDERS} PDF renders`);
    line(
      'label purchases (per s)',
      fmt(l.api.perSecond),
      `adapter.purchase ${fmt(l.adapter.perSecond)}`,
      l.api.perSecond / l.adapter.perSecond,
    );
    line(
      'purchase p50 (ms)',
      fmt(median(l.api.latencies)),
      `adapter.purchase ${fmt(median(l.adapter.latencies))}`,
      median(l.api.latencies) / median(l.adapter.latencies),
    );
    line(
      `uniorder job of ${JOB_ITEMS} (s)`,
      fmt(l.jobSeconds),
      `bare loop, ${UNIORDER_CARRIER_CONCURRENCY} in flight ${fmt(l.bareJobSeconds)}`,
      l.jobSeconds / l.bareJobSeconds,
    );
    for (const q of [50, 95] as const)
      line(
        `label PDF render p${q} (ms)`,
        fmt(percentile(l.renderMs, q)),
        `page without barcode ${fmt(percentile(l.bareRenderMs, q))}`,
        percentile(l.renderMs, q) / percentile(l.bareRenderMs, q),
      );
  }

  // 16. wallet: ledger payments on one hot wallet and on 100, vs a bare update of a balance (bench/wallet.ts)
  if (section(16)) {
    const w = await walletBench(em);
    console.log(`wallet: ${WALLET_PAYMENTS} payments a round, ${WALLET_IN_FLIGHT} in flight`);
    line(
      'payments, one hot wallet (per s)',
      fmt(w.hot.perSecond),
      `bare update ${fmt(w.hotBare.perSecond)}`,
      w.hot.perSecond / w.hotBare.perSecond,
    );
    line(
      `payments, ${WALLETS} wallets (per s)`,
      fmt(w.many.perSecond),
      `bare update ${fmt(w.manyBare.perSecond)}`,
      w.many.perSecond / w.manyBare.perSecond,
    );
    line(
      `payment p50, ${WALLETS} wallets (ms)`,
      fmt(median(w.many.latencies)),
      `bare update ${fmt(median(w.manyBare.latencies))}`,
      median(w.many.latencies) / median(w.manyBare.latencies),
    );
    // 16, storage fees: the fee run over 100,000 stored packages vs a bare insert of its rows (bench/storageFees.ts)
    const f = await storageFeesBench(em, app.temporal);
    console.log(
      `storage fees: ${f.packages} packages of ${f.customers} customers, ${f.fees} periods charged, ${f.transfers} transfers`,
    );
    line(
      'storage fee run (packages per s)',
      fmt(f.perSecond),
      `bare insert ${fmt(f.barePerSecond)}`,
      f.perSecond / f.barePerSecond,
    );
  }

  if (PG_STATEMENTS) await printTopStatements(em);
  await app.close();
  await stopChild(worker.child, 'SIGTERM');
} finally {
  for (const w of workers) w.kill('SIGKILL');
  await temporal.stop();
  await pg.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
