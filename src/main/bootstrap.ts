import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { createApp } from '../../api/app.ts';
import { createActivities } from '../../activities/index.ts';
import type { Config } from '../platform/config.ts';
import { localUrl } from '../platform/hostnames.ts';
import { ENTITIES, MODULES, SEARCH_ATTRIBUTES, TASK_QUEUES } from '../modules/index.ts';
import { createOrm, migrate, type Orm } from '../platform/db/orm.ts';
import { seedDemo } from './seed.ts';
import { ReadCache } from '../platform/db/readCache.ts';
import { QuotaCounter } from '../platform/quotaCounter.ts';
import type { Logger } from '../platform/logger.ts';
import { installSecretKeys } from '../platform/secretBox.ts';
import { awaitSearchAttributes, registerSearchAttributes } from '../platform/temporal/searchAttributes.ts';
import { ensureSchedules } from '../platform/temporal/schedules.ts';
import { createWorkers, installRuntime } from '../platform/temporal/worker.ts';
import type { ModuleDescriptor, WorkerDeps, WorkerService } from '../platform/module.ts';
import { startMetricsServer, type MetricsServer } from '../platform/telemetry/metricsServer.ts';
import { countingClientInterceptor } from '../platform/telemetry/temporalMetrics.ts';
import { installTracing, type Tracing } from '../platform/telemetry/tracing.ts';

export interface Services {
  orm: Orm;
  connection: NativeConnection;
  temporal: Client;
}

/**
 * Connects to PostgreSQL and Temporal; both addresses must be resolved by now. Starts are counted, and traced when
 * tracing is on. The client talks to Temporal through the SDK's native (Rust) connection, which a worker of the
 * same process shares: on 2 cores it left a device-order store 15% faster than the JavaScript gRPC client did
 * (docs/performance.md).
 */
export async function connectServices(
  config: Config,
  databaseUrl: string,
  temporalAddress: string,
  tracing: Tracing | null = null,
): Promise<Services> {
  const orm = await createOrm(databaseUrl, ENTITIES);
  const connection = await NativeConnection.connect({ address: temporalAddress });
  const temporal = new Client({
    connection,
    namespace: config.temporalNamespace,
    interceptors: { workflow: [countingClientInterceptor()] },
    plugins: tracing ? [tracing.plugin] : [],
  });
  return { orm, connection, temporal };
}

export interface Running extends Services {
  server?: http.Server;
  url?: string;
  reads?: ReadCache;
  quotas?: QuotaCounter;
  metrics?: MetricsServer;
  /** One worker per task queue served (WORKER_QUEUES); empty in an API-only process. */
  workers: Worker[];
  workerRun?: Promise<void>;
  /** Shuts the workers down and waits for them (the service's close does it too; fault tests kill the worker). */
  stopWorkers(): Promise<void>;
  /** The modules' worker services (the outbox relay), started after the worker and stopped before it. */
  services: WorkerService[];
  close(): Promise<void>;
}

export interface BootstrapOptions {
  api?: boolean;
  worker?: boolean;
  migrate?: boolean;
  seed?: boolean;
  /** 0 picks a free port (tests). */
  port?: number;
  /** The API's clock of dated rules (tests move it). */
  clock?: () => Date;
}

/**
 * Builds the service from its parts: used by `npm start`, the single-role entry points and the tests.
 * Needs `config.databaseUrl` and `config.temporalAddress`.
 */
export async function bootstrap(config: Config, log: Logger, opts: BootstrapOptions = {}): Promise<Running> {
  const { api = true, worker: withWorker = true } = opts;
  if (!config.databaseUrl || !config.temporalAddress)
    throw new Error('bootstrap needs DATABASE_URL and TEMPORAL_ADDRESS');
  if (config.secretsKeys.length === 0) throw new Error('bootstrap needs SECRETS_KEY');
  installSecretKeys(config.secretsKeys);
  const tracing = installTracing(api && withWorker ? 'tms' : api ? 'tms-api' : 'tms-worker');
  installRuntime(log);
  const services = await connectServices(config, config.databaseUrl, config.temporalAddress, tracing);
  const running: Running = {
    ...services,
    services: [],
    workers: [],
    async stopWorkers() {
      for (const w of running.workers) if (w.getState() === 'RUNNING') w.shutdown();
      await running.workerRun;
      running.workers = [];
    },
    async close() {
      if (running.server) await new Promise<void>((resolve) => running.server!.close(() => resolve()));
      running.server?.closeAllConnections();
      await running.reads?.stop();
      await running.quotas?.stop();
      await running.metrics?.close();
      for (const s of [...running.services].reverse()) await s.stop();
      await running.stopWorkers();
      // The last spans (the shutdown's own included) leave before the process does.
      await tracing?.flush().catch((err: unknown) => log.warn({ err }, 'spans not exported at shutdown'));
      await services.connection.close();
      await services.orm.close();
    },
  };
  try {
    if (opts.migrate) {
      const applied = await migrate(services.orm);
      if (applied.length) log.info({ applied }, 'migrations applied');
    }
    if (opts.seed) await seedDemo(services.orm.em.fork());
    for (const m of MODULES) await m.startup?.({ orm: services.orm, log });
    if (withWorker) {
      const added = await registerSearchAttributes(services.connection, config.temporalNamespace, SEARCH_ATTRIBUTES);
      if (added.length) log.info({ added }, 'search attributes registered');
      await awaitSearchAttributes(services.temporal, added);
      const deps: WorkerDeps = {
        orm: services.orm,
        config,
        log,
        temporal: services.temporal,
        databaseUrl: config.databaseUrl,
      };
      const queues = servedQueues(config);
      const served = (m: ModuleDescriptor) => !m.taskQueue || queues.includes(m.taskQueue);
      running.workers = await createWorkers(config, services.connection, queues, createActivities(deps), log, tracing);
      running.workerRun = Promise.all(running.workers.map((w) => w.run())).then(() => undefined);
      running.workerRun.catch((err: unknown) => log.error({ err }, 'worker stopped'));
      log.info({ queues }, 'serving task queues');
      for (const m of MODULES.filter((m) => m.taskQueue && served(m)))
        await ensureSchedules(services.temporal, m.taskQueue!, m.schedules?.(config) ?? [], log);
      for (const service of MODULES.filter(served).flatMap((m) => m.services?.(deps) ?? [])) {
        await service.start();
        running.services.push(service);
      }
    }
    if (config.metricsPort !== null)
      running.metrics = await startMetricsServer(
        config.metricsPort,
        config.host,
        log,
        withWorker ? services.orm : null,
      );
    if (api) {
      const reads = new ReadCache();
      await reads.start(config.databaseUrl, log);
      running.reads = reads;
      const quotas = new QuotaCounter(services.orm, log);
      running.quotas = quotas;
      const app = createApp({
        config,
        orm: services.orm,
        reads,
        quotas,
        temporal: services.temporal,
        log,
        clock: opts.clock,
      });
      const server = http.createServer(app.callback());
      await new Promise<void>((resolve, reject) =>
        server.once('error', reject).listen(opts.port ?? config.port, config.host, resolve),
      );
      running.server = server;
      running.url = localUrl(server.address() as AddressInfo);
    }
  } catch (err) {
    await running.close().catch(() => undefined);
    throw err;
  }
  return running;
}

/** The queues this worker process serves: WORKER_QUEUES, or every queue; a name no module declares is refused. */
export function servedQueues(config: Pick<Config, 'workerQueues'>): string[] {
  const queues = config.workerQueues ?? [...TASK_QUEUES];
  const unknown = queues.filter((q) => !TASK_QUEUES.includes(q));
  if (unknown.length)
    throw new Error(
      `WORKER_QUEUES names ${unknown.join(', ')}, which no module runs on; the task queues are ${TASK_QUEUES.join(', ')}`,
    );
  return queues;
}
