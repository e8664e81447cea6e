// An order's cancellation waiting for its delivery provider survives a killed worker (docs/orders.md, "Cancellation
// and deletion"): the worker runs as its own OS process and is killed (SIGKILL) while two requests wait. The provider
// accepts one while no worker runs; the other's deadline passes while none runs. A new worker settles both: the
// accepted order is cancelled once (one status change, one trail row, one order.cancelled, its assignment ended once)
// and the unanswered one is refused once (one order.cancel_failed, one trail row). An order cancelled at once while no
// worker runs is answered at once, and its package leaves its distribution once a worker is back (the work after the
// commit is its process's, never lost). Real parts: the suite's Temporal, PostgreSQL, the API over HTTP.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { orderCancellationWorkflowId } from '../../src/modules/order-cancellation/contract.ts';
import type { orderCancellationWorkflow } from '../../src/modules/order-cancellation/workflows.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { keepEvents, makeBusiness, makeOrder, makeProvider, PASSWORD } from '../helpers/factories.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { spawnRole, stopChild } from '../helpers/roles.ts';
import { waitFor } from '../helpers/wait.ts';

// The provider's 30 minutes last 18 s: long enough for a worker to come back before the accepted one's deadline.
const ENV = { CANCEL_PROVIDER_TIMER_SCALE: '0.01' };

describe("an order's cancellation survives a killed worker", () => {
  const children = new Set<ChildProcess>();
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  before(async () => {
    receiver = await startReceiver();
    // The API only: the worker runs in a child process the test kills.
    app = await startApp(ENV, { worker: false });
  });
  after(async () => {
    for (const child of children) await stopChild(child, 'SIGKILL');
    await app?.running.close();
    await receiver?.close();
  });

  const count = async (sql: string, params: unknown[]) =>
    (await app.em().execute<{ n: number }[]>(`select count(*)::int as n ${sql}`, params))[0]!.n;

  test(
    'a SIGKILL mid-wait loses no answer and no deadline, and writes each outcome once',
    { timeout: 180_000 },
    async () => {
      const b = await makeBusiness(app.em());
      await keepEvents(app.em(), b.business.id);
      const admin = await app.login(b.users.admin.email, PASSWORD);
      const p = await makeProvider(app.em(), 'delivery_provider');
      const providerToken = await app.login(p.user.email, PASSWORD);
      assert.equal(
        (
          await app.http.put(
            '/v1/provider/webhook-settings',
            { url: `${receiver.url}/provider` },
            { token: providerToken },
          )
        ).status,
        200,
      );
      let worker = await spawnRole('worker', ENV, children);

      const held = async () => {
        const order = await makeOrder(app.em(), b.business.id);
        const res = await app.http.post(
          '/v1/third-party-assignments',
          { order_id: order.id, provider_code: p.business.code, handover_deadline_hours: 100 },
          { token: admin },
        );
        assert.equal(res.status, 201, JSON.stringify(res.body));
        const cancel = await app.http.post(`/v1/orders/${order.id}/cancel`, {}, { token: admin });
        assert.equal(cancel.status, 202, JSON.stringify(cancel.body));
        return {
          orderId: order.id,
          number: res.body.assignment.number as string,
          deadline: Date.parse(cancel.body.cancellation.answer_deadline),
        };
      };
      const toAccept = await held();
      const unanswered = await held();
      // The worker's relay has told the provider of both requests: the processes are waiting.
      await waitFor(async () => {
        const asked = receiver.received
          .map((r) => JSON.parse(r.body))
          .filter((e) => e.event === 'delivery.assignment.cancel_requested');
        return asked.length === 2;
      }, 30_000);
      await stopChild(worker.child, 'SIGKILL');

      // The provider accepts while no worker runs: the answer waits for one.
      const answering = app.http.post(
        `/v1/provider/third-party-assignments/${toAccept.number}/cancel-request`,
        { accept: true },
        { token: providerToken },
      );
      // The other's deadline passes while no worker runs.
      await new Promise((r) => setTimeout(r, Math.max(0, unanswered.deadline - Date.now()) + 500));
      worker = await spawnRole('worker', ENV, children);
      const answer = await answering;
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.cancellation.status, 'cancelled');

      const handle = (orderId: number) =>
        app.running.temporal.workflow.getHandle<typeof orderCancellationWorkflow>(orderCancellationWorkflowId(orderId));
      assert.equal(await handle(toAccept.orderId).result(), 'cancelled');
      assert.equal(await handle(unanswered.orderId).result(), 'timed_out');

      // Cancelled once.
      const a = toAccept.orderId;
      assert.equal(await count('from delivery_order where id = ? and status_id = 5', [a]), 1);
      assert.equal(await count('from order_status_change where order_id = ? and after_status = 5', [a]), 1);
      assert.equal(await count('from order_operation_event where order_id = ? and operation_type = 3041', [a]), 1);
      assert.equal(
        await count("from outbox_event where reference_id = ? and event_type = 'order.cancelled'", [String(a)]),
        1,
      );
      await waitFor(
        async () =>
          (await count("from third_party_assignment where number = ? and status = 'cancelled'", [toAccept.number])) ===
          1,
      );
      assert.equal(
        await count("from outbox_event where reference_id = ? and event_type = 'delivery.assignment.cancelled'", [
          toAccept.number,
        ]),
        1,
      );
      // Refused once.
      const u = unanswered.orderId;
      assert.equal(await count('from delivery_order where id = ? and status_id = 1', [u]), 1);
      assert.equal(await count('from order_operation_event where order_id = ? and operation_type = 3042', [u]), 1);
      assert.equal(
        await count("from outbox_event where reference_id = ? and event_type = 'order.cancel_failed'", [String(u)]),
        1,
      );
      assert.equal(await count('from order_cancellation where order_id in (?, ?) and ended_at is not null', [a, u]), 2);
      await stopChild(worker.child, 'SIGTERM');
    },
  );

  test(
    'an order cancelled at once while no worker runs leaves its distribution once one is back',
    { timeout: 180_000 },
    async () => {
      const b = await makeBusiness(app.em());
      const admin = await app.login(b.users.admin.email, PASSWORD);
      const staff = await app.login(b.users.employee.email, PASSWORD);
      const carrier = await makeProvider(app.em(), 'delivery_provider');
      const place = { name: 'RWH', kind: 'warehouse', code: 'RWH' };
      assert.equal((await app.http.post('/v1/places', place, { token: admin })).status, 201);
      const account = { carrier_code: carrier.business.code, member_number: 'M-R' };
      assert.equal((await app.http.post('/v1/carrier-supplier-accounts', account, { token: admin })).status, 201);
      const order = await makeOrder(app.em(), b.business.id, { carrierProviderId: carrier.business.id });
      const number = order.trackingNumber;
      let worker = await spawnRole('worker', ENV, children);
      const received = await app.http.post(
        '/v1/distribution/scans',
        { package_number: number, action: 'received', location: 'RWH', scanned_at: new Date().toISOString() },
        { token: staff },
      );
      assert.equal(received.body.package?.status, 'created', JSON.stringify(received.body));
      await stopChild(worker.child, 'SIGKILL');

      // The cancellation commits and answers without a worker: the work after its commit is its process's.
      const res = await app.http.post(`/v1/orders/${order.id}/cancel`, {}, { token: admin });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(await count('from delivery_order where id = ? and status_id = 5', [order.id]), 1);

      worker = await spawnRole('worker', ENV, children);
      const removed = await waitFor(async () => {
        const got = await app.http.get(`/v1/distribution/packages/${number}`, { token: staff });
        return got.body.distribution?.status === 'removed' ? got.body : null;
      }, 60_000);
      assert.equal(removed.distribution.removal_reason, 'cancelled');
      const handle = app.running.temporal.workflow.getHandle<typeof orderCancellationWorkflow>(
        orderCancellationWorkflowId(order.id),
      );
      assert.equal(await handle.result(), 'cancelled');
      assert.equal(
        await count(
          "from distribution_scan s join order_package p on p.id = s.package_id where p.package_number = ? and s.action = 'removed'",
          [number],
        ),
        1,
      );
      await stopChild(worker.child, 'SIGTERM');
    },
  );
});
