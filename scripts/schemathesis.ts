/**
 * Schemathesis against the service, as an outside tester would run it: the published OpenAPI document, every check
 * on, once without a token, once signed in as each role, once with an OTEP ingest key. Any failure (a 5xx, an answer
 * outside its documented schema, an undocumented status or content type, a valid request refused, an invalid one
 * accepted, a method that is not 405) fails the run. Schemathesis comes from PyPI, pinned with every dependency in
 * scripts/fuzz-requirements.txt, into .tools/fuzz-venv on first use. docs/fuzzing.md says what is run and why.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { bootstrap } from '../src/main/bootstrap.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../src/main/seed.ts';
import { loadConfig } from '../src/platform/config.ts';
import { createLogger } from '../src/platform/logger.ts';
import { cloneDatabase, registerNamespace } from './isolate.ts';
import { UNREACHED_RATE_LIMITS, type Stack } from './stack.ts';

/** Where the run's lines go: standard output, or a buffer printed after the test files' report. */
export interface Output {
  write(text: string): unknown;
}

const ROOT = path.resolve(import.meta.dirname, '..');
const VENV = path.join(ROOT, '.tools', 'fuzz-venv');
const REQUIREMENTS = path.join(ROOT, 'scripts', 'fuzz-requirements.txt');
const CONFIG = path.join(ROOT, 'scripts', 'schemathesis.toml');
const REPORTS = path.join(ROOT, '.tools', 'fuzz-report');

export interface FuzzOptions {
  /** Test cases per operation and phase. */
  maxExamples: number;
  /** Time budget of each credential's run. */
  secondsPerRun: number;
  workers: number;
  /**
   * A fixed seed makes a run repeatable (the short run in `npm test`); none draws a new one. A seeded run also
   * leaves out Schemathesis's store of past examples (.schemathesis/), so a checkout and a fresh clone try the same.
   */
  seed?: string;
  /** The credentials to run as, by name (`client_admin`, `scanner_key`...); every one when absent. */
  only?: readonly string[];
}

/** `npm test`: a few minutes in all. */
export const SHORT_RUN: FuzzOptions = { maxExamples: 10, secondsPerRun: 15, workers: 1, seed: '20261123' };
/** `npm run fuzz`: what Schemathesis finds in three minutes per credential, with a new seed each time. */
export const LONG_RUN: FuzzOptions = { maxExamples: 100, secondsPerRun: 180, workers: 1 };

/** The Schemathesis executable, installed at the pinned versions when missing or different. */
export function ensureSchemathesis(): string {
  const bin = path.join(VENV, 'bin', 'schemathesis');
  const stamp = path.join(VENV, 'requirements.txt');
  const wanted = fs.readFileSync(REQUIREMENTS, 'utf8');
  if (fs.existsSync(bin) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === wanted) return bin;
  const run = (cmd: string, args: string[]) => {
    const res = spawnSync(cmd, args, { stdio: 'inherit' });
    if (res.status !== 0)
      throw new Error(`${cmd} ${args.join(' ')} failed: Python 3.10+ with venv and PyPI are needed for the fuzz run`);
  };
  process.stdout.write('Installing Schemathesis from PyPI into .tools/fuzz-venv ...\n');
  run('python3', ['-m', 'venv', '--clear', VENV]);
  run(path.join(VENV, 'bin', 'pip'), [
    'install',
    '--quiet',
    '--disable-pip-version-check',
    '--no-deps',
    '-r',
    REQUIREMENTS,
  ]);
  fs.writeFileSync(stamp, wanted);
  return bin;
}

interface Credential {
  name: string;
  token?: string;
}

async function post(url: string, body: unknown, token?: string): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** No token; one demo account of each role; an OTEP ingest key of the demo carrier; a device key of the demo locker; a scanner key of a warehouse. */
async function credentials(api: string): Promise<Credential[]> {
  const list: Credential[] = [{ name: 'anonymous' }];
  const roles = new Set<string>();
  for (const a of DEMO_ACCOUNTS) {
    if (roles.has(a.role)) continue;
    roles.add(a.role);
    list.push({
      name: a.role,
      token: (await post(`${api}/v1/user/login`, { email: a.email, password: DEMO_PASSWORD })).access_token as string,
    });
  }
  const carrier = list.find((c) => c.name === 'delivery_provider')!;
  const created = await post(`${api}/v1/otep/credentials`, { name: 'fuzz' }, carrier.token);
  list.push({ name: 'otep_key', token: (created.credential as { secret: string }).secret });
  const admin = list.find((c) => c.name === 'client_admin')!;
  const locker = await post(`${api}/v1/devices/DEMO-LOCKER-1/keys`, { name: 'fuzz' }, admin.token);
  list.push({ name: 'device_key', token: (locker.key as { secret: string }).secret });
  await post(`${api}/v1/places`, { kind: 'warehouse', code: 'FUZZ-WH', name: 'Fuzz warehouse' }, admin.token);
  const scanner = await post(`${api}/v1/places/FUZZ-WH/scanner-keys`, { name: 'fuzz' }, admin.token);
  list.push({ name: 'scanner_key', token: (scanner.key as { secret: string }).secret });
  return list;
}

function runOnce(
  bin: string,
  api: string,
  cred: Credential,
  opts: FuzzOptions,
): Promise<{ ok: boolean; output: string }> {
  const args = [
    '--config-file',
    CONFIG,
    'run',
    `${api}/openapi.json`,
    '--checks',
    'all',
    '--max-examples',
    String(opts.maxExamples),
    '--max-time',
    String(opts.secondsPerRun),
    '--workers',
    String(opts.workers),
    '--report',
    'junit',
    '--report-junit-path',
    path.join(REPORTS, `${cred.name}.xml`),
    '--no-color',
    ...(opts.seed ? ['--seed', opts.seed, '--generation-database', 'none'] : []),
    // Signing out revokes the run's own token, after which every call would be 401: only the anonymous run calls it.
    // Likewise the platform admin's system-wide switch of the assignment module: once off, every later run's calls of
    // the assignment operations would answer 503 (test/modules/platform-admin covers it).
    ...(cred.token
      ? [
          '--header',
          `Authorization: Bearer ${cred.token}`,
          '--exclude-operation-id',
          'user_logout',
          '--exclude-operation-id',
          'platform_assignment_availability_set',
        ]
      : []),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ ok: code === 0, output }));
  });
}

/** Runs every credential in turn; prints a line for each and the whole report of each that failed. True when all passed. */
export async function fuzzApi(baseUrl: string, opts: FuzzOptions, out: Output = process.stdout): Promise<boolean> {
  const bin = ensureSchemathesis();
  const api = `${baseUrl}/api`;
  fs.mkdirSync(REPORTS, { recursive: true });
  let allOk = true;
  for (const cred of (await credentials(api)).filter((c) => !opts.only || opts.only.includes(c.name))) {
    const started = performance.now();
    const { ok, output } = await runOnce(bin, api, cred, opts);
    // The whole report, warnings included, stays beside the JUnit file.
    fs.writeFileSync(path.join(REPORTS, `${cred.name}.txt`), output);
    const summary = /=+ (.+ in [\d.]+s) =+\s*$/m.exec(output)?.[1] ?? 'no summary';
    out.write(
      `schemathesis ${ok ? 'passed' : 'FAILED'} as ${cred.name}: ${summary} (${Math.round((performance.now() - started) / 1000)} s)\n`,
    );
    if (!ok) {
      allOk = false;
      out.write(`${output}\n`);
    }
  }
  return allOk;
}

/**
 * The API and a worker in this process on the stack, with production settings but rate limits no fuzz run reaches;
 * then the fuzz run. The service has a database cloned from the stack's template and a namespace of its own, so
 * it may run beside the test files.
 */
export async function fuzzService(stack: Stack, opts: FuzzOptions, out: Output = process.stdout): Promise<boolean> {
  if (!stack.databaseUrl) throw new Error('the fuzz run needs the stack with its database');
  await registerNamespace(stack.temporalAddress, 'fuzz');
  const config = loadConfig({
    ...UNREACHED_RATE_LIMITS,
    DATABASE_URL: await cloneDatabase(stack.databaseUrl, 'fuzz'),
    TEMPORAL_NAMESPACE: 'fuzz',
    TEMPORAL_ADDRESS: stack.temporalAddress,
    WORKFLOW_BUNDLE_PATH: stack.bundlePath,
    METRICS_PORT: '0',
    STRICT_ERROR_CODES: '1',
    SECRETS_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: process.env.FUZZ_LOG_LEVEL ?? 'silent',
  });
  const app = await bootstrap(config, createLogger(config.logLevel), { port: 0 });
  try {
    return await fuzzApi(app.url!, opts, out);
  } finally {
    await app.close();
  }
}
