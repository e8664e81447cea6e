/**
 * Runs solve.py (VROOM) in a child process: the problem as JSON on stdin, the plan as JSON on stdout. The caller
 * hears a heartbeat every second while it runs; an abort kills the child at once (SIGKILL: VROOM does not stop
 * between iterations) and rejects with an AbortError once the child is gone. A failure's message quotes the end of
 * the child's standard error, never the problem.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { SolvePlan, SolveProblem } from './problem.ts';
import { solverPython } from './venv.ts';

const SCRIPT = path.join(import.meta.dirname, 'solve.py');
/** How much of the child's standard error a failure quotes. */
const STDERR_TAIL = 2_000;

function abortError(reason: unknown): Error {
  return Object.assign(new Error('the solve was aborted'), { name: 'AbortError', cause: reason });
}

export async function runSolver(
  problem: SolveProblem,
  opts: { signal?: AbortSignal; heartbeat?: (elapsedSeconds: number) => void } = {},
): Promise<SolvePlan> {
  const { signal, heartbeat } = opts;
  if (signal?.aborted) throw abortError(signal.reason);
  const python = solverPython();
  if (!fs.existsSync(python))
    throw new Error(`the route solver's Python is missing (${python}): npm start installs it, or set SOLVER_PYTHON`);
  const started = Date.now();
  const child = spawn(python, [SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'] });
  const stdout: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => stdout.push(c));
  child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString('utf8')).slice(-STDERR_TAIL)));
  // A child that dies before reading everything closes the pipe: its exit says why, not the EPIPE.
  child.stdin.on('error', () => {});
  child.stdin.end(JSON.stringify(problem));

  const beat = setInterval(() => heartbeat?.(Math.round((Date.now() - started) / 1000)), 1_000);
  const onAbort = () => child.kill('SIGKILL');
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const { code, sig } = await new Promise<{ code: number | null; sig: NodeJS.Signals | null }>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (c, s) => resolve({ code: c, sig: s }));
    });
    if (signal?.aborted) throw abortError(signal.reason);
    if (code !== 0)
      throw new Error(
        `the route solver failed (${sig ? `signal ${sig}` : `exit ${code}`}): ${stderr.trim() || 'no output'}`,
      );
    try {
      return JSON.parse(Buffer.concat(stdout).toString('utf8')) as SolvePlan;
    } catch {
      throw new Error(`the route solver answered something that is not JSON: ${stderr.trim()}`);
    }
  } finally {
    clearInterval(beat);
    signal?.removeEventListener('abort', onAbort);
  }
}
