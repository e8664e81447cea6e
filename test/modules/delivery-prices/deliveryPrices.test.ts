import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { eventDefinition } from '../../helpers/events.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeOrder, makeProvider, PASSWORD, priceModel } from '../../helpers/factories.ts';
import { startReceiver, type Received } from '../../helpers/receiver.ts';
import { waitFor } from '../../helpers/wait.ts';
import { greatCircleMeters } from '../../../src/modules/delivery-prices/domain.ts';
import { callTool } from '../../helpers/mcp.ts';

const DEPOT = { lat: 48.8566, lng: 2.3522 };
const MODEL = priceModel(DEPOT);
const ADDRESS = { line1: '1 Rue de Rivoli', city: 'Paris', postal_code: '75001', country: 'FR', lat: 48.86, lng: 2.44 };
/** What the stand-in OSRM answers: 20,000.4 m by road. */
const ROAD_METERS = 20_000.4;
const osrmAnswer = { code: 'Ok', routes: [{ distance: ROAD_METERS, duration: 1500.2, weight: 1500.2 }], waypoints: [] };

const orderBody = (ref: string, over: Record<string, unknown> = {}) => ({
  type: 'D',
  scheduled_date: '2026-12-24',
  order_ref: ref,
  recipient: { name: 'Ada Lovelace', address: ADDRESS },
  packages: [{ weight_grams: 4000 }, { weight_grams: 2500 }],
  ...over,
});

const ajv = new Ajv({ strict: false });
formats.default(ajv);

const sumLines = (lines: { amount: string }[]) =>
  lines.reduce((cents, l) => cents + Math.round(Number(l.amount) * 100), 0);

describe('local delivery prices and customer-placed orders', () => {
  let app: TestApp;
  let osrm: Awaited<ReturnType<typeof startReceiver>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let other: Awaited<ReturnType<typeof makeBusiness>>;
  let admin: string;
  let customer: string;
  let otherAdmin: string;
  let otherCustomer: string;

  before(async () => {
    osrm = await startReceiver(() => ({ status: 200, json: osrmAnswer }));
    receiver = await startReceiver(() => 200);
    app = await startApp({
      ROUTER_URL: osrm.url,
      ROUTER_ALLOW_PRIVATE: '1',
      ROUTER_TIMEOUT_MS: '500',
      WEBHOOK_RETRY_SCALE: '0.001',
    });
    b = await makeBusiness(app.em());
    other = await makeBusiness(app.em());
    admin = await app.login(b.users.admin.email, PASSWORD);
    customer = await app.login(b.users.customer.email, PASSWORD);
    otherAdmin = await app.login(other.users.admin.email, PASSWORD);
    otherCustomer = await app.login(other.users.customer.email, PASSWORD);
  });
  after(async () => {
    await app.running.close();
    await osrm.close();
    await receiver.close();
  });

  test('the price model: none at first, set and read back by the client admin, its own per business', async () => {
    const none = await app.http.get('/v1/client/delivery-price-model', { token: admin });
    assert.equal(none.status, 200);
    assert.equal(none.body.price_model, null);
    const rateWithout = await app.http.post('/v1/orders/rate', { type: 'D', address: ADDRESS }, { token: admin });
    assert.equal(rateWithout.status, 409);
    assert.equal(rateWithout.body.code, 'PRICE_MODEL_MISSING');

    const set = await app.http.put('/v1/client/delivery-price-model', MODEL, { token: admin });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const read = await app.http.get('/v1/client/delivery-price-model', { token: admin });
    assert.deepEqual(read.body.price_model, set.body.price_model);
    const { updated_at, ...figures } = read.body.price_model;
    assert.ok(!Number.isNaN(Date.parse(updated_at)));
    assert.deepEqual(figures, {
      currency: 'EUR',
      base_fee: '4.9000',
      per_km: '0.8500',
      per_kg: '0.5000',
      included_weight_kg: '5.000',
      p2p_surcharge: '2.0000',
      time_window_surcharge: '3.0000',
      extra_package_surcharge: '1.0000',
      tax_rate: '20.000',
      origin: DEPOT,
    });

    const employee = await app.login(b.users.employee.email, PASSWORD);
    assert.equal((await app.http.get('/v1/client/delivery-price-model', { token: employee })).status, 403);
    assert.equal((await app.http.put('/v1/client/delivery-price-model', MODEL, { token: customer })).status, 403);
    const theirs = await app.http.get('/v1/client/delivery-price-model', { token: otherAdmin });
    assert.equal(theirs.body.price_model, null, "another business's admin does not see this model");
  });

  test('a bad model is refused field by field: huge or inexact figures, JSON numbers, an unknown currency', async () => {
    const res = await app.http.put(
      '/v1/client/delivery-price-model',
      {
        ...MODEL,
        currency: 'ZZZ',
        base_fee: '12345678',
        per_km: 0.85,
        per_kg: '0.12345',
        tax_rate: '101',
        included_weight_kg: '1e9',
        origin: { lat: 91, lng: 2 },
      },
      { token: admin },
    );
    assert.equal(res.status, 422);
    assert.equal(res.body.code, 'VALIDATION_FAILED');
    const fields = new Set(res.body.errors.map((e: { field: string }) => e.field));
    for (const f of ['currency', 'base_fee', 'per_km', 'per_kg', 'tax_rate', 'included_weight_kg', 'origin.lat'])
      assert.ok(fields.has(f), `${f} is named: ${JSON.stringify(res.body.errors)}`);
    for (const currency of ['XAU', 'EU', 'EURO', 'eur'])
      assert.equal(
        (await app.http.put('/v1/client/delivery-price-model', { ...MODEL, currency }, { token: admin })).status,
        422,
        currency,
      );
    const heavy = await app.http.post(
      '/v1/orders/rate',
      { type: 'D', address: ADDRESS, packages: [{ weight_grams: 2_000_000 }] },
      { token: admin },
    );
    assert.equal(heavy.status, 422);
    const model = await app.http.get('/v1/client/delivery-price-model', { token: admin });
    assert.equal(model.body.price_model.base_fee, '4.9000', 'the model is unchanged');
  });

  test('rate: base fee, road distance from OSRM, weight above the included kilograms, each surcharge, tax', async () => {
    osrm.received.length = 0;
    const res = await app.http.post(
      '/v1/orders/rate',
      {
        type: 'P2P',
        address: ADDRESS,
        packages: [{ weight_grams: 4000 }, { weight_grams: 2500 }],
        time_window: { start: '2026-12-24T09:00:00Z', end: '2026-12-24T12:00:00Z' },
      },
      { token: admin },
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, {
      result: true,
      currency: 'EUR',
      distance_km: '20.000',
      distance_source: 'road',
      chargeable_weight_kg: 2,
      price_details: [
        { code: 'base_fee', quantity: '1', unit: 'delivery', unit_amount: '4.9000', amount: '4.90' },
        // 0.85 x 20.000 km
        { code: 'distance', quantity: '20.000', unit: 'km', unit_amount: '0.8500', amount: '17.00' },
        // 6.5 kg, 5 included: 2 started kilograms
        { code: 'weight', quantity: '2', unit: 'kg', unit_amount: '0.5000', amount: '1.00' },
        { code: 'p2p_surcharge', quantity: '1', unit: 'delivery', unit_amount: '2.0000', amount: '2.00' },
        { code: 'time_window_surcharge', quantity: '1', unit: 'delivery', unit_amount: '3.0000', amount: '3.00' },
        { code: 'extra_package_surcharge', quantity: '1', unit: 'package', unit_amount: '1.0000', amount: '1.00' },
      ],
      // 28.90 + 20 %
      tax: '5.78',
      shipping_price: '34.68',
    });
    assert.equal(sumLines(res.body.price_details) + 578, 3468, 'the lines add up to the price before tax');
    assert.equal(osrm.received.length, 1);
    assert.match(
      osrm.received[0]!.url,
      /^\/route\/v1\/driving\/2\.3522,48\.8566;2\.44,48\.86\?overview=false/,
      'OSRM is asked longitude first, depot to recipient',
    );

    const plain = await app.http.post('/v1/orders/rate', { type: 'D', address: ADDRESS }, { token: admin });
    assert.deepEqual(
      plain.body.price_details.map((l: { code: string }) => l.code),
      ['base_fee', 'distance'],
      'an unmeasured single package of a D order: no weight, no surcharge',
    );
    assert.equal(plain.body.shipping_price, '26.28'); // (4.90 + 17.00) x 1.2

    const noCoordinates = await app.http.post(
      '/v1/orders/rate',
      { type: 'D', address: { ...ADDRESS, lat: undefined, lng: undefined } },
      { token: admin, lang: 'fr' },
    );
    assert.equal(noCoordinates.status, 422);
    assert.equal(noCoordinates.body.code, 'DELIVERY_COORDINATES_REQUIRED');
    assert.match(noCoordinates.body.message, /coordonnées/);
  });

  test('OSRM failing, answering no route or a bad route, or not answering in time: the price falls back to the great-circle distance', async () => {
    const greatCircle = greatCircleMeters(DEPOT, { lat: ADDRESS.lat, lng: ADDRESS.lng });
    const expectedKm = (greatCircle / 1000).toFixed(3);
    for (const behaviour of [
      () => 500,
      () => ({ status: 200, json: { code: 'NoRoute', message: 'Impossible route between points' } }),
      () => ({ status: 200, json: { code: 'Ok', routes: [{ distance: -5 }] } }),
      () => 'hang' as const,
    ]) {
      osrm.behave(behaviour);
      const res = await app.http.post('/v1/orders/rate', { type: 'D', address: ADDRESS }, { token: admin });
      assert.equal(res.status, 200);
      assert.equal(res.body.distance_source, 'great_circle');
      assert.equal(res.body.distance_km, expectedKm);
      const distance = res.body.price_details.find((l: { code: string }) => l.code === 'distance');
      assert.equal(distance.quantity, expectedKm);
      assert.equal(distance.amount, (Math.round((85 * greatCircle) / 1000) / 100).toFixed(2));
    }

    // A bulk placement asks the failing router once, then prices the rest great-circle.
    osrm.received.length = 0;
    const bulk = await app.http.post(
      '/v1/client/batchOrderCreate',
      { orders: [1, 2, 3].map((n) => orderBody(`BULK-FALLBACK-${n}`)) },
      { token: admin },
    );
    assert.equal(bulk.status, 200, JSON.stringify(bulk.body));
    assert.equal(osrm.received.length, 1);
    const [row] = await app
      .em()
      .execute<{ prices: string[] }[]>(
        "select array_agg(shipping_price::text) as prices from delivery_order where order_ref like 'BULK-FALLBACK-%'",
      );
    assert.equal(row!.prices.length, 3);
    assert.equal(new Set(row!.prices).size, 1, 'the same delivery, the same great-circle price');
    osrm.behave(() => ({ status: 200, json: osrmAnswer }));
  });

  test('a router at a private address is not called unless the operator allows it', async () => {
    const guarded = await startApp({ ROUTER_URL: osrm.url }, { worker: false });
    try {
      osrm.received.length = 0;
      const res = await guarded.http.post('/v1/orders/rate', { type: 'D', address: ADDRESS }, { token: admin });
      assert.equal(res.status, 200);
      assert.equal(res.body.distance_source, 'great_circle');
      assert.equal(osrm.received.length, 0);
    } finally {
      await guarded.running.close();
    }
  });

  test('MCP quote_delivery answers what rate answers', async () => {
    const rest = await app.http.post('/v1/orders/rate', { type: 'D', address: ADDRESS }, { token: admin });
    const result = await callTool(app.url, admin, 'quote_delivery', { type: 'D', address: ADDRESS });
    assert.equal(result.isError, false, JSON.stringify(result.body));
    assert.deepEqual(result.body, rest.body);
  });

  test('an order carries the price it was created at; without coordinates it is created unpriced', async () => {
    const rate = await app.http.post(
      '/v1/orders/rate',
      { type: 'D', address: ADDRESS, packages: [{ weight_grams: 4000 }, { weight_grams: 2500 }] },
      { token: admin },
    );
    const created = await app.http.post('/v1/client/orderCreate', orderBody('PRICED-1'), { token: admin });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.shipping_price, rate.body.shipping_price, 'the creation answers the price');
    assert.deepEqual(created.body.price_details, rate.body.price_details);
    const one = await app.http.get(`/v1/orders/${created.body.order_id}`, { token: admin });
    assert.equal(one.body.order.shipping_price, rate.body.shipping_price);
    assert.equal(one.body.order.tax, rate.body.tax);
    assert.equal(one.body.order.currency, 'EUR');
    assert.deepEqual(one.body.order.price_details, rate.body.price_details);
    assert.equal(one.body.order.customer_id, null);
    assert.equal(one.body.order.price_hidden, undefined);

    const unpriced = await app.http.post(
      '/v1/client/orderCreate',
      orderBody('UNPRICED-1', { recipient: { name: 'No Coordinates', address: { ...ADDRESS, lat: null, lng: null } } }),
      { token: admin },
    );
    assert.equal(unpriced.status, 200);
    const read = await app.http.get(`/v1/orders/${unpriced.body.order_id}`, { token: admin });
    assert.equal(read.body.order.shipping_price, null);
    assert.equal(read.body.order.currency, null);
    assert.equal(read.body.order.price_details, null);

    // A business without a model creates unpriced orders, as before.
    const theirs = await app.http.post('/v1/client/orderCreate', orderBody('THEIRS-1'), { token: otherAdmin });
    const theirOrder = await app.http.get(`/v1/orders/${theirs.body.order_id}`, { token: otherAdmin });
    assert.equal(theirOrder.body.order.shipping_price, null);
    // ... and cannot read this business's order.
    assert.equal((await app.http.get(`/v1/orders/${created.body.order_id}`, { token: otherAdmin })).status, 404);
  });

  test('a customer places its own order, sees only its own, and cannot name another customer', async () => {
    const staffOrder = await app.http.post('/v1/client/orderCreate', orderBody('STAFF-ONLY'), { token: admin });
    const mine = await app.http.post('/v1/client/orderCreate', orderBody('CUST-OWN-1'), { token: customer });
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    const read = await app.http.get(`/v1/orders/${mine.body.order_id}`, { token: customer });
    assert.equal(read.status, 200);
    assert.equal(read.body.order.customer_id, b.users.customer.id);
    assert.ok(read.body.order.shipping_price, 'priced like any order of the business');

    const list = await app.http.get('/v1/orders?per_page=200', { token: customer });
    assert.equal(list.status, 200);
    const ids = list.body.orders.map((o: { id: number }) => o.id);
    assert.ok(ids.includes(mine.body.order_id));
    assert.ok(!ids.includes(staffOrder.body.order_id), "the business's other orders are not listed");
    assert.ok(list.body.orders.every((o: { customer_id: number }) => o.customer_id === b.users.customer.id));
    assert.equal(list.body.total, ids.length);
    assert.equal((await app.http.get(`/v1/orders/${staffOrder.body.order_id}`, { token: customer })).status, 404);

    const naming = await app.http.post(
      '/v1/client/orderCreate',
      orderBody('CUST-OTHER', { customer_id: other.users.customer.id }),
      { token: customer },
    );
    assert.equal(naming.status, 422);
    assert.deepEqual(
      naming.body.errors.map((e: { field: string }) => e.field),
      ['customer_id'],
    );

    // A customer of another business sees none of this business's orders.
    assert.equal((await app.http.get(`/v1/orders/${mine.body.order_id}`, { token: otherCustomer })).status, 404);
    const theirList = await app.http.get('/v1/orders', { token: otherCustomer });
    assert.ok(!theirList.body.orders.some((o: { id: number }) => o.id === mine.body.order_id));
  });

  test("the business names a customer of its own; another business's customer or a non-customer is refused", async () => {
    const named = await app.http.post(
      '/v1/client/orderCreate',
      orderBody('FOR-CUST-1', { customer_id: b.users.customer.id }),
      { token: admin },
    );
    assert.equal(named.status, 200, JSON.stringify(named.body));
    const seen = await app.http.get(`/v1/orders/${named.body.order_id}`, { token: customer });
    assert.equal(seen.status, 200);
    assert.equal(seen.body.order.customer_id, b.users.customer.id);

    for (const customer_id of [other.users.customer.id, b.users.employee.id, 2_000_000_000]) {
      const refused = await app.http.post('/v1/client/orderCreate', orderBody('FOR-WRONG', { customer_id }), {
        token: admin,
      });
      assert.equal(refused.status, 422, String(customer_id));
      assert.equal(refused.body.code, 'VALIDATION_FAILED');
      assert.deepEqual(
        refused.body.errors.map((e: { field: string }) => e.field),
        ['customer_id'],
      );
    }
    const none = await app
      .em()
      .execute<{ n: string }[]>("select count(*) as n from delivery_order where order_ref = 'FOR-WRONG'");
    assert.equal(Number(none[0]!.n), 0, 'nothing is created');
  });

  test("the customer's webhook override receives its orders' real events; with local delivery hidden, no price anywhere", async () => {
    const secret = 'delivery-prices-secret-0123456789';
    const put = (body: Record<string, unknown>) => app.http.put('/v1/webhook-settings', body, { token: admin });
    assert.equal(
      (
        await put({
          webhook_sign_secret: secret,
          order_create_webhook_url: `${receiver.url}/merchant`,
          order_status_change_webhook_url: `${receiver.url}/merchant`,
        })
      ).status,
      200,
    );
    assert.equal(
      (
        await put({
          customer_id: b.users.customer.id,
          webhook_sign_secret: secret,
          order_create_webhook_url: `${receiver.url}/customer`,
          order_status_change_webhook_url: `${receiver.url}/customer`,
        })
      ).status,
      200,
    );
    const created = ajv.compile(eventDefinition('order.created')!.payload);
    const statusChange = ajv.compile(eventDefinition('order.status_change')!.payload);
    const events = (orderId: number, path: string) =>
      receiver.received
        .filter((r: Received) => r.url === path)
        .map((r) => JSON.parse(r.body))
        .filter((p) => p.data?.order?.id === orderId);

    // Shown: the customer's override gets the order's creation with its price.
    const shown = await app.http.post('/v1/client/orderCreate', orderBody('HOOK-SHOWN'), { token: customer });
    const shownEvent = await waitFor(async () => events(shown.body.order_id, '/customer')[0]);
    assert.match(shownEvent.data.shipping_price, /^\d+\.\d{2}$/);
    assert.equal(shownEvent.data.currency, 'EUR');
    assert.equal(shownEvent.data.price_hidden, undefined);
    assert.ok(created(shownEvent), JSON.stringify(created.errors));

    // An order of the business not placed for the customer never reaches the customer's override.
    const staff = await app.http.post('/v1/client/orderCreate', orderBody('HOOK-STAFF'), { token: admin });
    await waitFor(async () => events(staff.body.order_id, '/merchant')[0]);

    const hide = await app.http.put(
      `/v1/client/customers/${b.users.customer.id}/hidden-price-families`,
      { families: ['local_delivery'] },
      { token: admin },
    );
    assert.equal(hide.status, 200, JSON.stringify(hide.body));

    const hidden = await app.http.post('/v1/client/orderCreate', orderBody('HOOK-HIDDEN', { type: 'P2P' }), {
      token: customer,
    });
    const id = hidden.body.order_id;
    assert.equal(hidden.body.price_hidden, true);
    assert.ok(!('shipping_price' in hidden.body) && !('price_details' in hidden.body));
    const hold = await app.http.post(`/v1/orders/${id}/hold`, { reason: 'customer asked' }, { token: admin });
    assert.equal(hold.status, 200, JSON.stringify(hold.body));

    const [customerCreated, customerChange] = await waitFor(async () => {
      const got = events(id, '/customer');
      const c = got.find((p) => p.event === 'order.created');
      const s = got.find((p) => p.event === 'order.status_change');
      return c && s && ([c, s] as const);
    });
    for (const key of ['shipping_price', 'tax', 'currency', 'price_details'])
      assert.ok(!(key in customerCreated.data), `${key} is left out`);
    assert.equal(customerCreated.data.price_hidden, true);
    assert.ok(created(customerCreated), JSON.stringify(created.errors));
    assert.equal(customerChange.data.price_hidden, true);
    assert.equal(customerChange.data.after_status, 8);
    assert.ok(statusChange(customerChange), JSON.stringify(statusChange.errors));

    const merchantCreated = await waitFor(async () => events(id, '/merchant').find((p) => p.event === 'order.created'));
    assert.ok(merchantCreated.data.shipping_price, 'the merchant sees the price');
    assert.ok(merchantCreated.data.price_details.some((l: { code: string }) => l.code === 'p2p_surcharge'));
    assert.equal(merchantCreated.data.price_hidden, undefined);
    assert.equal(
      events(staff.body.order_id, '/customer').length,
      0,
      "the business's own order never went to the customer",
    );

    // The API answers to the customer carry no price either.
    const detail = await app.http.get(`/v1/orders/${id}`, { token: customer });
    assert.equal(detail.body.order.price_hidden, true);
    for (const key of ['shipping_price', 'tax', 'currency', 'price_details']) assert.ok(!(key in detail.body.order));
    const list = await app.http.get('/v1/orders', { token: customer });
    assert.ok(list.body.orders.every((o: Record<string, unknown>) => o.price_hidden === true && !('tax' in o)));
    // Every other answer that shows the customer an order: find_order, order_snapshot and the edits' answers.
    const noPrice = (o: Record<string, unknown>, what: string) => {
      assert.equal(o.price_hidden, true, what);
      for (const key of ['shipping_price', 'tax', 'currency', 'price_details'])
        assert.ok(!(key in o), `${what}: ${key}`);
    };
    const found = await app.http.post('/v1/orders/find', { order_ref: 'HOOK-HIDDEN' }, { token: customer });
    assert.equal(found.body.orders.length, 1, JSON.stringify(found.body));
    noPrice(found.body.orders[0], 'find_order');
    const snapshot = await app.http.get(`/v1/orders/${id}/snapshot`, { token: customer });
    assert.equal(snapshot.status, 200, JSON.stringify(snapshot.body));
    noPrice(snapshot.body.order, 'order_snapshot');
    const instructed = await app.http.put(
      `/v1/orders/${id}/delivery-instruction`,
      { delivery_instruction: 'gate 4' },
      { token: customer },
    );
    assert.equal(instructed.status, 200, JSON.stringify(instructed.body));
    noPrice(instructed.body.order, 'update_delivery_instruction');
    const noted = await app.http.put(`/v1/orders/${id}/note`, { note: 'fragile' }, { token: customer });
    assert.equal(noted.status, 200, JSON.stringify(noted.body));
    noPrice(noted.body.order, 'update_order_note');
    const staffFound = await app.http.post('/v1/orders/find', { order_ref: 'HOOK-HIDDEN' }, { token: admin });
    assert.ok(staffFound.body.orders[0].shipping_price, 'staff find the price');
    const staffSnapshot = await app.http.get(`/v1/orders/${id}/snapshot`, { token: admin });
    assert.ok(staffSnapshot.body.order.shipping_price, "staff read it in the order's snapshot");
    const rate = await app.http.post('/v1/orders/rate', { type: 'D', address: ADDRESS }, { token: customer });
    assert.equal(rate.status, 200);
    assert.equal(rate.body.price_hidden, true);
    for (const key of ['shipping_price', 'tax', 'currency', 'price_details']) assert.ok(!(key in rate.body));
    assert.equal(rate.body.distance_source, 'road', 'what is not a price stays');
    // The business's staff still see it.
    const staffView = await app.http.get(`/v1/orders/${id}`, { token: admin });
    assert.ok(staffView.body.order.shipping_price);
    assert.equal(staffView.body.order.price_hidden, undefined);

    // A customer's order carried by a delivery provider: the carrier's status push reaches the customer's override
    // masked (carrier status 43 and operation 6008 read as our own), and the merchant's as written.
    const carrier = await makeProvider(app.em(), 'delivery_provider');
    const carrierToken = await app.login(carrier.user.email, PASSWORD);
    const key = (await app.http.post('/v1/otep/credentials', { name: 'hub' }, { token: carrierToken })).body.credential
      .secret;
    const carried = await makeOrder(app.em(), b.business.id, {
      customerId: b.users.customer.id,
      carrierProviderId: carrier.business.id,
      selfDelivery: false,
    });
    const pushed = await app.http.post(
      '/v1/otep/ingest',
      {
        events: [
          {
            subject: carried.trackingNumber,
            occurred_at: new Date().toISOString(),
            status_code: 'otep:core:in_transit',
            otep_version: '1.0.0',
          },
        ],
      },
      { token: key },
    );
    assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
    const [masked, written] = await waitFor(async () => {
      const c = events(carried.id, '/customer').find((p) => p.event === 'order.status_change');
      const m = events(carried.id, '/merchant').find((p) => p.event === 'order.status_change');
      return c && m && ([c, m] as const);
    });
    assert.equal(written.data.after_status, 43);
    assert.equal(written.data.operation_type, 6008);
    assert.deepEqual(
      [masked.data.after_status, masked.data.order.status, masked.data.operation_type, masked.data.ip_address],
      [2, 'ON_THE_WAY', 6002, ''],
    );
    assert.equal(masked.data.operation_description, '');
    assert.equal(masked.data.price_hidden, true);
    assert.ok(statusChange(masked), JSON.stringify(statusChange.errors));

    // Its answers mask the carrier the same way: the snapshot's order and history, find_order, get_order_detail.
    await app.em().execute("update order_package set carrier_reference = 'CR-MASKED' where order_id = ?", [carried.id]);
    const CARRIER_STATUS_IDS = [33, 43];
    const CARRIER_OPERATIONS = [6007, 2009, 6008, 6009, 6010];
    const seen = await app.http.get(`/v1/orders/${carried.id}/snapshot`, { token: customer });
    assert.equal(seen.status, 200, JSON.stringify(seen.body));
    assert.deepEqual([seen.body.order.status_id, seen.body.order.status], [2, 'ON_THE_WAY']);
    const push = seen.body.status_history.at(-1);
    assert.deepEqual(
      [push.before_status, push.after_status, push.status, push.operation_type, push.description],
      [1, 2, 'ON_THE_WAY', 6002, ''],
    );
    for (const h of seen.body.status_history) {
      assert.ok(!CARRIER_STATUS_IDS.includes(h.after_status) && !CARRIER_STATUS_IDS.includes(h.before_status));
      assert.ok(!CARRIER_OPERATIONS.includes(h.operation_type), JSON.stringify(h));
    }
    const foundCarried = await app.http.post(
      '/v1/orders/find',
      { tracking_number: carried.trackingNumber },
      { token: customer },
    );
    assert.deepEqual([foundCarried.body.orders[0].status_id, foundCarried.body.orders[0].status], [2, 'ON_THE_WAY']);
    assert.deepEqual(
      seen.body.packages.map((p: { carrier_reference: string | null }) => p.carrier_reference),
      [null],
    );
    const detailCarried = await app.http.get(`/v1/orders/${carried.id}`, { token: customer });
    assert.equal(detailCarried.body.order.status_id, 2);
    assert.equal(detailCarried.body.order.packages[0].carrier_reference, null);
    // The business's staff see the carrier's own status and step.
    const asIs = await app.http.get(`/v1/orders/${carried.id}/snapshot`, { token: admin });
    assert.deepEqual([asIs.body.order.status_id, asIs.body.order.status], [43, 'CARRIER_ON_THE_WAY']);
    assert.equal(asIs.body.packages[0].carrier_reference, 'CR-MASKED');
    assert.deepEqual(
      [asIs.body.status_history.at(-1).after_status, asIs.body.status_history.at(-1).operation_type],
      [43, 6008],
    );
  });

  test('a reroute reprices the order at its new address under the model now; the trail keeps both prices', async () => {
    const packages = [{ weight_grams: 4000 }, { weight_grams: 2500 }];
    const created = await app.http.post('/v1/client/orderCreate', orderBody('REROUTE-PRICED'), { token: admin });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = created.body.order_id;
    const first = created.body.shipping_price as string;
    assert.ok(first);
    const dearer = await app.http.put(
      '/v1/client/delivery-price-model',
      { ...MODEL, base_fee: '9.90' },
      { token: admin },
    );
    assert.equal(dearer.status, 200, JSON.stringify(dearer.body));
    try {
      const to = { ...ADDRESS, line1: '2 Rue de Rivoli' };
      const rate = await app.http.post('/v1/orders/rate', { type: 'D', address: to, packages }, { token: admin });
      assert.notEqual(rate.body.shipping_price, first);
      const moved = await app.http.post(`/v1/orders/${id}/reroute`, { address: to, reason: 'moved' }, { token: admin });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.equal(moved.body.order.shipping_price, rate.body.shipping_price);
      assert.equal(moved.body.order.tax, rate.body.tax);
      assert.deepEqual(moved.body.order.price_details, rate.body.price_details);
      // Where the model cannot price it (no coordinates, and it charges per km), the order is unpriced, as at creation.
      const nowhere = await app.http.post(
        `/v1/orders/${id}/reroute`,
        { address: { ...ADDRESS, lat: null, lng: null } },
        { token: admin },
      );
      assert.equal(nowhere.status, 200, JSON.stringify(nowhere.body));
      assert.deepEqual(
        [nowhere.body.order.shipping_price, nowhere.body.order.tax, nowhere.body.order.currency],
        [null, null, null],
      );
      assert.equal(nowhere.body.order.price_details, null);
      const trail = await app.http.get(`/v1/orders/${id}/audit-timeline`, { token: admin });
      assert.equal(trail.status, 200, JSON.stringify(trail.body));
      const reroutes = trail.body.events.filter((e: { operation_type: number }) => e.operation_type === 3014);
      assert.deepEqual(
        reroutes.map(
          (e: {
            details: { price: { old: { shipping_price: string } | null; new: { shipping_price: string } | null } };
          }) => [e.details.price.old?.shipping_price ?? null, e.details.price.new?.shipping_price ?? null],
        ),
        [
          [first, rate.body.shipping_price],
          [rate.body.shipping_price, null],
        ],
      );
      assert.deepEqual(reroutes[0].details.price.new.price_details, rate.body.price_details);
    } finally {
      await app.http.put('/v1/client/delivery-price-model', MODEL, { token: admin });
    }
  });
});
