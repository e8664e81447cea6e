/**
 * The route solver's Python (docs/routes.md, The solver): SOLVER_PYTHON when set (production may bring its own, with
 * the packages of requirements.txt), else `.tools/solver-venv`, which `npm start` and `npm test` make from PyPI on
 * first use with the pinned, hashed packages of requirements.txt, and make again when that file changes.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..', '..');
const VENV = path.join(ROOT, '.tools', 'solver-venv');
const REQUIREMENTS = path.join(import.meta.dirname, 'requirements.txt');
/** Inside the environment: the hash of the requirements it was made from. */
const MARKER = 'requirements.sha256';

/** The Python that runs solve.py. */
export function solverPython(): string {
  return process.env.SOLVER_PYTHON || path.join(VENV, 'bin', 'python');
}

function requirementsHash(): string {
  return createHash('sha256').update(fs.readFileSync(REQUIREMENTS)).digest('hex');
}

function isCurrent(dir: string, hash: string): boolean {
  try {
    return fs.readFileSync(path.join(dir, MARKER), 'utf8') === hash && fs.existsSync(path.join(dir, 'bin', 'python'));
  } catch {
    return false;
  }
}

function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${path.basename(cmd)} ${args[0]} ${args[1]} failed: ${stderr.trim()}`)),
    );
  });
}

/**
 * Makes `.tools/solver-venv` unless SOLVER_PYTHON is set or the environment matches requirements.txt: nothing to
 * do takes a file read. It is made beside the old one and renamed into place, so that two starts at once (npm start
 * and npm test) each see either a whole environment or none. Answers what happened, for the start-up log.
 */
export async function ensureSolverVenv(): Promise<'external' | 'present' | 'installed'> {
  if (process.env.SOLVER_PYTHON) return 'external';
  const hash = requirementsHash();
  if (isCurrent(VENV, hash)) return 'present';
  const building = `${VENV}.${process.pid}`;
  fs.rmSync(building, { recursive: true, force: true });
  try {
    await run('python3', ['-m', 'venv', building]).catch((err: Error) => {
      throw new Error(`Python 3.11+ with venv is needed for the route solver (or set SOLVER_PYTHON): ${err.message}`);
    });
    await run(path.join(building, 'bin', 'python'), [
      '-m',
      'pip',
      'install',
      '--quiet',
      '--disable-pip-version-check',
      '--require-hashes',
      '--only-binary=:all:',
      '--no-deps',
      '-r',
      REQUIREMENTS,
    ]);
    fs.writeFileSync(path.join(building, MARKER), hash);
    if (isCurrent(VENV, hash)) return 'present';
    fs.rmSync(VENV, { recursive: true, force: true });
    fs.renameSync(building, VENV);
    return 'installed';
  } finally {
    fs.rmSync(building, { recursive: true, force: true });
  }
}
