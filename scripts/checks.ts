/**
 * The static checks `npm test` runs before anything starts: the type check, the linter over the whole tree, the
 * formatter check and the contract lint (Spectral over the OpenAPI and AsyncAPI documents, scripts/lintContract.ts).
 * They run side by side; each failure prints its own output, naming the files or the documents' paths.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

export const CHECKS = [
  { name: 'typecheck', bin: 'node_modules/typescript/bin/tsc', args: ['--noEmit', '-p', 'tsconfig.json'] },
  { name: 'lint', bin: 'node_modules/eslint/bin/eslint.js', args: ['.', '--max-warnings=0'] },
  { name: 'format', bin: 'node_modules/prettier/bin/prettier.cjs', args: ['--check', '--log-level=warn', '.'] },
  { name: 'contract', bin: 'scripts/lintContract.ts', args: [] },
] as const;

interface Outcome {
  name: string;
  ok: boolean;
  output: string;
  ms: number;
}

function run(check: (typeof CHECKS)[number]): Promise<Outcome> {
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(root, check.bin), ...check.args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d));
  child.stderr.on('data', (d: Buffer) => (output += d));
  return new Promise((resolve) =>
    child.once('close', (code) =>
      resolve({ name: check.name, ok: code === 0, output, ms: performance.now() - started }),
    ),
  );
}

/** Runs every check; true when all passed. */
export async function runChecks(out: NodeJS.WritableStream = process.stdout): Promise<boolean> {
  const outcomes = await Promise.all(CHECKS.map(run));
  for (const o of outcomes) {
    out.write(`${o.ok ? 'ok' : 'FAILED'}: ${o.name} (${(o.ms / 1000).toFixed(1)} s)\n`);
    if (!o.ok) out.write(`${o.output.trimEnd()}\n`);
  }
  const failed = outcomes.filter((o) => !o.ok).map((o) => o.name);
  if (failed.length) out.write(`The checks failed (${failed.join(', ')}): no test was run.\n`);
  return failed.length === 0;
}
