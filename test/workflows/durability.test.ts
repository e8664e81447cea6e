import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bootstrap } from '../../src/main/bootstrap.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { keepEvents, makeBusiness, PASSWORD } from '../helpers/factories.ts';
import { waitFor } from '../helpers/wait.ts';
import { deviceOrderWorkflowId } from '../../src/modules/device-orders/contract.ts';

describe('durability: timers survive a stopped worker', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp();
  });
  after(() => app.running.close());

  test('every overdue still happens after the worker is stopped and started again', async () => {
    const b = await makeBusiness(app.em());
    await keepEvents(app.em(), b.business.id);
    const admin = await app.login(b.users.admin.email, PASSWORD);
    const dueAt = new Date(Date.now() + 2500).toISOString();
    const ids: number[] = [];
    for (const grid of ['A01', 'A02', 'A03', 'A04']) {
      const res = await app.http.post(
        '/v1/device-orders',
        { kind: 'delivery', device_id: b.device.code, grid_code: grid, reference_number: grid, due_at: dueAt },
        { token: admin },
      );
      assert.equal(res.status, 201);
      ids.push(res.body.device_order.id);
    }
    await app.running.stopWorkers();

    await new Promise((r) => setTimeout(r, 3500));
    const statuses = async () =>
      (
        await app.em().execute<{ status: string }[]>(`select status from device_order where id in (${ids.join(',')})`)
      ).map((r) => r.status);
    assert.deepEqual(await statuses(), ['stored', 'stored', 'stored', 'stored'], 'nothing moves while no worker runs');

    const restarted = await bootstrap(app.config, createLogger('silent'), { api: false, worker: true });
    try {
      await waitFor(async () => (await statuses()).every((s) => s === 'overdue'));
      const events = await app
        .em()
        .execute<{ n: number }[]>(
          `select count(*)::int as n from outbox_event where event_type = 'device_order.overdue' and reference_id in (${ids.map((i) => `'${i}'`).join(',')})`,
        );
      assert.equal(events[0]!.n, 4, 'one overdue event each, no duplicates');
    } finally {
      for (const id of ids)
        await app.running.temporal.workflow
          .getHandle(deviceOrderWorkflowId(id))
          .terminate('test cleanup')
          .catch(() => undefined);
      await restarted.close();
    }
  });
});
