import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const entries = { api: '../../src/main/api.ts', worker: '../../src/main/worker.ts' } as const;

export interface RoleProcess {
  child: ChildProcess;
  /** The API's base URL (api role only). */
  url?: string;
  /** The last 20 kB of its output, to explain a failure. */
  output(): string;
}

/**
 * `npm run api` or `npm run worker` as a child process against the suite's PostgreSQL and Temporal (the test's
 * environment plus `env`), so that a test can run several and SIGKILL one. Resolves once the role logs that it runs.
 */
export async function spawnRole(
  role: keyof typeof entries,
  env: Record<string, string>,
  children: Set<ChildProcess>,
): Promise<RoleProcess> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info', ...env };
  delete childEnv.NODE_TEST_CONTEXT; // the child is a service, not a test file reporting to the runner
  const child = spawn(process.execPath, [path.resolve(import.meta.dirname, entries[role])], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-20_000);
  };
  child.stderr.on('data', keep);
  const url = await new Promise<string | undefined>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      keep(d);
      const running = output.split('\n').find((l) => l.includes(`"msg":"${role} running"`));
      if (running) resolve((JSON.parse(running) as { url?: string }).url);
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`the ${role} exited (${code ?? signal}) before running:\n${output}`)),
    );
  });
  return { child, url, output: () => output };
}

/** Ends a child with `signal` and waits until it has exited. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}
