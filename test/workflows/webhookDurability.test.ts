import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bootstrap } from '../../src/main/bootstrap.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { verifyWebhook } from '../../src/modules/webhooks/verify.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { makeBusiness, PASSWORD } from '../helpers/factories.ts';
import { freePort } from '../../src/launchers/startup.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { waitFor } from '../helpers/wait.ts';

const SECRET = 'durable-secret-0123456789';

describe('durability: no webhook is lost while the receiver is down and the worker stops', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ WEBHOOK_RETRY_SCALE: '0.001' });
  });
  after(() => app.running.close());

  test('events stored while the receiver is down arrive, signed, once it is back and the worker has restarted', async () => {
    const b = await makeBusiness(app.em());
    const admin = await app.login(b.users.admin.email, PASSWORD);
    const port = await freePort();
    await app.http.put(
      '/v1/webhook-settings',
      { webhook_sign_secret: SECRET, device_order_webhook_url: `http://127.0.0.1:${port}/hook` },
      { token: admin },
    );
    const ids: number[] = [];
    for (const grid of ['A01', 'A02', 'A03']) {
      const res = await app.http.post(
        '/v1/device-orders',
        {
          kind: 'delivery',
          device_id: b.device.code,
          grid_code: grid,
          reference_number: grid,
          due_at: new Date(Date.now() + 3600_000).toISOString(),
        },
        { token: admin },
      );
      assert.equal(res.status, 201);
      ids.push(res.body.device_order.id);
    }
    const deliveries = async () =>
      app
        .em()
        .execute<
          { id: number; event_id: string; status: string; attempts: number; retry_workflow_id: string | null }[]
        >(
          `select d.id, d.event_id, d.status, d.attempts, d.retry_workflow_id from webhook_delivery d join outbox_event o on o.id = d.outbox_event_id
       where o.reference_type = 'device_order' and o.reference_id in (${ids.map((i) => `'${i}'`).join(',')}) order by d.id`,
        );
    // Receiver down: every first attempt is refused and a retry workflow takes over.
    await waitFor(async () => {
      const d = await deliveries();
      return d.length === 3 && d.every((x) => x.retry_workflow_id && x.attempts >= 1) && d;
    });

    for (const service of app.running.services.splice(0)) await service.stop();
    await app.running.stopWorkers();

    const receiver = await startReceiver(() => 200, port);
    try {
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(receiver.received.length, 0, 'nothing is sent while no worker runs');
      assert.ok((await deliveries()).every((d) => d.status === 'retrying'));

      const restarted = await bootstrap(app.config, createLogger('silent'), { api: false, worker: true });
      try {
        const done = await waitFor(async () => {
          const d = await deliveries();
          return d.every((x) => x.status === 'delivered') && d;
        }, 30_000);
        const eventIds = new Set(done.map((d) => d.event_id));
        for (const r of receiver.received) {
          assert.deepEqual(verifyWebhook({ sender: 'tenant', secret: SECRET, headers: r.headers, rawBody: r.body }), {
            valid: true,
          });
          assert.ok(eventIds.has(JSON.parse(r.body).event_id));
        }
        assert.deepEqual(
          new Set(receiver.received.map((r) => JSON.parse(r.body).event_id)),
          eventIds,
          'every event arrived',
        );
      } finally {
        await restarted.close();
      }
    } finally {
      await receiver.close();
    }
  });
});

describe('durability: the relay listens again when its LISTEN connection is lost', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp();
  });
  after(() => app.running.close());

  const listeners = async () =>
    (
      await app
        .em()
        .execute<{ pid: number }[]>(
          "select pid from pg_stat_activity where datname = current_database() and query = 'listen outbox_event'",
        )
    ).map((r) => r.pid);

  // Would fail if a lost LISTEN connection were not replaced: events would then wait for the 5 s sweep forever after.
  test('a terminated listener connection is replaced, and events are delivered after it', async () => {
    const [before] = await waitFor(async () => {
      const pids = await listeners();
      return pids.length === 1 && pids;
    });
    await app.em().execute('select pg_terminate_backend(?)', [before]);
    const [replacement] = await waitFor(async () => {
      const pids = await listeners();
      return pids.length === 1 && pids[0] !== before && pids;
    }, 15_000);
    assert.notEqual(replacement, before);

    const b = await makeBusiness(app.em());
    const admin = await app.login(b.users.admin.email, PASSWORD);
    const receiver = await startReceiver(() => 200);
    try {
      await app.http.put(
        '/v1/webhook-settings',
        {
          webhook_sign_secret: SECRET,
          device_order_webhook_url: receiver.url,
          device_order_events: 'device_order.stored',
        },
        { token: admin },
      );
      await app.http.post(
        '/v1/device-orders',
        {
          kind: 'delivery',
          device_id: b.device.code,
          grid_code: 'A01',
          reference_number: 'RELISTEN',
          due_at: new Date(Date.now() + 3600_000).toISOString(),
        },
        { token: admin },
      );
      await waitFor(async () => receiver.received.length === 1);
      assert.deepEqual(
        verifyWebhook({
          sender: 'tenant',
          secret: SECRET,
          headers: receiver.received[0]!.headers,
          rawBody: receiver.received[0]!.body,
        }),
        { valid: true },
      );
    } finally {
      await receiver.close();
    }
  });
});
