import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import type { Logger } from '../logger.ts';

export const TEMPORAL_CLI_VERSION = 'v1.5.1';
const projectRoot = path.resolve(import.meta.dirname, '../../..');
const localCli = path.join(projectRoot, '.tools/bin/temporal');

function onPath(name: string): string | null {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
}

/**
 * Finds the Temporal CLI: on PATH, then in .tools/bin, else builds it there with `go install`
 * (v1.5.1 is the newest release whose go.mod allows `go install`).
 */
export function findOrBuildTemporalCli(log: Logger): string {
  const existing = onPath('temporal') ?? (fs.existsSync(localCli) ? localCli : null);
  if (existing) return existing;
  if (!onPath('go')) {
    throw new Error('The Temporal CLI was not found and Go is not installed to build it. Install the Temporal CLI (https://docs.temporal.io/cli) or Go, or set TEMPORAL_ADDRESS to an existing Temporal server.');
  }
  log.info('building the Temporal CLI with go install (once; it takes a few minutes)');
  const built = spawnSync('go', ['install', `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}`], {
    env: { ...process.env, GOBIN: path.dirname(localCli), GOTOOLCHAIN: 'local' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (built.status !== 0 || !fs.existsSync(localCli)) {
    throw new Error('Building the Temporal CLI failed. Install it by hand (https://docs.temporal.io/cli) or set TEMPORAL_ADDRESS.');
  }
  return localCli;
}

export interface DevServerOptions {
  port: number;
  uiPort: number;
  namespace: string;
  /** SQLite file; omitted means in memory (tests). */
  dbFile?: string;
  headless?: boolean;
  /** Server dynamic config, `key=value` each (tests that need a small limit). */
  dynamicConfig?: string[];
}

export interface DevServer {
  address: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export async function startTemporalDevServer(opts: DevServerOptions, log: Logger): Promise<DevServer> {
  const cli = findOrBuildTemporalCli(log);
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(opts.port), '--namespace', opts.namespace, '--log-level', 'warn'];
  if (opts.headless) args.push('--headless');
  else args.push('--ui-port', String(opts.uiPort));
  for (const value of opts.dynamicConfig ?? []) args.push('--dynamic-config-value', value);
  if (opts.dbFile) {
    fs.mkdirSync(path.dirname(opts.dbFile), { recursive: true });
    args.push('--db-filename', opts.dbFile, '--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal');
  }
  const child = spawn(cli, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: false });
  child.stdout?.on('data', (d: Buffer) => log.debug({ component: 'temporal' }, d.toString().trim()));
  child.stderr?.on('data', (d: Buffer) => log.debug({ component: 'temporal' }, d.toString().trim()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const address = `127.0.0.1:${opts.port}`;
  await waitForTemporal(address, opts.namespace, exited);
  return {
    address,
    process: child,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timeout = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timeout);
    },
  };
}

async function waitForTemporal(address: string, namespace: string, exited: Promise<number | null>, timeoutMs = 60_000): Promise<void> {
  let stopped: number | null | undefined;
  void exited.then((code) => { stopped = code; });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (stopped !== undefined) throw new Error(`The Temporal dev server exited with code ${stopped}; is port ${address} already taken?`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.describeNamespace({ namespace });
        return;
      } finally {
        await connection.close();
      }
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`The Temporal dev server did not answer at ${address}: ${String(err)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
