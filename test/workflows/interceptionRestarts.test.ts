// An order interception survives a killed worker (docs/orders.md, "Interception"): the worker runs as its own OS
// process and is killed (SIGKILL) mid-way, once right after the parcel's warehouse scan reached the process, once
// while an interception waits for its deadline; new workers carry both to their end, and every step was written
// once: one status change, one trail row and one event per step, each event received (a delivery the kill cut short
// is sent again with its event id: at least once, as docs/webhooks.md promises). Real parts: the suite's
// Temporal, PostgreSQL, the API over HTTP, a real receiver.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { ORDER_STATUS } from '../../src/modules/orders/index.ts';
import { interceptionWorkflowId } from '../../src/modules/order-interception/contract.ts';
import type { orderInterceptionWorkflow } from '../../src/modules/order-interception/workflows.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { makeBusiness, makeOrder, PASSWORD } from '../helpers/factories.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { spawnRole, stopChild } from '../helpers/roles.ts';
import { waitFor } from '../helpers/wait.ts';

/** 72 hours to be held last about 26 s here. */
const ENV = { INTERCEPTION_TIMER_SCALE: '0.0001' };

describe('an order interception survives a killed worker', () => {
  const children = new Set<ChildProcess>();
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  before(async () => {
    receiver = await startReceiver();
    // The API only: the workers run in child processes the test kills.
    app = await startApp(ENV, { worker: false });
  });
  after(async () => {
    for (const child of children) await stopChild(child, 'SIGKILL');
    await app?.running.close();
    await receiver?.close();
  });

  test('a SIGKILL mid-way loses no step and doubles none', { timeout: 240_000 }, async () => {
    const b = await makeBusiness(app.em());
    const admin = await app.login(b.users.admin.email, PASSWORD);
    const put = await app.http.put(
      '/v1/webhook-settings',
      { webhook_sign_secret: 'restart-secret-0123456789abcdef', order_intercept_webhook_url: `${receiver.url}/i` },
      { token: admin },
    );
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const warehouse = `WH-${b.tag}`;
    assert.equal(
      (await app.http.post('/v1/places', { name: 'WH', kind: 'warehouse', code: warehouse }, { token: admin })).status,
      201,
    );
    const held = await makeOrder(app.em(), b.business.id, { statusId: ORDER_STATUS.ON_THE_WAY });
    const waiting = await makeOrder(app.em(), b.business.id, { statusId: ORDER_STATUS.ON_THE_WAY });

    let worker = await spawnRole('worker', ENV, children);
    const idOf: Record<number, number> = {};
    for (const o of [held, waiting]) {
      const res = await app.http.post(
        `/v1/orders/${o.id}/interception`,
        { outcome: 'return_to_sender' },
        { token: admin },
      );
      assert.deepEqual([res.status, res.body.interception?.state], [201, 'in_effect'], JSON.stringify(res.body));
      idOf[o.id] = res.body.interception.id;
    }
    // The scan commits and signals the process; the worker is killed at once, in the middle of the held step or
    // before it.
    const scan = await app.http.post(
      '/v1/distribution/scans',
      {
        package_number: held.trackingNumber,
        action: 'received',
        location: warehouse,
        scanned_at: new Date().toISOString(),
      },
      { token: admin },
    );
    assert.equal(scan.status, 200, JSON.stringify(scan.body));
    await stopChild(worker.child, 'SIGKILL');
    worker = await spawnRole('worker', ENV, children);

    const state = async (id: number) =>
      (await app.http.get(`/v1/orders/${id}/interception`, { token: admin })).body.interception.state as string;
    // A step the killed worker had begun is retried once its activity's start-to-close timeout (30 s) has passed, by
    // a worker that boots meanwhile: a minute and more on a loaded machine.
    await waitFor(async () => (await state(held.id)) === 'held_at_warehouse', 120_000);
    const done = await app.http.post(`/v1/orders/${held.id}/interception/execute`, {}, { token: admin });
    assert.equal(done.status, 200, JSON.stringify(done.body));

    // Killed again while the other waits for its deadline: the timer is the server's, and the next worker ends it.
    await stopChild(worker.child, 'SIGKILL');
    const handle = app.running.temporal.workflow.getHandle<typeof orderInterceptionWorkflow>(
      interceptionWorkflowId(waiting.id),
    );
    const deadline = new Date(
      (await app.http.get(`/v1/orders/${waiting.id}/interception`, { token: admin })).body.interception
        .hold_deadline as string,
    );
    await waitFor(async () => Date.now() > deadline.getTime(), 60_000, 500);
    worker = await spawnRole('worker', ENV, children);
    assert.equal((await handle.result()).state, 'failed');

    const count = async (sql: string, id: number) =>
      (await app.em().execute<{ k: string | number; n: number }[]>(sql, [id])).map((r) => [r.k, r.n]);
    const expected = {
      [held.id]: {
        status: [ORDER_STATUS.ON_THE_WAY, 48, ORDER_STATUS.RETURNED_TO_SENDER],
        trail: [1001, 3046, 3043, 3046, 3044],
        events: ['requested', 'in_effect', 'held_at_warehouse', 'outcome_executed'],
      },
      [waiting.id]: {
        status: [ORDER_STATUS.ON_THE_WAY, 48, ORDER_STATUS.ON_THE_WAY],
        trail: [1001, 3046, 3043, 3047],
        events: ['requested', 'in_effect', 'failed'],
      },
    };
    for (const o of [held, waiting]) {
      const want = expected[o.id]!;
      assert.deepEqual(
        (
          await app
            .em()
            .execute<{ after_status: number }[]>(
              'select after_status from order_status_change where order_id = ? order by id',
              [o.id],
            )
        ).map((r) => r.after_status),
        want.status,
        'each status change once',
      );
      assert.deepEqual(
        (
          await app
            .em()
            .execute<{ operation_type: number }[]>(
              'select operation_type from order_operation_event where order_id = ? order by id',
              [o.id],
            )
        ).map((r) => r.operation_type),
        want.trail,
        'each trail row once',
      );
      assert.deepEqual(
        await count(
          "select event_type as k, count(*)::int as n from outbox_event where reference_type = 'order' and reference_id = ?::text and event_type like 'order.intercept.%' group by event_type order by min(id)",
          o.id,
        ),
        want.events.map((e) => [`order.intercept.${e}`, 1]),
        'each event written once',
      );
      const received = await waitFor(async () => {
        const got = receiver.received.map((r) => JSON.parse(r.body)).filter((e) => e.data?.order?.id === o.id);
        const ids = new Set(got.map((e) => e.event_id as string));
        return ids.size >= want.events.length ? ids : null;
      });
      assert.deepEqual(
        [...received].sort(),
        want.events.map((e) => `ICP-${idOf[o.id]}.${e}`).sort(),
        'each event received, a resent one with its own id',
      );
    }
    await stopChild(worker.child, 'SIGTERM');
  });
});
