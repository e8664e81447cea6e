import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeOrder, makeProvider, PASSWORD } from '../../helpers/factories.ts';
import { lockerWorld } from '../../helpers/lockerWorld.ts';
import { callTool } from '../../helpers/mcp.ts';

const order = (ref: string, name: string, phone: string) => ({
  type: 'D',
  scheduled_date: '2026-12-24',
  order_ref: ref,
  recipient: {
    name,
    phone,
    address: { line1: '5 Rue Haute', city: 'Lyon', postal_code: '69001', country: 'fr' },
  },
  packages: [{}, {}],
});

const mcp = (app: TestApp, token: string, name: string, args: object) => callTool(app.url, token, name, args);

describe('order reads: find, snapshot, exceptions and the client OTEP reads', () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let admin: string;
  let otherAdmin: string;
  let ada: { order_id: number; tracking_number: string; packages: { package_number: string }[] };

  /** What the service logs at warn and above: a read hook that fails is logged, not answered. */
  const logged: string[] = [];

  before(async () => {
    app = await startApp({}, { log: pino({ level: 'warn' }, { write: (line: string) => logged.push(line) }) });
    b = await makeBusiness(app.em());
    admin = await app.login(b.users.admin.email, PASSWORD);
    otherAdmin = await app.login((await makeBusiness(app.em())).users.admin.email, PASSWORD);
    const created = await app.http.post(
      '/v1/client/orderCreate',
      order('READ-ADA', 'Ada Lovelace', '+44 20 7946 0001'),
      {
        token: admin,
      },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    ada = created.body;
    for (const [ref, name] of [
      ['READ-ADAM', 'Adam Smith'],
      ['READ-BOB', 'Bob Builder'],
    ])
      await app.http.post('/v1/client/orderCreate', order(ref!, name!, '+1 555 0100'), { token: admin });
  });
  after(() => app.running.close());

  const find = (body: object, token = admin) => app.http.post('/v1/orders/find', body, { token });
  const refsOf = (res: { body: { orders: { order_ref: string }[] } }) => res.body.orders.map((o) => o.order_ref);

  test('find_order by each key, all keys together, bounded; nothing of another business', async () => {
    assert.deepEqual(refsOf(await find({ order_ref: 'READ-ADA' })), ['READ-ADA']);
    assert.deepEqual(refsOf(await find({ tracking_number: ada.tracking_number })), ['READ-ADA']);
    assert.deepEqual(refsOf(await find({ tracking_number: ada.packages[1]!.package_number })), ['READ-ADA']);
    assert.deepEqual(refsOf(await find({ phone: '442079460001' })), ['READ-ADA'], 'by the digits of the number');
    assert.deepEqual(
      refsOf(await find({ name: 'ada' })),
      ['READ-ADAM', 'READ-ADA'],
      'a case-blind prefix, newest first',
    );
    assert.deepEqual(refsOf(await find({ name: 'ada', phone: '+1 (555) 0100' })), ['READ-ADAM']);
    assert.deepEqual(refsOf(await find({ name: '50%' })), [], 'a wildcard is a character');
    const bounded = await find({ phone: '15550100', limit: 1 });
    assert.deepEqual([bounded.body.orders.length, bounded.body.truncated], [1, true]);
    assert.equal((await find({})).status, 422);
    assert.equal((await find({ phone: '12' })).status, 422);
    assert.deepEqual(refsOf(await find({ order_ref: 'READ-ADA' }, otherAdmin)), []);
    assert.deepEqual(refsOf(await find({ tracking_number: ada.tracking_number }, otherAdmin)), []);

    const gql = await app.http.graphql(
      'query { findOrder(name: "bob") { truncated orders { order_ref } } }',
      {},
      { token: admin },
    );
    assert.deepEqual(
      gql.body.data?.findOrder,
      { truncated: false, orders: [{ order_ref: 'READ-BOB' }] },
      JSON.stringify(gql.body),
    );
    const tool = await mcp(app, admin, 'find_order', { order_ref: 'READ-ADA' });
    assert.deepEqual(
      tool.body.orders.map((o: { id: number }) => o.id),
      [ada.order_id],
    );
  });

  test('a customer account finds and reads only its own orders', async () => {
    const customer = await app.login(b.users.customer.email, PASSWORD);
    const mine = await makeOrder(app.em(), b.business.id, { orderRef: 'READ-MINE', customerId: b.users.customer.id });
    const notMine = await makeOrder(app.em(), b.business.id, { orderRef: 'READ-NOT-MINE' });
    assert.deepEqual(refsOf(await find({ order_ref: 'READ-MINE' }, customer)), ['READ-MINE']);
    assert.deepEqual(refsOf(await find({ order_ref: 'READ-NOT-MINE' }, customer)), []);
    assert.equal((await app.http.get(`/v1/orders/${mine.id}/snapshot`, { token: customer })).status, 200);
    assert.equal((await app.http.get(`/v1/orders/${notMine.id}/snapshot`, { token: customer })).status, 404);
    assert.equal((await app.http.get('/v1/order-exceptions', { token: customer })).status, 403);
    assert.equal(
      (await app.http.get(`/v1/otep/client/trackings/${mine.trackingNumber}`, { token: customer })).status,
      200,
    );
    assert.equal(
      (await app.http.get(`/v1/otep/client/trackings/${notMine.trackingNumber}`, { token: customer })).status,
      404,
    );
  });

  test('the snapshot shows an open device order; its open exception is listed; the lockers hold the parcel', async () => {
    const stored = await app.http.post(
      '/v1/device-orders',
      {
        kind: 'delivery',
        device_id: b.device.code,
        grid_code: 'A02',
        reference_number: 'READ-PARCEL',
        order_id: ada.order_id,
        due_at: new Date(Date.now() + 3600_000).toISOString(),
      },
      { token: admin },
    );
    assert.equal(stored.status, 201, JSON.stringify(stored.body));
    const deviceOrderId: number = stored.body.device_order.id;

    const snap = await app.http.get(`/v1/orders/${ada.order_id}/snapshot`, { token: admin });
    assert.equal(snap.status, 200, JSON.stringify(snap.body));
    assert.equal(snap.body.order.order_ref, 'READ-ADA');
    assert.equal(snap.body.packages.length, 2);
    assert.deepEqual(
      snap.body.status_history.map((h: { status: string; operation_type: number }) => [h.status, h.operation_type]),
      [['NEW_ORDER', 1001]],
    );
    assert.deepEqual(snap.body.processes, [
      {
        type: 'device-order',
        workflow_id: `device-order-${deviceOrderId}`,
        state: 'stored',
        since: snap.body.processes[0].since,
        reference: String(deviceOrderId),
      },
    ]);
    assert.equal((await app.http.get(`/v1/orders/${ada.order_id}/snapshot`, { token: otherAdmin })).status, 404);

    const opened = await app.http.post(
      `/v1/device-orders/${deviceOrderId}/exceptions`,
      { type: 'item_damaged' },
      { token: admin },
    );
    assert.equal(opened.status, 201, JSON.stringify(opened.body));
    const listed = await app.http.get('/v1/order-exceptions', { token: admin });
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    const row = listed.body.exceptions.find((e: { order_id: number }) => e.order_id === ada.order_id);
    assert.equal(row.kind, 'device-order-exception');
    assert.match(row.reason, /^item_damaged/);
    assert.equal(row.tracking_number, ada.tracking_number);
    assert.match(row.reference, new RegExp(`^device-order-${deviceOrderId}/exception-\\d+$`));
    assert.deepEqual((await app.http.get('/v1/order-exceptions', { token: otherAdmin })).body.exceptions, []);
    const gql = await app.http.graphql(
      'query { orderExceptions { exceptions { order_id kind } } }',
      {},
      { token: admin },
    );
    assert.ok(
      gql.body.data?.orderExceptions.exceptions.some((e: { order_id: number }) => e.order_id === ada.order_id),
      JSON.stringify(gql.body),
    );
    const tool = await mcp(app, admin, 'list_exceptions', {});
    assert.equal(tool.isError, false, JSON.stringify(tool.body));
    assert.ok(tool.body.exceptions.some((e: { order_id: number }) => e.order_id === ada.order_id));
    const snapTool = await mcp(app, admin, 'order_snapshot', { id: ada.order_id });
    assert.equal(snapTool.body.processes[0].type, 'device-order');

    // The locker holds it: listed with its timeline, the order's tracking number its reference.
    const storage = await app.http.get('/v1/otep/client/locker-storage', { token: admin });
    assert.equal(storage.status, 200, JSON.stringify(storage.body));
    const parcel = storage.body.parcels.find((p: { reference: string }) => p.reference === ada.tracking_number);
    assert.deepEqual(
      [parcel.device.code, parcel.compartment.grid_code, parcel.held_by],
      [b.device.code, 'A02', 'device-order'],
    );
    assert.equal(parcel.timeline.tracking_number, ada.tracking_number);
    assert.equal((await app.http.get('/v1/otep/client/locker-storage', { token: otherAdmin })).body.parcels.length, 0);
    const storageTool = await mcp(app, admin, 'otep_client_locker_storage', { device_code: b.device.code });
    assert.ok(storageTool.body.parcels.some((p: { reference: string }) => p.reference === ada.tracking_number));
  });

  test('the client OTEP timeline carries the business fields and the carrier; the public reads do not', async () => {
    const carrier = await makeProvider(app.em(), 'delivery_provider');
    const carrierToken = await app.login(carrier.user.email, PASSWORD);
    const key = (await app.http.post('/v1/otep/credentials', { name: 'reads' }, { token: carrierToken })).body
      .credential.secret;
    const held = await makeOrder(app.em(), b.business.id, {
      orderRef: 'READ-CARRIED',
      carrierProviderId: carrier.business.id,
      selfDelivery: false,
      customerId: b.users.customer.id,
    });
    await app
      .em()
      .execute("update order_package set carrier_reference = 'CARRIER-REF-9' where order_id = ?", [held.id]);
    const pushed = await app.http.post(
      '/v1/otep/ingest',
      {
        tracking_number: held.trackingNumber,
        events: [
          {
            id: 'reads-1',
            otep_version: '1.0.0',
            subject: held.trackingNumber,
            occurred_at: new Date().toISOString(),
            status_code: 'otep:core:in_transit',
            phase: 'otep:phase:transit',
          },
        ],
      },
      { token: key },
    );
    assert.equal(pushed.body.accepted, 1, JSON.stringify(pushed.body));

    const res = await app.http.get(`/v1/otep/client/trackings/${held.trackingNumber}`, { token: admin });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.tracking_number, held.trackingNumber);
    assert.deepEqual(res.body.client, {
      order_id: held.id,
      order_ref: 'READ-CARRIED',
      order_type: 'D',
      package_position: 1,
      packages: 1,
      carrier_reference: 'CARRIER-REF-9',
      carrier: { id: carrier.business.id, name: carrier.business.name },
    });
    const carrierEvent = res.body.events.find((e: { id: string }) => e.id === 'reads-1');
    assert.deepEqual(carrierEvent.client, { carrier: { id: carrier.business.id, name: carrier.business.name } });
    const own = res.body.events.find((e: { source: string }) => e.source === 'merchant');
    assert.equal(own.client.operation_type, 1001);

    // The customer sees its order's timeline with the carrier masked.
    const customer = await app.login(b.users.customer.email, PASSWORD);
    const masked = await app.http.get(`/v1/otep/client/trackings/${held.trackingNumber}`, { token: customer });
    assert.equal(masked.body.client.carrier, null);
    assert.equal(masked.body.client.carrier_reference, null);
    assert.deepEqual(masked.body.events.find((e: { id: string }) => e.id === 'reads-1').client, { carrier: null });
    assert.equal(
      (await app.http.get(`/v1/otep/client/trackings/${held.trackingNumber}`, { token: otherAdmin })).status,
      404,
    );
    // The public timeline has none of it.
    const pub = await app.http.get(`/v1/otep/trackings/${held.trackingNumber}`);
    assert.equal(pub.body.client, undefined);
    assert.ok(!JSON.stringify(pub.body).includes(carrier.business.name));

    const tool = await mcp(app, admin, 'otep_client_tracking', { tracking_number: held.trackingNumber });
    assert.equal(tool.body.client.order_ref, 'READ-CARRIED');
    const gql = await app.http.graphql(
      `query($n: String!) { otepClientTracking(tracking_number: $n) orderSnapshot(id: ${held.id}) { order { order_ref } } }`,
      { n: held.trackingNumber },
      { token: admin },
    );
    assert.equal(gql.body.data?.otepClientTracking.client.order_ref, 'READ-CARRIED', JSON.stringify(gql.body));
    assert.equal(gql.body.data?.orderSnapshot.order.order_ref, 'READ-CARRIED');
  });

  test('distribution, contractor and third-party processes are in the snapshot; a flagged scan is an exception', async () => {
    const carrier = await makeProvider(app.em(), 'delivery_provider');
    const carrierToken = await app.login(carrier.user.email, PASSWORD);
    await app.http.put('/v1/provider/webhook-settings', { url: 'http://127.0.0.1:9/none' }, { token: carrierToken });
    for (const place of [
      { kind: 'warehouse', code: 'RWH' },
      { kind: 'store', code: 'RS1' },
    ])
      assert.equal((await app.http.post('/v1/places', { name: place.code, ...place }, { token: admin })).status, 201);
    assert.equal(
      (
        await app.http.post(
          '/v1/carrier-supplier-accounts',
          { carrier_code: carrier.business.code, member_number: 'M-R' },
          { token: admin },
        )
      ).status,
      201,
    );
    const carried = await makeOrder(app.em(), b.business.id, { carrierProviderId: carrier.business.id });
    const scan = (body: object) =>
      app.http.post('/v1/distribution/scans', { package_number: carried.trackingNumber, ...body }, { token: admin });
    const received = await scan({
      action: 'received',
      location: 'RWH',
      destination: 'RS1',
      scanned_at: new Date().toISOString(),
    });
    assert.equal(received.body.scan?.outcome, 'applied', JSON.stringify(received.body));
    const misplaced = await scan({ action: 'delivered', location: 'RS1', scanned_at: new Date().toISOString() });
    assert.equal(misplaced.body.scan?.outcome, 'flagged', JSON.stringify(misplaced.body));
    // A distribution scan moves the package, not the order: its status stays and the trail has no row of it
    // (docs/orders.md, "Audit trail", Scans).
    const trail = await app.http.get(`/v1/orders/${carried.id}/audit-timeline`, { token: admin });
    assert.equal(trail.status, 200, JSON.stringify(trail.body));
    assert.deepEqual(
      trail.body.events
        .filter((e: { operation_type: number }) => e.operation_type !== 9001)
        .map((e: { operation_type: number }) => e.operation_type),
      [1001],
    );
    assert.equal((await app.http.get(`/v1/orders/${carried.id}`, { token: admin })).body.order.status_id, 1);

    const snap = await app.http.get(`/v1/orders/${carried.id}/snapshot`, { token: admin });
    assert.deepEqual(
      snap.body.processes.map((p: { type: string; workflow_id: string; state: string }) => [
        p.type,
        p.workflow_id,
        p.state,
      ]),
      [['distribution', `distribution-${carried.trackingNumber}`, 'created']],
    );
    const listed = await app.http.get('/v1/order-exceptions?limit=200', { token: admin });
    const flagged = listed.body.exceptions.find((e: { order_id: number }) => e.order_id === carried.id);
    assert.equal(flagged.kind, 'flagged-scan');
    assert.match(flagged.reason, /^\S+ \(delivered of /);
    assert.equal(flagged.reference, `distribution-scan-${misplaced.body.scan.id}`);
    // Paged one at a time, the newest first, the next page before it.
    const first = await app.http.get('/v1/order-exceptions?limit=1', { token: admin });
    assert.equal(first.body.exceptions.length, 1);
    assert.ok(first.body.next_before);
    const next = await app.http.get(
      `/v1/order-exceptions?limit=1&before=${encodeURIComponent(first.body.next_before)}`,
      {
        token: admin,
      },
    );
    assert.ok(
      next.body.exceptions.every((e: { since: string }) => Date.parse(e.since) < Date.parse(first.body.next_before)),
    );

    // An order with a contractor, and one handed to a provider.
    const withBroker = await makeOrder(app.em(), b.business.id);
    const assigned = await app.http.post(
      '/v1/broker-order-assignments',
      { order_ids: [withBroker.id], broker_id: b.users.broker.id },
      { token: admin },
    );
    assert.equal(assigned.body.assigned, 1, JSON.stringify(assigned.body));
    const brokerSnap = await app.http.get(`/v1/orders/${withBroker.id}/snapshot`, { token: admin });
    assert.deepEqual(
      brokerSnap.body.processes.map((p: { type: string; state: string }) => [p.type, p.state]),
      [['contractor-assignment', 'active']],
    );
    const provider = await makeProvider(app.em(), 'delivery_provider');
    const providerToken = await app.login(provider.user.email, PASSWORD);
    await app.http.put('/v1/provider/webhook-settings', { url: 'http://127.0.0.1:9/none' }, { token: providerToken });
    const handed = await makeOrder(app.em(), b.business.id, { customerId: b.users.customer.id });
    const tp = await app.http.post(
      '/v1/third-party-assignments',
      { order_id: handed.id, provider_code: provider.business.code, handover_deadline_hours: 100 },
      { token: admin },
    );
    assert.equal(tp.status, 201, JSON.stringify(tp.body));
    const tpSnap = await app.http.get(`/v1/orders/${handed.id}/snapshot`, { token: admin });
    assert.deepEqual(
      tpSnap.body.processes.map((p: { type: string; state: string; reference: string }) => [
        p.type,
        p.state,
        p.reference,
      ]),
      [['third-party', 'assigned', tp.body.assignment.number]],
    );
    // The carrier is masked for the order's customer, as in its webhooks: the provider's process is not listed.
    const customer = await app.login(b.users.customer.email, PASSWORD);
    const customerSnap = await app.http.get(`/v1/orders/${handed.id}/snapshot`, { token: customer });
    assert.equal(customerSnap.status, 200, JSON.stringify(customerSnap.body));
    assert.deepEqual(customerSnap.body.processes, []);
  });

  test('the public reads have their GraphQL mirrors trackingPublic and otepTracking', async () => {
    const gql = await app.http.graphql(
      `query($n: String!) { trackingPublic(number: $n) otepTracking(tracking_number: $n) }`,
      { n: ada.tracking_number },
    );
    assert.equal(gql.status, 200, JSON.stringify(gql.body));
    assert.equal(gql.body.data?.trackingPublic.tracking_number, ada.tracking_number, JSON.stringify(gql.body));
    assert.equal(gql.body.data?.otepTracking.tracking_number, ada.tracking_number);
    const rest = await app.http.get(`/v1/tracking/${ada.tracking_number}`);
    assert.deepEqual(gql.body.data?.trackingPublic, rest.body);
  });

  test("a partner's locker delivery of the order's parcel is an open process and in the locker storage", async () => {
    const world = await lockerWorld(app);
    const o = await makeOrder(app.em(), world.b.business.id, { orderRef: 'READ-LOCKER' });
    const delivered = await world.deliver('remote_open', [{ reference: o.trackingNumber, size: 'M' }]);
    const snap = await app.http.get(`/v1/orders/${o.id}/snapshot`, { token: world.admin });
    assert.deepEqual(
      snap.body.processes.map((p: { type: string; workflow_id: string; reference: string }) => [
        p.type,
        p.workflow_id,
        p.reference,
      ]),
      [['locker-delivery', `locker-delivery-${delivered.id}`, String(delivered.id)]],
    );
    const storage = await app.http.get('/v1/otep/client/locker-storage', { token: world.admin });
    const parcel = storage.body.parcels.find((p: { reference: string }) => p.reference === o.trackingNumber);
    assert.equal(parcel?.held_by, 'locker-delivery', JSON.stringify(storage.body));
    assert.equal(parcel.timeline.tracking_number, o.trackingNumber);
    await world.receiver.close();
  });

  test('no read hook failed in any of the reads above', () => {
    assert.deepEqual(
      logged.filter((l) => l.includes('hook failed')),
      [],
    );
  });
});
