import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import type { Logger } from '../platform/logger.ts';
import { endServerProcess, freePort, RecentOutput, StartupError } from './startup.ts';
import type { DevServer } from './temporalServer.ts';

/**
 * The Temporal server itself (not the CLI's dev server) on PostgreSQL: the shape production runs, for the scale
 * bench (docs/performance.md). Built from the Go module proxy like the CLI; v1.29.1's go.mod has no `replace`,
 * so `go install` works, with the Go on this machine.
 */
export const TEMPORAL_SERVER_VERSION = 'v1.29.1';
const toolsBin = path.resolve(import.meta.dirname, '../../.tools/bin');
const SERVER = path.join(toolsBin, 'temporal-server');
const SQL_TOOL = path.join(toolsBin, 'temporal-sql-tool');

/** Builds `temporal-server` and `temporal-sql-tool` into .tools/bin once (a few minutes on 2 cores). */
export function findOrBuildTemporalServer(log: Logger): { server: string; sqlTool: string } {
  if (fs.existsSync(SERVER) && fs.existsSync(SQL_TOOL)) return { server: SERVER, sqlTool: SQL_TOOL };
  const gobin = fs.mkdtempSync(path.join(toolsBin, '.build-'));
  log.info(
    `building the Temporal server ${TEMPORAL_SERVER_VERSION} and its SQL tool with go install (once; it takes a few minutes)`,
  );
  try {
    const built = spawnSync(
      'go',
      [
        'install',
        `go.temporal.io/server/cmd/server@${TEMPORAL_SERVER_VERSION}`,
        `go.temporal.io/server/cmd/tools/sql@${TEMPORAL_SERVER_VERSION}`,
      ],
      {
        env: { ...process.env, GOBIN: gobin, GOTOOLCHAIN: 'local' },
        stdio: ['ignore', 'pipe', 'pipe'],
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    if (built.status !== 0) {
      const output = new RecentOutput();
      output.add(`${built.stdout ?? ''}\n${built.stderr ?? ''}`);
      throw new StartupError(
        `Building the Temporal server with go install failed (${built.error?.message ?? output.problem() ?? `exit code ${built.status}`})`,
      );
    }
    fs.renameSync(path.join(gobin, 'server'), SERVER);
    fs.renameSync(path.join(gobin, 'sql'), SQL_TOOL);
  } finally {
    fs.rmSync(gobin, { recursive: true, force: true });
  }
  return { server: SERVER, sqlTool: SQL_TOOL };
}

export interface PostgresAccess {
  host: string;
  port: number;
  user: string;
  password: string;
}

/**
 * PostgreSQL settings for a server that also holds the Temporal server's databases: its four services keep pools
 * of their own (20 + 10 connections each), beside the service's.
 */
export const TEMPORAL_POSTGRES_SETTINGS = ['max_connections=400', 'shared_buffers=1GB'];

/** The host, port and credentials of a postgres:// URL, as the SQL tool and the server's config take them. */
export function postgresAccess(databaseUrl: string): PostgresAccess {
  const url = new URL(databaseUrl);
  return {
    host: url.hostname,
    port: Number(url.port),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  };
}

export interface TemporalOnPostgresOptions {
  pg: PostgresAccess;
  /** Where its config and logs go. */
  dir: string;
  namespace: string;
  /** History shards: fixed once the database is set up. */
  shards?: number;
}

/** Creates the `temporal` and `temporal_visibility` databases with their schemas, at the versions the binary embeds. */
function setUpSchemas(sqlTool: string, pg: PostgresAccess, log: Logger): void {
  const base = ['--ep', pg.host, '-p', String(pg.port), '-u', pg.user, '--pw', pg.password, '--pl', 'postgres12'];
  for (const [db, schema] of [
    ['temporal', 'postgresql/v12/temporal'],
    ['temporal_visibility', 'postgresql/v12/visibility'],
  ] as const) {
    for (const args of [['create'], ['setup-schema', '-v', '0.0'], ['update-schema', '--schema-name', schema]]) {
      const run = spawnSync(sqlTool, [...base, '--db', db, ...args], { encoding: 'utf8' });
      log.debug({ component: 'temporal-sql-tool', db, args }, `${run.stdout}${run.stderr}`);
      if (run.status !== 0)
        throw new StartupError(
          `temporal-sql-tool ${args[0]} on ${db} failed: ${(run.stderr || run.stdout).trim().split('\n').pop()}`,
        );
    }
  }
}

/** The development-postgres12 configuration of the server's repository, on free ports and these credentials (JSON is YAML). */
async function writeConfig(dir: string, pg: PostgresAccess, shards: number): Promise<{ frontend: number }> {
  // Temporal keeps membership ports in a smallint column: every port below 32768, outside the ephemeral range.
  const ports = new Set<number>();
  while (ports.size < 8) {
    const port = await freePort(20_000 + Math.floor(Math.random() * 12_000)).catch(() => null);
    if (port) ports.add(port);
  }
  const [frontend, history, matching, worker, ...membership] = [...ports];
  const store = (databaseName: string, maxConns: number) => ({
    sql: {
      pluginName: 'postgres12',
      databaseName,
      connectAddr: `${pg.host}:${pg.port}`,
      connectProtocol: 'tcp',
      user: pg.user,
      password: pg.password,
      maxConns,
      maxIdleConns: maxConns,
      maxConnLifetime: '1h',
    },
  });
  const rpc = (grpcPort: number, membershipPort: number) => ({
    rpc: { grpcPort, membershipPort, bindOnLocalHost: true },
  });
  fs.writeFileSync(path.join(dir, 'dynamicconfig.yaml'), 'limit.maxIDLength:\n  - value: 255\n');
  const config = {
    log: { stdout: true, level: 'warn' },
    persistence: {
      defaultStore: 'default',
      visibilityStore: 'visibility',
      numHistoryShards: shards,
      datastores: { default: store('temporal', 20), visibility: store('temporal_visibility', 10) },
    },
    global: { membership: { maxJoinDuration: '30s', broadcastAddress: '127.0.0.1' } },
    services: {
      frontend: rpc(frontend!, membership[0]!),
      history: rpc(history!, membership[1]!),
      matching: rpc(matching!, membership[2]!),
      worker: rpc(worker!, membership[3]!),
    },
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: {
        active: { enabled: true, initialFailoverVersion: 1, rpcName: 'frontend', rpcAddress: `127.0.0.1:${frontend}` },
      },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    dynamicConfigClient: { filepath: path.join(dir, 'dynamicconfig.yaml'), pollInterval: '10s' },
  };
  // v1.29 reads <root>/<config>/<env>.yaml (--config-file came later).
  fs.mkdirSync(path.join(dir, 'config'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'config', 'development.yaml'), JSON.stringify(config, null, 1));
  return { frontend: frontend! };
}

/** Sets up the schemas, starts the server, registers the namespace; stop() ends the server (the databases stay). */
export async function startTemporalOnPostgres(opts: TemporalOnPostgresOptions, log: Logger): Promise<DevServer> {
  const { server, sqlTool } = findOrBuildTemporalServer(log);
  fs.mkdirSync(opts.dir, { recursive: true });
  setUpSchemas(sqlTool, opts.pg, log);
  const { frontend } = await writeConfig(opts.dir, opts.pg, opts.shards ?? 4);
  const output = new RecentOutput();
  const child = spawn(
    server,
    ['--root', opts.dir, '--config', 'config', '--env', 'development', '--allow-no-auth', 'start'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (d: Buffer) => log.debug({ component: 'temporal' }, output.add(d)));
  child.stderr?.on('data', (d: Buffer) => log.debug({ component: 'temporal' }, output.add(d)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const stop = async () => {
    process.off('exit', killOnExit);
    await endServerProcess(child, exited, 15_000);
  };
  const address = `127.0.0.1:${frontend}`;
  try {
    await registerNamespace(address, opts.namespace, () =>
      child.exitCode === null ? null : (output.problem() ?? `exit code ${child.exitCode}`),
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { address, process: child, stop };
}

/** Waits for the frontend, registers the namespace (3 days of retention) and waits until the frontend serves it. */
async function registerNamespace(
  address: string,
  namespace: string,
  died: () => string | null,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let registered = false;
  for (;;) {
    const death = died();
    if (death) throw new StartupError(`The Temporal server exited during start-up: ${death}`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        if (!registered) {
          await connection.workflowService
            .registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('3 days') })
            .catch((err: { code?: number }) => {
              if (err.code !== 6) throw err;
            }); // 6: ALREADY_EXISTS
          registered = true;
        }
        await connection.workflowService.describeNamespace({ namespace });
        return;
      } finally {
        await connection.close();
      }
    } catch (err) {
      if (Date.now() > deadline)
        throw new StartupError(
          `The Temporal server did not serve namespace ${namespace} at ${address} within ${timeoutMs / 1000} s (${String(err).split('\n')[0]})`,
        );
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}
