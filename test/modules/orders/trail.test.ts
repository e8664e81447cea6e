import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeOrder, makeProvider, PASSWORD } from '../../helpers/factories.ts';
import { startReceiver } from '../../helpers/receiver.ts';
import { waitFor } from '../../helpers/wait.ts';
import { callTool } from '../../helpers/mcp.ts';

const SECRET = 'trail-hook-secret-0123456789';

const newOrder = (ref: string) => ({
  type: 'D',
  scheduled_date: '2026-12-24',
  order_ref: ref,
  recipient: {
    name: 'Grace Hopper',
    phone: '+1 555 0199',
    address: { line1: '1 Navy Way', city: 'Arlington', postal_code: '22202', country: 'us' },
  },
  packages: [{ weight_grams: 500 }, {}],
});

interface TrailEvent {
  id: string;
  order_id: number;
  operation_type: number;
  occurred_at: string;
  actor: { user_id: number | null; role: string | null; source: string; ip_address: string | null };
  details: Record<string, any>;
}

const mcp = (app: TestApp, server: '/mcp' | '/mcp/developer', token: string, name: string, args: object) =>
  callTool(app.url, token, name, args, server);

describe('the orders audit trail read', () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let admin: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let carrier: Awaited<ReturnType<typeof makeProvider>>;
  let key: string;

  before(async () => {
    app = await startApp({ WEBHOOK_RETRY_SCALE: '0.001', HANDOVER_TIMER_SCALE: '0.0005' });
    b = await makeBusiness(app.em());
    admin = await app.login(b.users.admin.email, PASSWORD);
    receiver = await startReceiver();
    const put = await app.http.put(
      '/v1/webhook-settings',
      {
        webhook_sign_secret: SECRET,
        order_create_webhook_url: `${receiver.url}/created`,
        order_status_change_webhook_url: `${receiver.url}/status`,
      },
      { token: admin },
    );
    assert.equal(put.status, 200, JSON.stringify(put.body));
    carrier = await makeProvider(app.em(), 'delivery_provider');
    const carrierToken = await app.login(carrier.user.email, PASSWORD);
    key = (await app.http.post('/v1/otep/credentials', { name: 'trail' }, { token: carrierToken })).body.credential
      .secret;
  });
  after(async () => {
    await app.running.close();
    await receiver.close();
  });

  const read = (body: object, token = admin) => app.http.post('/v1/tracking/operationevents', body, { token });

  test('creation, a carrier status change and the webhook sends, by id and by tracking number, paged', async () => {
    const created = await app.http.post('/v1/client/orderCreate', newOrder('TRAIL-1'), { token: admin });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id: number = created.body.order_id;
    const [, second] = created.body.packages.map((p: { package_number: string }) => p.package_number);
    // Handed to the carrier, whose push moves the order to CARRIER_ON_THE_WAY (43).
    await app
      .em()
      .execute('update delivery_order set carrier_provider_id = ?, self_delivery = false where id = ?', [
        carrier.business.id,
        id,
      ]);
    const pushed = await app.http.post(
      '/v1/otep/ingest',
      {
        tracking_number: created.body.tracking_number,
        events: [
          {
            id: 'trail-1',
            otep_version: '1.0.0',
            subject: created.body.tracking_number,
            occurred_at: new Date().toISOString(),
            status_code: 'otep:core:in_transit',
            phase: 'otep:phase:transit',
          },
        ],
      },
      { token: key },
    );
    assert.equal(pushed.body.accepted, 1, JSON.stringify(pushed.body));
    // Both events reach the real receiver, and their deliveries are logged.
    await waitFor(async () => (receiver.received.length >= 2 ? true : null));
    await waitFor(async () => {
      const rows = await app
        .em()
        .execute(
          "select count(*)::int as n from webhook_delivery where reference_type = 'order' and reference_id = ? and status = 'delivered'",
          [String(id)],
        );
      return rows[0]!.n >= 2 ? true : null;
    });

    const res = await read({ order_ids: [id] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.orders, [
      {
        id,
        order_ref: 'TRAIL-1',
        tracking_number: created.body.tracking_number,
        tracking_numbers: [],
        deleted: false,
      },
    ]);
    assert.deepEqual(res.body.not_found, { order_ids: [], tracking_numbers: [] });
    const events: TrailEvent[] = res.body.events;
    const changes = events.filter((e) => e.id.startsWith('E'));
    assert.deepEqual(
      changes.map((e) => e.operation_type),
      [1001, 6008],
    );
    const [creation, push] = changes;
    assert.equal(creation!.actor.source, 'api');
    assert.equal(creation!.actor.role, 'client_admin');
    assert.equal(creation!.actor.user_id, b.users.admin.id);
    assert.ok(creation!.actor.ip_address, 'the creator’s address is kept');
    assert.equal(push!.actor.source, 'carrier');
    assert.equal(push!.details.description !== undefined, true);
    const sends = events.filter((e) => e.operation_type === 9001);
    assert.deepEqual(sends.map((e) => e.details.event_type).sort(), ['order.created', 'order.status_change']);
    for (const s of sends) {
      assert.match(s.id, /^W\d+$/);
      assert.equal(s.details.status, 'delivered');
      assert.ok(String(s.details.url).startsWith(receiver.url));
    }
    const times = events.map((e) => Date.parse(e.occurred_at));
    assert.deepEqual(
      times,
      times.toSorted((x, y) => x - y),
      'in time order',
    );

    // By the second package's number: the same order and trail.
    const byNumber = await read({ tracking_numbers: [second, 'TMSNOSUCHNUMBER'] });
    assert.equal(byNumber.status, 200);
    assert.deepEqual(byNumber.body.orders[0].tracking_numbers, [second]);
    assert.deepEqual(byNumber.body.not_found.tracking_numbers, ['TMSNOSUCHNUMBER']);
    assert.deepEqual(
      byNumber.body.events.map((e: TrailEvent) => e.id),
      events.map((e) => e.id),
    );

    // Paged one row at a time, the pages add up to the whole trail.
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await read({ order_ids: [id], limit: 1, ...(cursor ? { cursor } : {}) });
      assert.equal(page.status, 200, JSON.stringify(page.body));
      paged.push(...page.body.events.map((e: TrailEvent) => e.id));
      cursor = page.body.next_cursor ?? undefined;
    } while (cursor);
    assert.deepEqual(
      paged,
      events.map((e) => e.id),
    );
    // Without the webhooks, only the changes.
    const bare = await read({ order_ids: [id], include_webhooks: false });
    assert.deepEqual(
      bare.body.events.map((e: TrailEvent) => e.id),
      changes.map((e) => e.id),
    );
    assert.equal((await read({ order_ids: [id], cursor: 'bm90LWEtY3Vyc29y' })).status, 422);
    assert.equal((await read({})).status, 422);

    // One order's timeline (the developer server's tool), GraphQL and MCP answer the same rows.
    const timeline = await app.http.get(`/v1/orders/${id}/audit-timeline`, { token: admin });
    assert.equal(timeline.status, 200);
    assert.deepEqual(
      timeline.body.events.map((e: TrailEvent) => e.id),
      events.map((e) => e.id),
    );
    const gql = await app.http.graphql(
      `query($ids: [Int!]) { trackingOperationevents(order_ids: $ids) { result events { id operation_type actor { source } } } }`,
      { ids: [id] },
      { token: admin },
    );
    assert.equal(gql.status, 200, JSON.stringify(gql.body));
    assert.deepEqual(
      gql.body.data?.trackingOperationevents.events.map((e: TrailEvent) => e.id),
      events.map((e) => e.id),
      JSON.stringify(gql.body),
    );
    for (const server of ['/mcp', '/mcp/developer'] as const) {
      const tool = await mcp(app, server, admin, 'get_operation_events', { order_ids: [id] });
      assert.equal(tool.isError, false, JSON.stringify(tool.body));
      assert.deepEqual(
        tool.body.events.map((e: TrailEvent) => e.id),
        events.map((e) => e.id),
        server,
      );
    }
    const audit = await mcp(app, '/mcp/developer', admin, 'get_order_audit_timeline', { id });
    assert.equal(audit.isError, false, JSON.stringify(audit.body));
    assert.equal(audit.body.events.length, events.length);
  });

  test("another business's admin reads nothing: 404, and named orders it lacks are not_found", async () => {
    const own = await makeOrder(app.em(), b.business.id);
    const other = await makeBusiness(app.em());
    const otherAdmin = await app.login(other.users.admin.email, PASSWORD);
    assert.deepEqual(
      [
        (await read({ order_ids: [own.id] }, otherAdmin)).status,
        (await read({ order_ids: [own.id] }, otherAdmin)).body.code,
      ],
      [404, 'NOT_FOUND'],
    );
    assert.equal((await read({ tracking_numbers: [own.trackingNumber] }, otherAdmin)).status, 404);
    assert.equal((await app.http.get(`/v1/orders/${own.id}/audit-timeline`, { token: otherAdmin })).status, 404);
    const theirs = await makeOrder(app.em(), other.business.id);
    const mixed = await read({ order_ids: [own.id, theirs.id] }, otherAdmin);
    assert.equal(mixed.status, 200);
    assert.deepEqual(mixed.body.not_found.order_ids, [own.id]);
    assert.ok(mixed.body.events.every((e: TrailEvent) => e.order_id === theirs.id));
    const tool = await mcp(app, '/mcp', otherAdmin, 'get_operation_events', { order_ids: [own.id] });
    assert.deepEqual([tool.isError, tool.body.code], [true, 'NOT_FOUND']);
    // The trail is the staff's: a customer, even of the same business, may not read it.
    const customer = await app.login(b.users.customer.email, PASSWORD);
    assert.equal((await read({ order_ids: [own.id] }, customer)).status, 403);
    const employee = await app.login(b.users.employee.email, PASSWORD);
    assert.equal((await read({ order_ids: [own.id] }, employee)).status, 200);
  });

  test('the trail of a permanently deleted order stays readable by id, to its business only', async () => {
    const gone = await makeOrder(app.em(), b.business.id, { orderRef: 'TRAIL-GONE' });
    // As delete_order leaves it: the deletion row in the trail, the order and its rows gone.
    await app.em().transactional(async (em) => {
      await em.execute(
        `insert into order_operation_event (order_id, business_id, operation_type, actor_id, actor_role, source, details)
         values (?, ?, 3051, ?, 'client_admin', 'api', ?)`,
        [
          gone.id,
          b.business.id,
          b.users.admin.id,
          JSON.stringify({
            description: 'order deleted',
            order_ref: 'TRAIL-GONE',
            tracking_number: gone.trackingNumber,
          }),
        ],
      );
      for (const table of ['order_status_change', 'order_package'])
        await em.execute(`delete from ${table} where order_id = ?`, [gone.id]);
      await em.execute('delete from delivery_order where id = ?', [gone.id]);
    });
    const res = await read({ order_ids: [gone.id] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.orders, [
      {
        id: gone.id,
        order_ref: 'TRAIL-GONE',
        tracking_number: gone.trackingNumber,
        tracking_numbers: [],
        deleted: true,
      },
    ]);
    // Its changes, and the delivery log's sends about it (order.created went to the receiver), are kept.
    const changes = res.body.events.filter((e: TrailEvent) => e.operation_type !== 9001);
    assert.deepEqual(
      changes.map((e: TrailEvent) => e.operation_type),
      [1001, 3051],
    );
    assert.equal(changes[1].actor.user_id, b.users.admin.id);
    const timeline = await app.http.get(`/v1/orders/${gone.id}/audit-timeline`, { token: admin });
    assert.equal(timeline.body.order.deleted, true);
    const otherAdmin = await app.login((await makeBusiness(app.em())).users.admin.email, PASSWORD);
    assert.equal((await read({ order_ids: [gone.id] }, otherAdmin)).status, 404);
    assert.equal((await app.http.get(`/v1/orders/${gone.id}/audit-timeline`, { token: otherAdmin })).status, 404);
  });

  test('contractor assignments and the third-party handover are in the trail, with who', async () => {
    const o = await makeOrder(app.em(), b.business.id);
    const broker = await app.login(b.users.broker.email, PASSWORD);
    const assign = () =>
      app.http.post(
        '/v1/broker-order-assignments',
        { order_ids: [o.id], broker_id: b.users.broker.id },
        { token: admin },
      );
    assert.equal((await assign()).body.assigned, 1);
    const revoked = await app.http.post(
      '/v1/broker-order-assignments/revoke',
      { order_ids: [o.id], reason: 'wrong area' },
      { token: admin },
    );
    assert.equal(revoked.body.revoked, 1);
    assert.equal((await assign()).body.assigned, 1);
    const released = await app.http.post(
      '/v1/broker-order-assignments/release',
      { order_id: o.id, reason: 'no van' },
      { token: broker },
    );
    assert.equal(released.status, 200, JSON.stringify(released.body));
    const rows: TrailEvent[] = (await read({ order_ids: [o.id] })).body.events;
    const moves = rows.filter((e) => e.operation_type === 3061 || e.operation_type === 3062);
    assert.deepEqual(
      moves.map((e) => [e.operation_type, e.actor.role, e.details.status ?? null, e.details.reason ?? null]),
      [
        [3061, 'client_admin', null, null],
        [3062, 'client_admin', 'revoked', 'wrong area'],
        [3061, 'client_admin', null, null],
        [3062, 'contractor', 'released', 'no van'],
      ],
    );
    assert.ok(moves.every((e) => e.details.broker_id === b.users.broker.id && e.details.assignment_id));

    // Handed to a provider: the handover of its last package is one 3071 row.
    const provider = await makeProvider(app.em(), 'delivery_provider');
    const providerToken = await app.login(provider.user.email, PASSWORD);
    await app.http.put('/v1/provider/webhook-settings', { url: `${receiver.url}/provider` }, { token: providerToken });
    const tp = await makeOrder(app.em(), b.business.id);
    const assigned = await app.http.post(
      '/v1/third-party-assignments',
      { order_id: tp.id, provider_code: provider.business.code, handover_deadline_hours: 100 },
      { token: admin },
    );
    assert.equal(assigned.status, 201, JSON.stringify(assigned.body));
    const number = assigned.body.assignment.number;
    const employee = await app.login(b.users.employee.email, PASSWORD);
    const handed = await app.http.post(
      `/v1/third-party-assignments/${number}/handovers`,
      { package_number: tp.trackingNumber, scanned_at: new Date().toISOString() },
      { token: employee },
    );
    assert.equal(handed.status, 200, JSON.stringify(handed.body));
    const tpRows: TrailEvent[] = (await read({ order_ids: [tp.id], include_webhooks: false })).body.events;
    const handover = tpRows.filter((e) => e.operation_type === 3071);
    assert.equal(handover.length, 1);
    assert.equal(handover[0]!.actor.role, 'employee');
    assert.equal(handover[0]!.actor.user_id, b.users.employee.id);
    assert.equal(handover[0]!.details.assignment, number);
  });
});
