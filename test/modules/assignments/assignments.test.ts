import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ORDER_STATUS } from '../../../src/modules/orders/domain.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeOrder, PASSWORD } from '../../helpers/factories.ts';

describe('contractor order assignments (A1)', () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  const tokens: Record<string, string> = {};
  const countActive = async (orderId: number) =>
    (
      await app
        .em()
        .execute("select count(*)::int as n from broker_order_assignment where order_id = ? and status = 'active'", [
          orderId,
        ])
    )[0]!.n as number;

  before(async () => {
    app = await startApp({}, { worker: false });
    b = await makeBusiness(app.em());
    for (const [k, u] of Object.entries(b.users)) tokens[k] = await app.login(u.email, PASSWORD);
  });
  after(() => app.running.close());

  test('assign: refusals per order, translated, with counts; then list newest first', async () => {
    const em = app.em();
    const ok = await makeOrder(em, b.business.id);
    const onRoute = await makeOrder(em, b.business.id, { routeId: 7 });
    const label = await makeOrder(em, b.business.id, { selfDelivery: false });
    const delivered = await makeOrder(em, b.business.id, { statusId: ORDER_STATUS.DELIVERED });
    const held = await makeOrder(em, b.business.id, { carrierProviderId: b.business.id });
    const res = await app.http.post(
      '/v1/broker-order-assignments',
      { order_ids: [ok.id, onRoute.id, label.id, delivered.id, held.id], broker_id: b.users.broker.id, note: 'urgent' },
      { token: tokens.admin, lang: 'de' },
    );
    assert.equal(res.status, 200);
    assert.equal(res.body.result, true);
    assert.equal(res.body.assigned, 1);
    assert.equal(res.body.skipped, 4);
    assert.deepEqual(res.body.errors, [
      { order_id: onRoute.id, message: 'Der Auftrag ist bereits auf einer Route.' },
      { order_id: label.id, message: 'Der Auftrag ist kein Eigenzustellungsauftrag.' },
      { order_id: delivered.id, message: 'Der Auftrag hat keinen zuweisbaren Status.' },
      { order_id: held.id, message: 'Der Auftrag liegt bei einem Drittanbieter-Spediteur.' },
    ]);
    const list = await app.http.get(`/v1/broker-order-assignments?order_id=${ok.id}`, { token: tokens.employee });
    assert.equal(list.status, 200);
    assert.equal(list.body.total, 1);
    const a = list.body.assignments[0];
    assert.equal(a.status, 'active');
    assert.equal(a.note, 'urgent');
    assert.equal(a.broker_name, b.users.broker.name);
    assert.equal(a.order_status_id, ORDER_STATUS.NEW_ORDER);
    assert.equal(a.assigned_by, b.users.admin.id);
    assert.match(a.assigned_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.equal(a.ended_at, null);
  });

  test('an order held by another contractor moves in one step; history keeps both', async () => {
    const order = await makeOrder(app.em(), b.business.id);
    await app.http.post(
      '/v1/broker-order-assignments',
      { order_ids: [order.id], broker_id: b.users.broker.id },
      { token: tokens.admin },
    );
    const moved = await app.http.post(
      '/v1/broker-order-assignments',
      { order_ids: [order.id], broker_id: b.users.broker2.id },
      { token: tokens.admin },
    );
    assert.equal(moved.body.assigned, 1);
    const list = await app.http.get(`/v1/broker-order-assignments?order_id=${order.id}`, { token: tokens.admin });
    assert.deepEqual(
      list.body.assignments.map((a: { broker_id: number; status: string }) => [a.broker_id, a.status]),
      [
        [b.users.broker2.id, 'active'],
        [b.users.broker.id, 'revoked'],
      ],
    );
    assert.equal(list.body.assignments[1].ended_by, b.users.admin.id);
    const again = await app.http.post(
      '/v1/broker-order-assignments',
      { order_ids: [order.id], broker_id: b.users.broker2.id },
      { token: tokens.admin },
    );
    assert.deepEqual([again.body.result, again.body.assigned, again.body.skipped], [false, 0, 1]);
  });

  test('a contractor sees only its own assignments, whatever broker_id it sends', async () => {
    const o1 = await makeOrder(app.em(), b.business.id);
    const o2 = await makeOrder(app.em(), b.business.id);
    await app.http.post(
      '/v1/broker-order-assignments',
      { order_ids: [o1.id], broker_id: b.users.broker.id },
      { token: tokens.admin },
    );
    await app.http.post(
      '/v1/broker-order-assignments',
      { order_ids: [o2.id], broker_id: b.users.broker2.id },
      { token: tokens.admin },
    );
    const mine = await app.http.get(`/v1/broker-order-assignments?broker_id=${b.users.broker2.id}&per_page=200`, {
      token: tokens.broker,
    });
    assert.equal(mine.status, 200);
    assert.ok(mine.body.assignments.length > 0);
    assert.ok(mine.body.assignments.every((a: { broker_id: number }) => a.broker_id === b.users.broker.id));
  });

  test('revoke and release set ended_by, ended_at and end_reason; on-route and foreign orders are refused', async () => {
    const o = await makeOrder(app.em(), b.business.id);
    const routed = await makeOrder(app.em(), b.business.id);
    await app.http.post(
      '/v1/broker-order-assignments',
      { order_ids: [o.id, routed.id], broker_id: b.users.broker.id },
      { token: tokens.admin },
    );
    await app.em().execute('update delivery_order set route_id = 99 where id = ?', [routed.id]);
    const revoked = await app.http.post(
      '/v1/broker-order-assignments/revoke',
      { order_ids: [o.id, routed.id], reason: 'customer call' },
      { token: tokens.admin, lang: 'zh-Hans' },
    );
    assert.deepEqual(
      { ...revoked.body, errors: revoked.body.errors },
      { result: true, revoked: 1, skipped: 1, errors: [{ order_id: routed.id, message: '该订单已在路线上。' }] },
    );
    const row = (await app.http.get(`/v1/broker-order-assignments?order_id=${o.id}`, { token: tokens.admin })).body
      .assignments[0];
    assert.deepEqual([row.status, row.ended_by, row.end_reason], ['revoked', b.users.admin.id, 'customer call']);
    assert.ok(row.ended_at);

    const r = await makeOrder(app.em(), b.business.id);
    await app.http.post(
      '/v1/broker-order-assignments',
      { order_ids: [r.id], broker_id: b.users.broker.id },
      { token: tokens.admin },
    );
    const notYours = await app.http.post(
      '/v1/broker-order-assignments/release',
      { order_id: r.id },
      { token: tokens.broker2 },
    );
    assert.equal(notYours.status, 400);
    const released = await app.http.post(
      '/v1/broker-order-assignments/release',
      { order_id: r.id, reason: 'no capacity' },
      { token: tokens.broker, lang: 'fr' },
    );
    assert.deepEqual(released.body, { result: true, message: "L'attribution a été libérée." });
    const onRoute = await app.http.post(
      '/v1/broker-order-assignments/release',
      { order_id: routed.id },
      { token: tokens.broker },
    );
    assert.equal(onRoute.status, 400);
  });

  test('roles: who may do what', async () => {
    const o = await makeOrder(app.em(), b.business.id);
    const assign = { order_ids: [o.id], broker_id: b.users.broker.id };
    for (const who of ['employee', 'broker', 'driver', 'customer']) {
      assert.equal(
        (await app.http.post('/v1/broker-order-assignments', assign, { token: tokens[who] })).status,
        403,
        who,
      );
      assert.equal(
        (await app.http.post('/v1/broker-order-assignments/revoke', { order_ids: [o.id] }, { token: tokens[who] }))
          .status,
        403,
        who,
      );
    }
    for (const who of ['admin', 'employee', 'driver']) {
      assert.equal(
        (await app.http.post('/v1/broker-order-assignments/release', { order_id: o.id }, { token: tokens[who] }))
          .status,
        403,
        who,
      );
    }
    for (const who of ['driver', 'customer'])
      assert.equal((await app.http.get('/v1/broker-order-assignments', { token: tokens[who] })).status, 403, who);
    assert.equal(
      (await app.http.get('/v1/broker-order-assignments', { token: await app.login('platform@demo.example') })).status,
      403,
    );
    assert.equal((await app.http.get('/v1/broker-order-assignments')).status, 401);
  });

  test('the module switch per business answers 403, translated', async () => {
    const off = await makeBusiness(app.em(), { assignmentModule: false });
    const token = await app.login(off.users.admin.email, PASSWORD);
    const res = await app.http.get('/v1/broker-order-assignments', { token, lang: 'es' });
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'MODULE_DISABLED');
    assert.equal(
      res.body.message,
      'El módulo de asignación de pedidos a contratistas no está habilitado para su cuenta.',
    );
  });

  test('the system switch answers 503 on every operation', async () => {
    const down = await startApp({ ASSIGNMENT_MODULE_AVAILABLE: '0' }, { worker: false });
    try {
      assert.equal((await down.http.get('/v1/broker-order-assignments', { token: tokens.admin })).status, 503);
      assert.equal(
        (
          await down.http.post(
            '/v1/broker-order-assignments',
            { order_ids: [1], broker_id: 1 },
            { token: tokens.admin },
          )
        ).status,
        503,
      );
      assert.equal(
        (await down.http.post('/v1/broker-order-assignments/revoke', { order_ids: [1] }, { token: tokens.admin }))
          .status,
        503,
      );
      assert.equal(
        (await down.http.post('/v1/broker-order-assignments/release', { order_id: 1 }, { token: tokens.broker }))
          .status,
        503,
      );
    } finally {
      await down.running.close();
    }
  });

  test('bad input answers 422 naming the field and writes nothing', async () => {
    const o = await makeOrder(app.em(), b.business.id);
    const other = await makeBusiness(app.em());
    const foreignOrder = await makeOrder(app.em(), other.business.id);
    const before = (await app.em().execute('select count(*)::int as n from broker_order_assignment'))[0]!.n;
    const cases: [unknown, string][] = [
      [{ broker_id: b.users.broker.id }, 'order_ids'],
      [{ order_ids: [], broker_id: b.users.broker.id }, 'order_ids'],
      [{ order_ids: ['x'], broker_id: b.users.broker.id }, 'order_ids.0'],
      [{ order_ids: [o.id] }, 'broker_id'],
      [{ order_ids: [o.id], broker_id: b.users.broker.id, note: 'n'.repeat(501) }, 'note'],
      [{ order_ids: [o.id], broker_id: b.users.admin.id }, 'broker_id'],
      [{ order_ids: [o.id], broker_id: other.users.broker.id }, 'broker_id'],
      [{ order_ids: [o.id, foreignOrder.id], broker_id: b.users.broker.id }, 'order_ids'],
      [{ order_ids: [999999999], broker_id: b.users.broker.id }, 'order_ids'],
      [{ order_ids: [o.id], broker_id: b.users.broker.id, extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await app.http.post('/v1/broker-order-assignments', body, { token: tokens.admin });
      assert.equal(res.status, 422, JSON.stringify(body).slice(0, 80));
      assert.ok(
        res.body.errors.some((e: { field: string }) => e.field === field),
        `${field} in ${JSON.stringify(res.body.errors)}`,
      );
    }
    assert.equal(
      (
        await app.http.post(
          '/v1/broker-order-assignments/revoke',
          { order_ids: [o.id], reason: 'r'.repeat(256) },
          { token: tokens.admin },
        )
      ).status,
      422,
    );
    assert.equal((await app.http.post('/v1/broker-order-assignments/revoke', {}, { token: tokens.admin })).status, 422);
    assert.equal(
      (
        await app.http.post(
          '/v1/broker-order-assignments/release',
          { order_id: o.id, reason: 'r'.repeat(256) },
          { token: tokens.broker },
        )
      ).status,
      422,
    );
    for (const q of ['per_page=0', 'per_page=201', 'page=0', 'status=lost', 'broker_id=abc']) {
      assert.equal((await app.http.get(`/v1/broker-order-assignments?${q}`, { token: tokens.admin })).status, 422, q);
    }
    const after = (await app.em().execute('select count(*)::int as n from broker_order_assignment'))[0]!.n;
    assert.equal(after, before);
  });

  test('pagination: per_page defaults to 50 and pages do not overlap', async () => {
    const p = await makeBusiness(app.em());
    const admin = await app.login(p.users.admin.email, PASSWORD);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await makeOrder(app.em(), p.business.id)).id);
    await app.http.post(
      '/v1/broker-order-assignments',
      { order_ids: ids, broker_id: p.users.broker.id },
      { token: admin },
    );
    const all = await app.http.get('/v1/broker-order-assignments', { token: admin });
    assert.deepEqual([all.body.total, all.body.page, all.body.per_page], [3, 1, 50]);
    const p1 = await app.http.get('/v1/broker-order-assignments?per_page=2&page=1', { token: admin });
    const p2 = await app.http.get('/v1/broker-order-assignments?per_page=2&page=2', { token: admin });
    assert.equal(p1.body.assignments.length, 2);
    assert.equal(p2.body.assignments.length, 1);
    assert.deepEqual(
      [...p1.body.assignments, ...p2.body.assignments].map((a: { id: number }) => a.id),
      all.body.assignments.map((a: { id: number }) => a.id),
    );
  });

  test('other businesses never see or change these rows', async () => {
    const o = await makeOrder(app.em(), b.business.id);
    await app.http.post(
      '/v1/broker-order-assignments',
      { order_ids: [o.id], broker_id: b.users.broker.id },
      { token: tokens.admin },
    );
    const other = await makeBusiness(app.em());
    const otherAdmin = await app.login(other.users.admin.email, PASSWORD);
    assert.equal(
      (await app.http.get(`/v1/broker-order-assignments?order_id=${o.id}`, { token: otherAdmin })).body.total,
      0,
    );
    assert.equal(
      (await app.http.post('/v1/broker-order-assignments/revoke', { order_ids: [o.id] }, { token: otherAdmin })).status,
      422,
    );
    const foreignRelease = await app.http.post(
      '/v1/broker-order-assignments/release',
      { order_id: o.id },
      { token: await app.login(other.users.broker.email, PASSWORD) },
    );
    assert.equal(foreignRelease.status, 422);
    assert.deepEqual(
      foreignRelease.body.errors.map((e: { field: string }) => e.field),
      ['order_id'],
    );
    assert.equal(await countActive(o.id), 1);
  });

  test("an actively assigned order leaves the client pool and other contractors' pools", async () => {
    const p = await makeBusiness(app.em());
    const t = {
      admin: await app.login(p.users.admin.email, PASSWORD),
      b1: await app.login(p.users.broker.email, PASSWORD),
      b2: await app.login(p.users.broker2.email, PASSWORD),
    };
    const free = await makeOrder(app.em(), p.business.id);
    const mine = await makeOrder(app.em(), p.business.id);
    await makeOrder(app.em(), p.business.id, { routeId: 5 });
    await app.http.post(
      '/v1/broker-order-assignments',
      { order_ids: [mine.id], broker_id: p.users.broker.id },
      { token: t.admin },
    );
    const pool = async (token: string) =>
      (await app.http.get('/v1/planning/orders', { token })).body.orders.map((o: { id: number }) => o.id).sort();
    assert.deepEqual(await pool(t.admin), [free.id]);
    assert.deepEqual(await pool(t.b1), [free.id, mine.id].sort());
    assert.deepEqual(await pool(t.b2), [free.id]);
    await app.http.post('/v1/broker-order-assignments/release', { order_id: mine.id }, { token: t.b1 });
    assert.deepEqual(await pool(t.admin), [free.id, mine.id].sort());
  });

  test('two simultaneous assigns of one order never leave two active assignments', async () => {
    for (let round = 0; round < 5; round++) {
      const o = await makeOrder(app.em(), b.business.id);
      const results = await Promise.all([
        app.http.post(
          '/v1/broker-order-assignments',
          { order_ids: [o.id], broker_id: b.users.broker.id },
          { token: tokens.admin },
        ),
        app.http.post(
          '/v1/broker-order-assignments',
          { order_ids: [o.id], broker_id: b.users.broker2.id },
          { token: tokens.admin },
        ),
      ]);
      assert.ok(
        results.every((r) => r.status === 200),
        JSON.stringify(results.map((r) => r.body)),
      );
      assert.equal(await countActive(o.id), 1);
    }
  });

  test('the database itself refuses a second active assignment', async () => {
    const o = await makeOrder(app.em(), b.business.id);
    const insert = () =>
      app
        .em()
        .execute(
          "insert into broker_order_assignment (business_id, order_id, broker_id, status) values (?, ?, ?, 'active')",
          [b.business.id, o.id, b.users.broker.id],
        );
    await insert();
    await assert.rejects(insert, /broker_order_assignment_one_active/);
  });

  test('GraphQL mirrors answer like REST', async () => {
    const o = await makeOrder(app.em(), b.business.id);
    const assign = await app.http.graphql(
      `mutation { assignOrdersToBroker(order_ids: [${o.id}], broker_id: ${b.users.broker.id}, note: "gql") { result assigned skipped errors { order_id message } } }`,
      {},
      { token: tokens.admin },
    );
    assert.deepEqual(assign.body.data.assignOrdersToBroker, { result: true, assigned: 1, skipped: 0, errors: [] });
    const list = await app.http.graphql(
      `{ brokerOrderAssignments(order_id: ${o.id}) { total assignments { status note } } }`,
      {},
      { token: tokens.employee },
    );
    assert.deepEqual(list.body.data.brokerOrderAssignments, {
      total: 1,
      assignments: [{ status: 'active', note: 'gql' }],
    });
    const release = await app.http.graphql(
      `mutation { releaseBrokerOrderAssignment(order_id: ${o.id}) { result } }`,
      {},
      { token: tokens.broker },
    );
    assert.equal(release.body.data.releaseBrokerOrderAssignment.result, true);
    const revoke = await app.http.graphql(
      `mutation { revokeBrokerOrderAssignments(order_ids: [${o.id}]) { result revoked skipped } }`,
      {},
      { token: tokens.admin },
    );
    assert.deepEqual(revoke.body.data.revokeBrokerOrderAssignments, { result: false, revoked: 0, skipped: 1 });
    const denied = await app.http.graphql(
      `mutation { assignOrdersToBroker(order_ids: [${o.id}], broker_id: ${b.users.broker.id}) { result } }`,
      {},
      { token: tokens.broker },
    );
    assert.equal(denied.body.errors[0].extensions.code, 'FORBIDDEN');
  });
});
