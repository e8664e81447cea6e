// An auto-assign offer survives a killed worker (docs/routes.md, "Dispatch and the driver's day"): the worker runs as
// its own OS process and is killed (SIGKILL) while the offer waits for the driver. The driver accepts while no worker
// runs; a new worker applies the answer once: one offer, one order.assigned, one order.accepted, one trail row each.
// The driver's report of the delivery, sent while no worker runs either, is applied once by the next worker.
// Real parts: the suite's Temporal, PostgreSQL, the API over HTTP.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { autoAssignQuery, autoAssignWorkflowId } from '../../src/modules/dispatch/contract.ts';
import type { autoAssignWorkflow } from '../../src/modules/dispatch/workflows.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { spawnRole, stopChild } from '../helpers/roles.ts';
import { waitFor } from '../helpers/wait.ts';
import { dispatchWorld } from '../modules/dispatch/world.ts';

describe('an auto-assign offer survives a killed worker', () => {
  const children = new Set<ChildProcess>();
  let app: TestApp;

  before(async () => {
    // The API only: the worker runs in a child process the test kills.
    app = await startApp({}, { worker: false });
  });
  after(async () => {
    for (const child of children) await stopChild(child, 'SIGKILL');
    await app?.running.close();
  });

  const count = async (sql: string, params: unknown[]) =>
    (await app.em().execute<{ n: number }[]>(`select count(*)::int as n ${sql}`, params))[0]!.n;

  test('a SIGKILL during the offer loses no answer and writes each step once', { timeout: 180_000 }, async () => {
    const w = await dispatchWorld(app);
    try {
      let worker = await spawnRole('worker', {}, children);
      const driver = await w.driver({ position: { lat: 48.86, lng: 2.35 } });
      const o = await w.order();
      const started = await app.http.post(
        '/v1/dispatch/auto-assign',
        { order_id: o.id, offer_timeout_seconds: 600 },
        { token: w.admin },
      );
      assert.equal(started.status, 202, JSON.stringify(started.body));
      await waitFor(async () => {
        const res = await app.http.get('/v1/driver/offers', { token: driver.token });
        return res.body.offers.length === 1;
      }, 30_000);
      // The process knows its offer (the activity's completion is recorded) before the worker dies.
      const handle = app.running.temporal.workflow.getHandle<typeof autoAssignWorkflow>(autoAssignWorkflowId(o.id));
      await waitFor(async () => (await handle.query(autoAssignQuery)).state === 'offering', 30_000);
      await stopChild(worker.child, 'SIGKILL');

      // The driver accepts while no worker runs: the answer waits for one.
      const answering = app.http.post(`/v1/driver/offers/${o.id}/accept`, {}, { token: driver.token });
      await new Promise((r) => setTimeout(r, 1_000));
      worker = await spawnRole('worker', {}, children);
      const answer = await answering;
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.offer.status, 'accepted');
      assert.equal(await handle.result(), 'accepted');

      // The delivery reported while no worker runs: the first report starts the route's process once one is back.
      await stopChild(worker.child, 'SIGKILL');
      const reporting = app.http.post(
        `/v1/driver/orders/${o.id}/report`,
        { step: 'completed' },
        { token: driver.token },
      );
      await new Promise((r) => setTimeout(r, 1_000));
      worker = await spawnRole('worker', {}, children);
      const reported = await reporting;
      assert.equal(reported.status, 200, JSON.stringify(reported.body));
      assert.equal(reported.body.applied, true);
      const again = await app.http.post(
        `/v1/driver/orders/${o.id}/report`,
        { step: 'completed' },
        { token: driver.token },
      );
      assert.equal(again.body.applied, false);

      const ref = String(o.id);
      assert.equal(await count('from dispatch_offer where order_id = ?', [o.id]), 1);
      for (const event of ['order.assigned', 'order.accepted', 'order.completed'])
        assert.equal(
          await count('from outbox_event where reference_id = ? and event_type = ?', [ref, event]),
          1,
          event,
        );
      for (const op of [3085, 4001, 4014])
        assert.equal(
          await count('from order_operation_event where order_id = ? and operation_type = ?', [o.id, op]),
          1,
        );
      assert.equal(await count('from order_status_change where order_id = ? and after_status = 3', [o.id]), 1);
      // The events reach the receiver through the new worker's relay.
      await w.eventAt('/lifecycle', 'order.accepted', o.id);
      await w.eventAt('/lifecycle', 'order.completed', o.id);
      await stopChild(worker.child, 'SIGTERM');
    } finally {
      await w.receiver.close();
    }
  });
});
