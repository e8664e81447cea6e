/**
 * The service a scenario runs against: the one answering at the URL, or, when nothing answers there, one the runner
 * starts itself with `npm start`'s entry point on that port, with throw-away data, free ports for everything else
 * and business timers compressed, so that a deadline of an hour passes in seconds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { makePostgresTempDir } from '../src/launchers/postgres.ts';
import { freePort } from '../src/launchers/startup.ts';
import { ScenarioError } from './api.ts';

/** Multipliers of the business timers of a service the runner starts: an hour lasts 3.6 s, a locker's five-second door 50 ms. */
export const COMPRESSED_TIMERS = {
  HANDOVER_TIMER_SCALE: '0.001',
  LOCKER_TIMER_SCALE: '0.01',
  NOTIFY_RETRY_SCALE: '0.01',
  WEBHOOK_RETRY_SCALE: '0.01',
};

export interface Service {
  url: string;
  mailUrl: string;
  temporalUi: string;
  /** Whether the runner started it (and so stops it). */
  started: boolean;
  stop(): Promise<void>;
}

/** Whether anything answers HTTP at the URL (a service still starting answers 503). */
export async function answers(url: string): Promise<boolean> {
  const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5_000) }).catch(() => null);
  return res !== null;
}

async function healthy(url: string, child: ChildProcess, log: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const res = await fetch(`${url}/api/health`).catch(() => null);
    if (res?.ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  const tail = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').slice(-15).join('\n') : '';
  throw new ScenarioError(
    `the service the runner started at ${url} did not become healthy; the end of ${log}:\n${tail}`,
  );
}

/** Starts the whole service (PostgreSQL, Temporal, the mail catcher, worker and API) on the URL's port. */
export async function startService(url: string, say: (line: string) => void): Promise<Service> {
  const { hostname, port } = new URL(url);
  if (!['localhost', '127.0.0.1', '[::1]'].includes(hostname))
    throw new ScenarioError(`nothing answers at ${url}, and the runner starts a service only on this machine`);
  const dataDir = makePostgresTempDir('tms-scenario-');
  const log = path.join(dataDir, 'service.log');
  const ports = {
    PG_PORT: await freePort(),
    TEMPORAL_PORT: await freePort(),
    TEMPORAL_UI_PORT: await freePort(),
    MAIL_SMTP_PORT: await freePort(),
    MAIL_WEB_PORT: await freePort(),
  };
  const out = fs.openSync(log, 'a');
  say(
    `Nothing answers at ${url}: starting a service there with compressed business timers (data and log in ${dataDir}).`,
  );
  const child = spawn(process.execPath, [path.resolve(import.meta.dirname, '../src/main/start.ts')], {
    stdio: ['ignore', out, out],
    env: {
      ...process.env,
      PORT: port || '80',
      // The service listens on loopback only; on IPv6's when that is what the URL names.
      HOST: hostname === '[::1]' ? '::1' : '127.0.0.1',
      DATA_DIR: dataDir,
      ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
      METRICS_PORT: '0',
      ...COMPRESSED_TIMERS,
    },
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGINT');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    fs.closeSync(out);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // The first start on a machine may build the Temporal CLI.
    await healthy(url, child, log, 10 * 60_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url,
    mailUrl: `http://localhost:${ports.MAIL_WEB_PORT}`,
    temporalUi: `http://localhost:${ports.TEMPORAL_UI_PORT}`,
    started: true,
    stop,
  };
}
