// Partner locker timers survive the worst: the worker killed (SIGKILL) and the Temporal server restarted while
// deliveries wait on their delivery-code and pickup expiries. Every expiry still happens, once. Real parts: a
// Temporal dev server persisted in SQLite, the worker as its own OS process, PostgreSQL, the API over HTTP.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { freePort } from '../../src/launchers/startup.ts';
import { startTemporalDevServer, type DevServer } from '../../src/launchers/temporalServer.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { lockerWorld } from '../helpers/lockerWorld.ts';
import { spawnRole, stopChild } from '../helpers/roles.ts';
import { waitFor } from '../helpers/wait.ts';

// An hour lasts 3.6 s: the delivery code and the pickup expire 3.6 s after they start.
const SCALE = '0.001';

describe('locker delivery timers survive a killed worker and a restarted Temporal server', () => {
  const log = createLogger('silent');
  const children = new Set<ChildProcess>();
  let dir: string;
  let port: number;
  let server: DevServer;
  let app: TestApp;
  const startServer = () =>
    startTemporalDevServer(
      {
        port,
        uiPort: 0,
        namespace: process.env.TEMPORAL_NAMESPACE ?? 'default',
        headless: true,
        dbFile: path.join(dir, 'temporal.db'),
      },
      log,
    );
  const spawnWorker = async () =>
    (await spawnRole('worker', { TEMPORAL_ADDRESS: server.address, LOCKER_TIMER_SCALE: SCALE }, children)).child;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tms-locker-restart-'));
    port = await freePort();
    server = await startServer();
    // The API only: the worker runs in a child process the test kills.
    app = await startApp({ TEMPORAL_ADDRESS: server.address, LOCKER_TIMER_SCALE: SCALE }, { worker: false });
  });
  after(async () => {
    for (const child of children) await stopChild(child, 'SIGKILL');
    await app?.running.close();
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('every delivery code and every deposit expires once after the restarts', { timeout: 180_000 }, async () => {
    const w = await lockerWorld(app, { delivery_code_ttl_hours: 1, pickup_ttl_hours: 1 });
    const first = await spawnWorker();
    const unused: number[] = [];
    const deposited: number[] = [];
    try {
      for (let i = 0; i < 2; i++) unused.push((await w.deliver('screen_code')).id);
      for (let i = 0; i < 2; i++) {
        const d = await w.deliver('remote_open');
        assert.equal((await w.act(d.id, 'open')).status, 200);
        assert.equal((await w.act(d.id, 'confirm')).status, 200);
        deposited.push(d.id);
      }
      await stopChild(first, 'SIGKILL');
      await server.stop();
      // Past every expiry while nothing runs; then the server comes back with its timers, and a new worker.
      await new Promise((r) => setTimeout(r, 4_000));
      const ids = [...unused, ...deposited];
      const statuses = async () =>
        (
          await app
            .em()
            .execute<{ status: string }[]>(
              `select status from locker_delivery where id in (${ids.join(',')}) order by id`,
            )
        ).map((r) => r.status);
      assert.deepEqual(
        await statuses(),
        ['awaiting_deposit', 'awaiting_deposit', 'delivered', 'delivered'],
        'nothing moved while nothing ran',
      );
      server = await startServer();
      const second = await spawnWorker();
      try {
        await waitFor(async () => (await statuses()).every((s) => s === 'expired'), 90_000, 250);
        const expiries = await app
          .em()
          .execute<{ delivery_id: number; n: number }[]>(
            `select delivery_id, count(*)::int as n from locker_delivery_event where event_type = 'partner_locker.delivery.expired' and delivery_id in (${ids.join(',')}) group by delivery_id order by delivery_id`,
          );
        assert.deepEqual(
          expiries.map((e) => e.n),
          [1, 1, 1, 1],
          'one expiry each',
        );
        for (const id of unused)
          assert.equal((await w.event(id, 'partner_locker.delivery.expired')).data.expired, 'delivery_code');
        for (const id of deposited)
          assert.equal((await w.event(id, 'partner_locker.delivery.expired')).data.expired, 'deposit');
        for (const id of ids) assert.equal(await w.held(id), 0, 'the compartments are free');
      } finally {
        await stopChild(second, 'SIGTERM');
      }
    } finally {
      await w.receiver.close();
    }
  });
});
