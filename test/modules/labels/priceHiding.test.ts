/**
 * Price hiding of label orders (docs/labels.md, "Price hiding"; docs/webhooks.md, price families): a customer account
 * its business hides label_service from gets rates, compare, submitOrder and its label orders without price fields
 * and with price_hidden: true, while its local orders keep their prices; staff always see them. A label order's
 * events carry family label_service, so the customer's override receives them without prices.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { payloadFor, type EventRow } from '../../../src/modules/webhooks/transform.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { keepEvents, priceModel } from '../../helpers/factories.ts';
import { labelWorld, rateBody, type LabelWorld } from './world.ts';

const PRICE_KEYS = [
  'currency',
  'base_charge',
  'extra_charges',
  'total_charge',
  'shipping_price',
  'tax',
  'price_details',
];
const assertNoPrice = (value: Record<string, unknown>, what: string) => {
  for (const key of PRICE_KEYS) assert.ok(!(key in value), `${what}: ${key} is left out`);
};
const LOCAL_ADDRESS = {
  line1: '1 Rue de Rivoli',
  city: 'Paris',
  postal_code: '75001',
  country: 'FR',
  lat: 48.86,
  lng: 2.44,
};

describe('labels: price hiding', () => {
  let app: TestApp;
  let w: LabelWorld;

  before(async () => {
    app = await startApp();
    w = await labelWorld(app);
    await keepEvents(app.em(), w.business.id);
    const hide = await app.http.put(
      `/v1/client/customers/${w.users.customer.id}/hidden-price-families`,
      { families: ['label_service'] },
      { token: w.admin },
    );
    assert.equal(hide.status, 200, JSON.stringify(hide.body));
  });
  after(() => app.running.close());

  const outboxOf = (orderId: number) =>
    app
      .em()
      .execute<(EventRow & { customer_id: number | null })[]>(
        "select event_type, payload, family, carrier_held, customer_id from outbox_event where reference_type = 'order' and reference_id = ? order by id",
        [String(orderId)],
      );

  test('rate and compare: no price for the customer, sorted by transit days, no cheapest; staff see prices', async () => {
    const rate = await app.http.post('/v1/labelservice/rate', rateBody('PH-1'), { token: w.customer });
    assert.equal(rate.status, 200, JSON.stringify(rate.body));
    assert.equal(rate.body.price_hidden, true);
    assert.ok(rate.body.rates.length > 0);
    for (const r of rate.body.rates) {
      assertNoPrice(r, 'rate');
      assert.equal(r.price_hidden, true);
      assert.ok(r.rate_id && r.service_name && r.transit_days && r.estimated_delivery);
    }

    const compare = await app.http.post('/v1/labelservice/compare', rateBody('PH-2'), { token: w.customer });
    assert.equal(compare.status, 200, JSON.stringify(compare.body));
    assert.equal(compare.body.price_hidden, true);
    assert.ok(!('cheapest_rate_id' in compare.body));
    const days = compare.body.rates.map((r: any) => r.transit_days);
    assert.deepEqual(
      days,
      [...days].sort((a, b) => a - b),
    );
    assert.equal(compare.body.fastest_rate_id, compare.body.rates[0].rate_id);
    for (const r of compare.body.rates) assertNoPrice(r, 'compare rate');

    const staff = await app.http.post('/v1/labelservice/compare', rateBody('PH-3'), { token: w.employee });
    assert.ok(staff.body.cheapest_rate_id);
    assert.equal(staff.body.price_hidden, undefined);
    assert.ok(staff.body.rates.every((r: any) => r.total_charge));
  });

  test('submitOrder and the order reads: no price on its label orders, its local prices still shown', async () => {
    const { body } = await app.http.post('/v1/labelservice/rate', rateBody('PH-4'), { token: w.customer });
    const bought = await app.http.post(
      '/v1/labelservice/submitOrder',
      { rate_id: body.rates[0].rate_id },
      { token: w.customer },
    );
    assert.equal(bought.status, 201, JSON.stringify(bought.body));
    assert.equal(bought.body.price_hidden, true);
    assertNoPrice(bought.body, 'submitOrder');
    const labelOrder = bought.body.order_id;

    const read = await app.http.get(`/v1/orders/${labelOrder}`, { token: w.customer });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.equal(read.body.order.price_hidden, true);
    assertNoPrice(read.body.order, 'order read');
    const staffRead = await app.http.get(`/v1/orders/${labelOrder}`, { token: w.admin });
    assert.ok(staffRead.body.order.shipping_price);
    assert.equal(staffRead.body.order.price_hidden, undefined);

    // A local order of the same customer keeps its price: local_delivery is not hidden from it.
    const model = await app.http.put('/v1/client/delivery-price-model', priceModel({ lat: 48.8566, lng: 2.3522 }), {
      token: w.admin,
    });
    assert.equal(model.status, 200, JSON.stringify(model.body));
    const local = await app.http.post(
      '/v1/client/orderCreate',
      {
        type: 'D',
        scheduled_date: '2026-12-24',
        order_ref: 'PH-LOCAL',
        recipient: { name: 'Ada', address: LOCAL_ADDRESS },
      },
      { token: w.customer },
    );
    assert.equal(local.status, 200, JSON.stringify(local.body));
    const list = await app.http.get('/v1/orders', { token: w.customer });
    assert.equal(list.status, 200);
    const listed = new Map(list.body.orders.map((o: any) => [o.id, o]));
    const listedLocal: any = listed.get(local.body.order_id);
    const listedLabel: any = listed.get(labelOrder);
    assert.ok(listedLocal.shipping_price, 'the local order shows its price');
    assert.equal(listedLocal.price_hidden, undefined);
    assert.equal(listedLabel.price_hidden, true);
    assertNoPrice(listedLabel, 'listed label order');

    // Staff buying for the customer see the price; the customer reading the order does not.
    const { body: staffRates } = await app.http.post('/v1/labelservice/rate', rateBody('PH-5'), { token: w.admin });
    const forCustomer = await app.http.post(
      '/v1/labelservice/submitOrder',
      { rate_id: staffRates.rates[0].rate_id, customer_id: w.users.customer.id },
      { token: w.admin },
    );
    assert.equal(forCustomer.status, 201, JSON.stringify(forCustomer.body));
    assert.equal(forCustomer.body.shipping_price, staffRates.rates[0].total_charge);
  });

  test("a label order's order.created and status changes carry family label_service: the customer's override gets no price", async () => {
    const { body } = await app.http.post('/v1/labelservice/rate', rateBody('SBX-REFUSE-ONCE-PH'), {
      token: w.customer,
    });
    const refused = await app.http.post(
      '/v1/labelservice/submitOrder',
      { rate_id: body.rates[0].rate_id },
      { token: w.customer },
    );
    assert.equal(refused.status, 424, JSON.stringify(refused.body));
    const events = await outboxOf(refused.body.order_id);
    const types = events.map((e) => e.event_type);
    assert.ok(types.includes('order.created'), types.join());
    assert.ok(types.includes('order.status_change'), types.join());
    for (const e of events) {
      assert.equal(e.family, 'label_service', e.event_type);
      assert.equal(e.customer_id, w.users.customer.id);
    }
    const created = events.find((e) => e.event_type === 'order.created')!;
    assert.ok((created.payload.data as Record<string, unknown>).shipping_price, 'stored with its price');
    const toCustomer = payloadFor(created, {
      customer_id: w.users.customer.id,
      hidden_price_families: ['label_service'],
    });
    assertNoPrice(toCustomer.data as Record<string, unknown>, 'order.created to the customer');
    assert.equal((toCustomer.data as Record<string, unknown>).price_hidden, true);
    const toStaff = payloadFor(created, { customer_id: null, hidden_price_families: [] });
    assert.ok((toStaff.data as Record<string, unknown>).shipping_price);

    // A local order's events stay local_delivery: hiding label_service leaves their prices.
    const local = await app.http.post(
      '/v1/client/orderCreate',
      {
        type: 'D',
        scheduled_date: '2026-12-24',
        order_ref: 'PH-LOCAL-2',
        recipient: { name: 'Ada', address: LOCAL_ADDRESS },
      },
      { token: w.customer },
    );
    const localEvents = await outboxOf(local.body.order_id);
    assert.ok(localEvents.length > 0);
    assert.ok(localEvents.every((e) => e.family === 'local_delivery'));
  });
});
