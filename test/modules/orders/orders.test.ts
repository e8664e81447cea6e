import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, PASSWORD } from '../../helpers/factories.ts';

const valid = {
  type: 'D',
  scheduled_date: '2026-12-24',
  order_ref: 'XMAS-1',
  recipient: {
    name: 'Grace Hopper',
    phone: '+1 555 0199',
    email: 'grace@example.com',
    address: { line1: '1 Navy Way', city: 'Arlington', postal_code: '22202', country: 'us', lat: 38.87, lng: -77.05 },
  },
  note: 'ring twice',
};

describe('orders', () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let admin: string;
  before(async () => {
    app = await startApp({}, { worker: false });
    b = await makeBusiness(app.em());
    admin = await app.login(b.users.admin.email, PASSWORD);
  });
  after(() => app.running.close());

  test('create, then read and list by order_ref and status', async () => {
    const created = await app.http.post('/v1/client/orderCreate', valid, { token: admin });
    assert.equal(created.status, 200);
    assert.equal(created.body.result, true);
    assert.match(created.body.tracking_number, /^TMS[0-9A-F]{12}$/);
    const one = await app.http.get(`/v1/orders/${created.body.order_id}`, {
      token: await app.login(b.users.employee.email, PASSWORD),
    });
    assert.equal(one.body.order.status_id, 1);
    assert.equal(one.body.order.status, 'NEW_ORDER');
    assert.equal(one.body.order.recipient.address.country, 'US');
    assert.equal(one.body.order.tracking_number, created.body.tracking_number);
    const list = await app.http.get('/v1/orders?order_ref=XMAS-1&status=1', { token: admin });
    assert.deepEqual(
      list.body.orders.map((o: { id: number }) => o.id),
      [created.body.order_id],
    );
  });

  test('an order has its packages: the first is numbered with the tracking number, each measured as sent', async () => {
    // A receiver for order.created, so that the event is written (the relay does not run here).
    const settings = await app.http.put(
      '/v1/webhook-settings',
      {
        webhook_sign_secret: 'packages-test-secret-0123456789',
        order_create_webhook_url: 'https://receiver.example/orders',
      },
      { token: admin },
    );
    assert.equal(settings.status, 200, JSON.stringify(settings.body));
    const sent = [
      { weight_grams: 1200, length_mm: 300, width_mm: 200, height_mm: 100, carrier_reference: 'CR-1' },
      {},
      { weight_grams: 5 },
    ];
    const created = await app.http.post(
      '/v1/client/orderCreate',
      { ...valid, order_ref: 'PKG-3', packages: sent },
      { token: admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const numbers = created.body.packages.map((p: { package_number: string }) => p.package_number);
    assert.equal(numbers.length, 3);
    assert.equal(numbers[0], created.body.tracking_number);
    assert.equal(new Set(numbers).size, 3);
    assert.deepEqual(
      created.body.packages.map((p: { position: number }) => p.position),
      [1, 2, 3],
    );
    const one = await app.http.get(`/v1/orders/${created.body.order_id}`, { token: admin });
    assert.deepEqual(one.body.order.packages, [
      {
        position: 1,
        package_number: numbers[0],
        weight_grams: 1200,
        length_mm: 300,
        width_mm: 200,
        height_mm: 100,
        carrier_reference: 'CR-1',
      },
      {
        position: 2,
        package_number: numbers[1],
        weight_grams: null,
        length_mm: null,
        width_mm: null,
        height_mm: null,
        carrier_reference: null,
      },
      {
        position: 3,
        package_number: numbers[2],
        weight_grams: 5,
        length_mm: null,
        width_mm: null,
        height_mm: null,
        carrier_reference: null,
      },
    ]);
    const [event] = await app
      .em()
      .execute('select payload from outbox_event where event_id = ?', [`ORC-${created.body.order_id}`]);
    assert.deepEqual(event?.payload.data.packages, numbers, 'order.created names the packages');

    // Without packages, one unmeasured package carries the tracking number.
    const plain = await app.http.post('/v1/client/orderCreate', { ...valid, order_ref: 'PKG-1' }, { token: admin });
    const read = await app.http.get(`/v1/orders/${plain.body.order_id}`, { token: admin });
    assert.deepEqual(
      read.body.order.packages.map((p: { package_number: string }) => p.package_number),
      [plain.body.tracking_number],
    );
  });

  test('an order carries what route planning reads: a P2P pickup place, a time window, skills and a stop duration', async () => {
    const pickup = {
      name: 'Sender Shop',
      phone: null,
      address: { line1: '5 Market St', city: 'Arlington', postal_code: '22201', country: 'US', lat: 38.88, lng: -77.1 },
    };
    const window = { start: '2026-12-24T09:00:00+01:00', end: '2026-12-24T12:00:00+01:00' };
    const created = await app.http.post(
      '/v1/client/orderCreate',
      {
        ...valid,
        type: 'P2P',
        order_ref: 'PLAN-1',
        pickup,
        time_window: window,
        required_skills: ['refrigerated', 'two_person', 'refrigerated'],
        service_minutes: 12,
      },
      { token: admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const { body } = await app.http.get(`/v1/orders/${created.body.order_id}`, { token: admin });
    assert.equal(body.order.pickup.address.lat, 38.88);
    assert.equal(body.order.pickup.name, 'Sender Shop');
    assert.deepEqual(body.order.time_window, { start: '2026-12-24T08:00:00.000Z', end: '2026-12-24T11:00:00.000Z' });
    assert.deepEqual(body.order.required_skills, ['refrigerated', 'two_person']);
    assert.equal(body.order.service_minutes, 12);
    assert.equal(body.order.driver_id, null);

    const refused = [
      [{ ...valid, pickup }, 'pickup'],
      [{ ...valid, time_window: { start: window.end, end: window.start } }, 'time_window.end'],
      [{ ...valid, required_skills: ['Cold Chain'] }, 'required_skills.0'],
      [{ ...valid, service_minutes: 481 }, 'service_minutes'],
    ] as const;
    for (const [input, field] of refused) {
      const r = await app.http.post('/v1/client/orderCreate', input, { token: admin });
      assert.equal(r.status, 422, field);
      assert.ok(
        r.body.errors.some((e: { field: string }) => e.field === field),
        `${field}: ${JSON.stringify(r.body.errors)}`,
      );
    }
  });

  test('bad input answers 422 naming fields and writes nothing', async () => {
    const count = async () =>
      (
        await app
          .em()
          .execute(
            'select (select count(*) from delivery_order where business_id = ?) + (select count(*) from order_package where business_id = ?) as n',
            [b.business.id, b.business.id],
          )
      )[0]!.n;
    const before = await count();
    const cases: [unknown, string][] = [
      [{ ...valid, type: 'X' }, 'type'],
      [{ ...valid, scheduled_date: '2026-02-30' }, 'scheduled_date'],
      [{ ...valid, scheduled_date: 20261224 }, 'scheduled_date'],
      [{ ...valid, order_ref: 'r'.repeat(101) }, 'order_ref'],
      [{ ...valid, recipient: { ...valid.recipient, name: '' } }, 'recipient.name'],
      [{ ...valid, recipient: { ...valid.recipient, email: 'nope' } }, 'recipient.email'],
      [
        { ...valid, recipient: { ...valid.recipient, address: { ...valid.recipient.address, country: 'USA' } } },
        'recipient.address.country',
      ],
      [
        { ...valid, recipient: { ...valid.recipient, address: { ...valid.recipient.address, lat: 91 } } },
        'recipient.address.lat',
      ],
      [{ type: 'D' }, 'recipient'],
      [{ ...valid, packages: [] }, 'packages'],
      [{ ...valid, packages: Array.from({ length: 51 }, () => ({})) }, 'packages'],
      [{ ...valid, packages: [{}, { weight_grams: 0 }] }, 'packages.1.weight_grams'],
      [{ ...valid, packages: [{ length_mm: 1.5 }] }, 'packages.0.length_mm'],
      [{ ...valid, packages: [{ height_mm: 1e300 }] }, 'packages.0.height_mm'],
      [{ ...valid, packages: [{ carrier_reference: 'c'.repeat(101) }] }, 'packages.0.carrier_reference'],
      [{ ...valid, packages: [{ colour: 'red' }] }, 'packages.0.colour'],
      [[valid], '(body)'],
    ];
    for (const [body, field] of cases) {
      const res = await app.http.post('/v1/client/orderCreate', body, { token: admin });
      assert.equal(res.status, 422, field);
      assert.ok(
        res.body.errors.some((e: { field: string }) => e.field === field),
        `${field}: ${JSON.stringify(res.body.errors)}`,
      );
    }
    assert.equal(await count(), before);
  });

  test('roles and businesses are kept apart', async () => {
    const created = await app.http.post('/v1/client/orderCreate', valid, { token: admin });
    const other = await makeBusiness(app.em());
    const otherAdmin = await app.login(other.users.admin.email, PASSWORD);
    assert.equal((await app.http.get(`/v1/orders/${created.body.order_id}`, { token: otherAdmin })).status, 404);
    assert.ok(
      !(await app.http.get('/v1/orders?per_page=200', { token: otherAdmin })).body.orders.some(
        (o: { id: number }) => o.id === created.body.order_id,
      ),
    );
    for (const who of ['driver', 'broker'] as const) {
      const token = await app.login(b.users[who].email, PASSWORD);
      assert.equal((await app.http.post('/v1/client/orderCreate', valid, { token })).status, 403, who);
      assert.equal((await app.http.get('/v1/orders', { token })).status, 403, who);
    }
    // A customer account places and reads only its own orders (docs/orders.md, customer-placed orders).
    const customer = await app.login(b.users.customer.email, PASSWORD);
    assert.equal((await app.http.get(`/v1/orders/${created.body.order_id}`, { token: customer })).status, 404);
    assert.ok(
      !(await app.http.get('/v1/orders?per_page=200', { token: customer })).body.orders.some(
        (o: { id: number }) => o.id === created.body.order_id,
      ),
    );
    assert.equal((await app.http.get('/v1/orders', { token: await app.login('platform@demo.example') })).status, 403);
    assert.equal((await app.http.post('/v1/client/orderCreate', valid)).status, 401);
  });

  test('the demo seed shows each assignment refusal case', async () => {
    const demo = await app.login('admin@demo.example');
    const refs = ['DEMO-ON-ROUTE', 'DEMO-THIRD-PARTY', 'DEMO-DELIVERED', 'DEMO-CARRIER-HELD'];
    const ids = [];
    for (const ref of refs)
      ids.push((await app.http.get(`/v1/orders?order_ref=${ref}`, { token: demo })).body.orders[0].id);
    const broker = (await app.em().execute("select id from app_user where email = 'broker@demo.example'"))[0]!.id;
    const res = await app.http.post(
      '/v1/broker-order-assignments',
      { order_ids: ids, broker_id: broker },
      { token: demo },
    );
    assert.deepEqual(
      res.body.errors.map((e: { message: string }) => e.message),
      [
        'The order is already on a route.',
        'The order is not a self-delivery order.',
        'The order is not in an assignable status.',
        'The order is held by a third-party carrier.',
      ],
    );
  });
});
