import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { compartmentsOf, insertDevice } from '../../../src/modules/lockers/index.ts';
import { keepEvents, makeBusiness, makeOrder, PASSWORD } from '../../helpers/factories.ts';
import { waitFor } from '../../helpers/wait.ts';
import { deviceOrderWorkflowId } from '../../../src/modules/device-orders/contract.ts';

describe('device orders on Temporal', () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let admin: string;
  let grid = 0;
  const nextGrid = () => ['A01', 'A02', 'A03', 'A04'][grid++ % 4]!;
  const store = (over: Record<string, unknown> = {}, token = admin) =>
    app.http.post(
      '/v1/device-orders',
      {
        kind: 'delivery',
        device_id: b.device.code,
        grid_code: nextGrid(),
        reference_number: 'PKG-1',
        due_at: new Date(Date.now() + 3600_000).toISOString(),
        ...over,
      },
      { token },
    );
  const events = async (id: number) =>
    app
      .em()
      .execute<{ event_id: string; event_type: string; payload: any }[]>(
        "select event_id, event_type, payload from outbox_event where reference_type = 'device_order' and reference_id = ? order by id",
        [String(id)],
      );

  before(async () => {
    app = await startApp({ LOCKER_TIMER_SCALE: '0.0005' });
    b = await makeBusiness(app.em());
    await keepEvents(app.em(), b.business.id);
    admin = await app.login(b.users.admin.email, PASSWORD);
  });
  after(() => app.running.close());

  test('store answers 201 with the pickup code once; collect with it ends the process', async () => {
    const order = await makeOrder(app.em(), b.business.id);
    const res = await store({ order_id: order.id, external_order_id: 'EXT-1', grid_code: 'A01' });
    assert.equal(res.status, 201);
    const d = res.body.device_order;
    assert.match(res.body.pickup_code, /^\d{6}$/);
    assert.deepEqual(
      [d.status, d.next_actor, d.device_id, d.grid_code, d.order_id, d.overdue_at],
      ['stored', 'recipient', b.device.code, 'A01', order.id, null],
    );
    const read = await app.http.get(`/v1/device-orders/${d.id}`, { token: admin });
    assert.equal(read.body.pickup_code, undefined);
    assert.ok(!('pickup_code' in read.body.device_order));
    assert.deepEqual(read.body.device_order, d, 'the stored answer is what the database holds');

    const wrong = await app.http.post(
      `/v1/device-orders/${d.id}/collect`,
      { pickup_code: res.body.pickup_code === '000000' ? '111111' : '000000' },
      { token: admin, lang: 'de' },
    );
    assert.equal(wrong.status, 422);
    assert.equal(wrong.body.errors[0].message, 'Der Abholcode ist falsch.');
    const collected = await app.http.post(
      `/v1/device-orders/${d.id}/collect`,
      { pickup_code: res.body.pickup_code },
      { token: await app.login(b.users.customer.email, PASSWORD) },
    );
    assert.equal(collected.status, 200);
    assert.deepEqual(
      [collected.body.device_order.status, collected.body.device_order.next_actor],
      ['collected', 'none'],
    );
    assert.ok(collected.body.device_order.ended_at);
    const handle = app.running.temporal.workflow.getHandle(deviceOrderWorkflowId(d.id));
    assert.equal(await handle.result(), 'collected');

    const again = await app.http.post(
      `/v1/device-orders/${d.id}/collect`,
      { pickup_code: res.body.pickup_code },
      { token: admin, lang: 'fr' },
    );
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'INVALID_TRANSITION');
    const evs = await events(d.id);
    assert.deepEqual(
      evs.map((e) => e.event_type),
      ['device_order.stored', 'device_order.collected'],
    );
    for (const e of evs) {
      assert.match(e.event_id, /^DOE-\d+$/);
      assert.equal(e.payload.event_id, e.event_id);
      assert.equal(e.payload.data.device_order.id, d.id);
      assert.ok(!JSON.stringify(e.payload).includes('pickup'), 'no pickup code in events');
    }
  });

  test('kind decides whom the parcel awaits', async () => {
    for (const [kind, actor] of [
      ['return', 'courier'],
      ['storage', 'depositor'],
    ]) {
      const res = await store({ kind });
      assert.equal(res.body.device_order.next_actor, actor);
      await app.http.post(
        `/v1/device-orders/${res.body.device_order.id}/remove`,
        { removal_reason: 'handover' },
        { token: admin },
      );
    }
  });

  test('at due_at an uncollected order becomes overdue; the code stays valid; remove still works', async () => {
    const res = await store({ due_at: new Date(Date.now() + 1500).toISOString() });
    const id = res.body.device_order.id;
    const overdue = await waitFor(async () => {
      const r = await app.http.get(`/v1/device-orders/${id}`, { token: admin });
      return r.body.device_order.status === 'overdue' ? r.body.device_order : null;
    });
    assert.equal(overdue.next_actor, 'operator');
    assert.ok(overdue.overdue_at);
    const second = await store({ due_at: new Date(Date.now() + 1000).toISOString() });
    await waitFor(
      async () =>
        (await app.http.get(`/v1/device-orders/${second.body.device_order.id}`, { token: admin })).body.device_order
          .status === 'overdue',
    );
    const collected = await app.http.post(
      `/v1/device-orders/${second.body.device_order.id}/collect`,
      { pickup_code: second.body.pickup_code },
      { token: admin },
    );
    assert.equal(collected.body.device_order.status, 'collected');
    const removed = await app.http.post(
      `/v1/device-orders/${id}/remove`,
      { removal_reason: 'overdue_return' },
      { token: admin },
    );
    assert.equal(removed.status, 200);
    assert.deepEqual(
      [removed.body.device_order.status, removed.body.device_order.removal_reason],
      ['removed', 'overdue_return'],
    );
    // The overdue exception opened by itself and the removal resolved it.
    assert.deepEqual(
      (await events(id)).map((e) => e.event_type),
      [
        'device_order.stored',
        'device_order.overdue',
        'device_order.exception_opened',
        'device_order.removed',
        'device_order.exception_resolved',
      ],
    );
    const list = await app.http.get(`/v1/device-orders?status=removed&device_id=${b.device.code}`, { token: admin });
    assert.ok(list.body.device_orders.some((o: { id: number }) => o.id === id));
    assert.ok(list.body.device_orders.every((o: { status: string }) => o.status === 'removed'));
  });

  test('two stores racing for one compartment: the database lets one in', async () => {
    // A locker of its own: the test below counts the ended processes of the business's first one.
    const locker = await insertDevice(app.em(), {
      businessId: b.business.id,
      code: `RACE-${b.tag}`,
      name: 'Race',
      compartments: compartmentsOf(['R1']),
    });
    const raced = await Promise.all([
      store({ device_id: locker.code, grid_code: 'R1' }),
      store({ device_id: locker.code, grid_code: 'R1' }),
    ]);
    assert.deepEqual(raced.map((r) => r.status).sort(), [201, 409]);
    const won = raced.find((r) => r.status === 201)!;
    const held = await app
      .em()
      .execute<{ device_order_id: number }[]>(
        'select p.device_order_id from compartment_parcel p join compartment c on c.id = p.compartment_id where c.device_id = ? and c.grid_code = ?',
        [locker.id, 'R1'],
      );
    assert.deepEqual(
      held.map((h) => h.device_order_id),
      [won.body.device_order.id],
    );
    await app.http.post(
      `/v1/device-orders/${won.body.device_order.id}/remove`,
      { removal_reason: 'anomaly' },
      { token: admin },
    );
    assert.equal(
      (await app.em().execute('select 1 from compartment_parcel where device_order_id = ?', [won.body.device_order.id]))
        .length,
      0,
      'removing frees it',
    );
  });

  test('one compartment holds one active device order', async () => {
    const first = await store({ grid_code: 'A04' });
    const second = await store({ grid_code: 'A04' });
    assert.equal(second.status, 409);
    assert.equal(second.body.code, 'COMPARTMENT_OCCUPIED');
    // The refused store's process had started while its rows were being written: it was ended, not left waiting.
    const ended = async () => {
      const ids: string[] = [];
      for await (const wf of app.running.temporal.workflow.list({
        query: `DeviceId = '${b.device.code}' AND ExecutionStatus = 'Terminated'`,
      }))
        ids.push(wf.workflowId);
      return ids.length === 1 && ids;
    };
    await waitFor(ended);
    await app.http.post(
      `/v1/device-orders/${first.body.device_order.id}/remove`,
      { removal_reason: 'anomaly' },
      { token: admin },
    );
    const third = await store({ grid_code: 'A04' });
    assert.equal(third.status, 201);
    await app.http.post(
      `/v1/device-orders/${third.body.device_order.id}/remove`,
      { removal_reason: 'anomaly' },
      { token: admin },
    );
  });

  test('bad input answers 422 and writes nothing; wrong role 403; other business 404', async () => {
    const count = async () => (await app.em().execute('select count(*)::int as n from device_order'))[0]!.n;
    const before = await count();
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: 'gift' }, 'kind'],
      [{ device_id: 'NO-SUCH-DEVICE' }, 'device_id'],
      [{ grid_code: 'Z99' }, 'grid_code'],
      [{ due_at: 'tomorrow' }, 'due_at'],
      [{ due_at: new Date(Date.now() - 1000).toISOString() }, 'due_at'],
      [{ reference_number: 'r'.repeat(101) }, 'reference_number'],
      [{ order_id: 2_000_000_000 }, 'order_id'],
      [{ reference_number: undefined }, 'reference_number'],
    ];
    for (const [over, field] of cases) {
      const res = await store(over);
      assert.equal(res.status, 422, JSON.stringify(over));
      assert.ok(
        res.body.errors.some((e: { field: string }) => e.field === field),
        `${field}: ${JSON.stringify(res.body.errors)}`,
      );
    }
    assert.equal(await count(), before);
    const other = await makeBusiness(app.em());
    const otherAdmin = await app.login(other.users.admin.email, PASSWORD);
    assert.equal((await store({ device_id: b.device.code }, otherAdmin)).status, 422);
    const mine = await store();
    const id = mine.body.device_order.id;
    assert.equal((await app.http.get(`/v1/device-orders/${id}`, { token: otherAdmin })).status, 404);
    assert.equal(
      (await app.http.post(`/v1/device-orders/${id}/remove`, { removal_reason: 'handover' }, { token: otherAdmin }))
        .status,
      404,
    );
    assert.equal(
      (
        await app.http.post(
          `/v1/device-orders/${id}/collect`,
          { pickup_code: mine.body.pickup_code },
          { token: otherAdmin },
        )
      ).status,
      404,
    );
    assert.equal((await app.http.get('/v1/device-orders', { token: otherAdmin })).body.total, 0);
    assert.equal((await store({}, await app.login(b.users.customer.email, PASSWORD))).status, 403);
    assert.equal(
      (
        await app.http.post(
          `/v1/device-orders/${id}/remove`,
          { removal_reason: 'handover' },
          { token: await app.login(b.users.driver.email, PASSWORD) },
        )
      ).status,
      403,
    );
    assert.equal(
      (await app.http.post(`/v1/device-orders/${id}/remove`, { removal_reason: 'lost' }, { token: admin })).status,
      422,
    );
    assert.equal((await app.http.get('/v1/device-orders/abc', { token: admin })).status, 422);
    assert.equal((await app.http.get('/v1/device-orders/999999', { token: admin })).status, 404);
    assert.equal((await app.http.get('/v1/device-orders')).status, 401);
    await app.http.post(`/v1/device-orders/${id}/remove`, { removal_reason: 'handover' }, { token: admin });
  });

  test('workflows are searchable by business, device and status', async () => {
    const res = await store();
    const id = res.body.device_order.id;
    await app.http.post(`/v1/device-orders/${id}/remove`, { removal_reason: 'recovery' }, { token: admin });
    const found = await waitFor(async () => {
      const ids: string[] = [];
      for await (const wf of app.running.temporal.workflow.list({
        query: `BusinessId = ${b.business.id} AND DeviceId = '${b.device.code}' AND DeviceOrderStatus = 'removed'`,
      }))
        ids.push(wf.workflowId);
      return ids.includes(deviceOrderWorkflowId(id)) ? ids : null;
    });
    assert.ok(found.length >= 1);
  });
});
