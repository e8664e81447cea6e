/**
 * Shipping orders through the HTTP API (docs/customer-services.md, "Shipping orders"): the services a customer sees,
 * an estimate, a creation and its idempotency key, a payment in two parts from the wallet, the delivery order placed
 * by the process (own fleet and a sandbox carrier's label) in the shipping_service family at the order's price, a
 * cancel with its refund, the unpaid expiry refunding a partial payment, price hiding (no price anywhere, pay refused,
 * settled offline), and isolation (another customer, another business, staff on customer endpoints). Then the second
 * round: a key reused with another request, the reserved `tms:` label keys, a delivery order cancelled by staff
 * (the order follows and is refunded), one a delivery provider holds (refused, nothing written), a carrier with no
 * rate (cancelled and refunded), a label bought for an order cancelled meanwhile (voided), and a payment past
 * expires_at before the process expired it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { randomUUID } from 'node:crypto';
import { createShippingOrderActivities } from '../../../src/modules/shipping-orders/activities.ts';
import { shippingOrderWorkflowId } from '../../../src/modules/shipping-orders/contract.ts';
import type { shippingOrder } from '../../../src/modules/shipping-orders/workflows.ts';
import { walletAvailable } from '../../../src/modules/wallet/index.ts';
import { executeBound } from '../../../src/platform/db/orm.ts';
import { createLogger } from '../../../src/platform/logger.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { anotherCustomer, setCustomerServiceSettings, topUpWallet } from '../customer-services/orderWorld.ts';
import { labelWorld, RECIPIENT, SHIPPER } from '../labels/world.ts';

const PRICING = { base_fee: '5.00', per_package: '1.00', per_kg: '0.50', included_weight_kg: '1', tax_rate: '20' };
/** Two packages, 2 kg together: 5.00 + 2 x 1.00 + 1 started kg x 0.50 = 7.50, tax 1.50, total 9.00. */
const PACKAGES = [
  { weight_grams: 1200, length_mm: 300, width_mm: 200, height_mm: 100, description: 'Books' },
  { weight_grams: 800 },
];
const shipment = (extra: Record<string, unknown> = {}) => ({
  recipient: RECIPIENT,
  packages: PACKAGES,
  reference: 'SO-TEST',
  ...extra,
});
const BASE = '/v1/customer/shipping-orders';

describe('shipping orders', () => {
  let app: TestApp;

  before(async () => {
    app = await startApp();
  });
  after(() => app.running.close());

  /** A business with both sandbox carriers, EUR settings, an own-fleet service LOCAL and a carrier service SWIFT. */
  async function world(settings: Record<string, unknown> = {}) {
    const w = await labelWorld(app);
    await setCustomerServiceSettings(app, w.admin, { currency: 'EUR', ...settings });
    for (const service of [
      { code: 'LOCAL', name: 'Local', fulfilment: { kind: 'own_fleet' }, max_packages: 3, max_weight_grams: 5000 },
      {
        code: 'SWIFT',
        name: 'Swift Express',
        fulfilment: { kind: 'carrier', carrier: 'sandbox_swift', service: 'swift_express' },
        max_packages: 2,
        max_weight_grams: 20_000,
      },
      { code: 'OLD', name: 'Retired', fulfilment: { kind: 'own_fleet' }, active: false },
    ]) {
      const res = await app.http.post(
        '/v1/client/customer-services/shipping-services',
        { pricing: PRICING, ...service },
        { token: w.admin },
      );
      assert.equal(res.status, 201, JSON.stringify(res.body));
    }
    const topUp = (amount: bigint, key = randomUUID()) =>
      topUpWallet(app, { businessId: w.business.id, customerId: w.users.customer.id, amount, key });
    const available = () => walletAvailable(app.em(), w.business.id, w.users.customer.id, 'EUR');
    return { ...w, topUp, available };
  }
  type World = Awaited<ReturnType<typeof world>>;

  const create = async (w: World, code: string, body: Record<string, unknown>) => {
    const res = await app.http.post(`${BASE}/services/${code}/orders`, body, { token: w.customer });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.result, true);
    return res.body.shipping_order;
  };
  /** A call's answered order (`{result, shipping_order}`), its status asserted. */
  const orderOf = (res: { status: number; body: any }, status = 200) => {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.result, true);
    return res.body.shipping_order;
  };
  const read = async (w: World, id: number) => orderOf(await app.http.get(`${BASE}/${id}`, { token: w.customer }));
  const pay = (w: World, id: number) => app.http.post(`${BASE}/${id}/pay`, {}, { token: w.customer });
  /** The customer's cancel of a placed order: answered cancelled, its delivery order CANCELLED. */
  const cancelDelivered = async (w: World, id: number) => {
    const res = orderOf(await app.http.post(`${BASE}/${id}/cancel`, {}, { token: w.customer }));
    assert.equal(res.status, 'cancelled');
    assert.equal(res.cancel_reason, 'customer');
    assert.equal(res.order.status, 'CANCELLED');
    return res;
  };
  const labelState = async (deliveryOrderId: number) =>
    (
      await executeBound<{ state: string }>(app.em(), 'select state from label_order where order_id = $1', [
        deliveryOrderId,
      ])
    )[0]!.state;
  /** The process's activities, as a worker runs them (a retry after a kill calls them again). */
  const orderActivities = () =>
    createShippingOrderActivities({
      orm: app.running.orm,
      config: app.config,
      log: createLogger('silent'),
      temporal: app.running.temporal,
      databaseUrl: '',
    });
  const processOf = (id: number) =>
    app.running.temporal.workflow.getHandle<typeof shippingOrder>(shippingOrderWorkflowId(id));
  const deliveryOrder = async (id: number) =>
    (
      await executeBound<{ price_family: string; shipping_price: string; tax: string; customer_id: number }>(
        app.em(),
        'select price_family, shipping_price::text, tax::text, customer_id from delivery_order where id = $1',
        [id],
      )
    )[0]!;

  test('services, their configuration and an estimate', async () => {
    const w = await world();
    const list = await app.http.get(`${BASE}/services`, { token: w.customer });
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.deepEqual(list.body.services.map((s: any) => s.code).sort(), ['LOCAL', 'SWIFT']);
    const local = list.body.services.find((s: any) => s.code === 'LOCAL');
    assert.equal(local.fulfilment.kind, 'own_fleet');
    assert.equal(Number(local.pricing.base_fee), 5);

    const config = await app.http.get(`${BASE}/services/SWIFT`, { token: w.customer });
    assert.equal(config.status, 200, JSON.stringify(config.body));
    assert.equal(config.body.fulfilment.kind, 'carrier');
    assert.equal(config.body.max_packages, 2);
    assert.deepEqual(config.body.input_rules.packages, { min: 1, max: 2 });
    assert.equal(config.body.currency, 'EUR');
    assert.equal((await app.http.get(`${BASE}/services/OLD`, { token: w.customer })).status, 404);

    const estimate = await app.http.post(`${BASE}/services/LOCAL/estimate-price`, shipment(), { token: w.customer });
    assert.equal(estimate.status, 200, JSON.stringify(estimate.body));
    assert.equal(estimate.body.currency, 'EUR');
    assert.equal(estimate.body.total, '9.00');
    assert.equal(estimate.body.tax, '1.50');
    assert.deepEqual(
      estimate.body.price_details.map((l: any) => [l.code, l.amount]),
      [
        ['base_fee', '5.00'],
        ['per_package', '2.00'],
        ['weight', '0.50'],
      ],
    );

    const tooMany = await app.http.post(
      `${BASE}/services/SWIFT/estimate-price`,
      shipment({ packages: [...PACKAGES, { weight_grams: 100 }] }),
      { token: w.customer },
    );
    assert.equal(tooMany.status, 422, JSON.stringify(tooMany.body));
    assert.equal(tooMany.body.errors[0].field, 'packages');
    const tooHeavy = await app.http.post(
      `${BASE}/services/LOCAL/estimate-price`,
      shipment({ packages: [{ weight_grams: 6000 }] }),
      { token: w.customer },
    );
    assert.equal(tooHeavy.status, 422, JSON.stringify(tooHeavy.body));
    assert.equal(tooHeavy.body.errors[0].field, 'packages.0.weight_grams');
  });

  test('own fleet: created once per key, paid in two parts, its delivery order placed at its price; cancel refunds', async () => {
    const w = await world();
    const key = `so-key-${w.tag}`;
    const order = await create(w, 'LOCAL', shipment({ idempotency_key: key }));
    assert.equal(order.status, 'pending_payment');
    assert.equal(order.total, '9.00');
    assert.equal(order.balance_due, '9.00');
    assert.equal(order.paid_amount, '0.00');
    assert.equal(order.order, null);
    assert.equal(order.can_cancel, true);
    assert.equal(order.workflow_id, `shipping-order-${order.id}`);
    assert.equal(order.sender, null);
    assert.equal(order.recipient.name, RECIPIENT.name);
    assert.equal(order.packages[0].description, 'Books');

    const again = await create(w, 'LOCAL', shipment({ idempotency_key: key }));
    assert.equal(again.id, order.id);
    assert.equal(order.cancel_reason, null);

    // An empty wallet pays nothing.
    const broke = await app.http.post(`${BASE}/${order.id}/pay`, {}, { token: w.customer });
    assert.equal(broke.status, 409, JSON.stringify(broke.body));
    assert.equal(broke.body.code, 'INSUFFICIENT_FUNDS');

    await w.topUp(400n);
    const part = orderOf(await pay(w, order.id));
    assert.equal(part.status, 'pending_payment');
    assert.equal(part.paid_amount, '4.00');
    assert.equal(part.balance_due, '5.00');
    assert.equal(await w.available(), 0n);

    await w.topUp(1000n);
    const full = orderOf(await pay(w, order.id));
    assert.equal(full.status, 'confirmed');
    assert.equal(full.balance_due, '0.00');
    assert.equal(await w.available(), 500n);

    const paidAgain = await app.http.post(`${BASE}/${order.id}/pay`, {}, { token: w.customer });
    assert.equal(paidAgain.status, 409);
    assert.equal(paidAgain.body.code, 'NOTHING_DUE');
    assert.equal(await w.available(), 500n);

    assert.equal(await processOf(order.id).result(), 'placed');
    const placed = await read(w, order.id);
    assert.equal(placed.order.status, 'NEW_ORDER');
    assert.match(placed.order.tracking_number, /\w+/);
    const delivery = await deliveryOrder(placed.order.id);
    assert.deepEqual(delivery, {
      price_family: 'shipping_service',
      shipping_price: '9.00',
      tax: '1.50',
      customer_id: w.users.customer.id,
    });

    // A retried activity (a worker killed after its commit) places nothing twice, and the expiry changes nothing.
    const activities = orderActivities();
    assert.deepEqual(await activities.placeShippingDelivery(order.id), { placed: true });
    assert.equal(await activities.expireShippingOrder(order.id), 'confirmed');
    const [count] = await executeBound<{ n: number }>(
      app.em(),
      'select count(*)::int as n from delivery_order where customer_id = $1',
      [w.users.customer.id],
    );
    assert.equal(count!.n, 1);
    assert.equal((await read(w, order.id)).order.id, placed.order.id);

    const list = await app.http.get(`${BASE}/services/LOCAL/orders`, { token: w.customer });
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.equal(list.body.total, 1);
    assert.equal(list.body.orders[0].id, order.id);

    const cancelled = await cancelDelivered(w, order.id);
    assert.equal(cancelled.can_cancel, false);
    assert.equal(await w.available(), 1400n);

    const twice = await app.http.post(`${BASE}/${order.id}/cancel`, {}, { token: w.customer });
    assert.equal(twice.status, 409);
    assert.equal(twice.body.code, 'SHIPPING_ORDER_NOT_CANCELLABLE');
    assert.equal(await w.available(), 1400n);
  });

  test('carrier: the label bought at the service’s rate, in the shipping_service family; cancel voids it', async () => {
    const w = await world();
    await w.topUp(2000n);
    const order = await create(w, 'SWIFT', shipment({ sender: SHIPPER }));
    assert.equal(order.sender.company, SHIPPER.company);
    assert.equal(orderOf(await pay(w, order.id)).status, 'confirmed');
    assert.equal(await processOf(order.id).result(), 'placed');

    const placed = await read(w, order.id);
    assert.equal(placed.order.status, 'NEW_ORDER');
    assert.match(placed.order.tracking_number, /\w+/);
    const delivery = await deliveryOrder(placed.order.id);
    assert.equal(delivery.price_family, 'shipping_service');
    assert.equal(delivery.shipping_price, '9.00');
    const [label] = await executeBound<{ state: string; service: string; idempotency_key: string }>(
      app.em(),
      'select state, service, idempotency_key from label_order where order_id = $1',
      [placed.order.id],
    );
    assert.deepEqual(label, { state: 'purchased', service: 'swift_express', idempotency_key: `tms:so-${order.id}` });

    const activities = orderActivities();
    assert.deepEqual(await activities.placeShippingDelivery(order.id), { placed: true });
    const [labels] = await executeBound<{ n: number }>(
      app.em(),
      'select count(*)::int as n from label_order l join delivery_order o on o.id = l.order_id where o.customer_id = $1',
      [w.users.customer.id],
    );
    assert.equal(labels!.n, 1);

    await cancelDelivered(w, order.id);
    assert.equal(await labelState(placed.order.id), 'voided');
    assert.equal(await w.available(), 2000n);
  });

  test('carrier refusal: the label order kept in LABEL_PURCHASE_FAILED; a cancel closes it and refunds', async () => {
    const w = await world();
    await w.topUp(900n);
    const order = await create(w, 'SWIFT', shipment({ reference: 'SBX-REFUSE-SO' }));
    assert.equal(orderOf(await pay(w, order.id)).status, 'confirmed');
    assert.equal(await processOf(order.id).result(), 'placed');
    const placed = await read(w, order.id);
    assert.ok(placed.order, JSON.stringify(placed));
    assert.equal(await labelState(placed.order.id), 'failed');
    const [delivery] = await executeBound<{ status_id: number }>(
      app.em(),
      'select status_id from delivery_order where id = $1',
      [placed.order.id],
    );
    assert.equal(delivery!.status_id, 60);

    await cancelDelivered(w, order.id);
    assert.equal(await w.available(), 900n);
  });

  test('an unpaid order expires and its partial payment is refunded', async () => {
    const w = await world({ unpaid_expiry_seconds: 3 });
    await w.topUp(300n);
    const order = await create(w, 'LOCAL', shipment());
    assert.equal(orderOf(await pay(w, order.id)).paid_amount, '3.00');
    assert.equal(await w.available(), 0n);

    assert.equal(await processOf(order.id).result(), 'expired');
    const expired = await read(w, order.id);
    assert.equal(expired.status, 'expired');
    assert.equal(expired.order, null);
    assert.equal(expired.can_cancel, false);
    assert.equal(expired.cancel_reason, null);
    assert.equal(await w.available(), 300n);
    const again = await pay(w, order.id);
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'NOTHING_DUE');
  });

  test('prices hidden: no price field anywhere, pay refused, settled offline by the business', async () => {
    const w = await world();
    const hide = await app.http.put(
      `/v1/client/customers/${w.users.customer.id}/hidden-price-families`,
      { families: ['shipping_service'] },
      { token: w.admin },
    );
    assert.equal(hide.status, 200, JSON.stringify(hide.body));
    await w.topUp(5000n);

    const PRICE_FIELDS = ['currency', 'total', 'tax', 'price_details', 'paid_amount', 'balance_due', 'pricing'];
    const noPrices = (body: unknown) => {
      const text = JSON.stringify(body);
      for (const f of PRICE_FIELDS) assert.ok(!text.includes(`"${f}"`), `${f} in ${text}`);
    };
    const list = await app.http.get(`${BASE}/services`, { token: w.customer });
    noPrices(list.body);
    assert.ok(list.body.services.every((s: any) => s.price_hidden === true));
    const config = await app.http.get(`${BASE}/services/LOCAL`, { token: w.customer });
    noPrices(config.body);
    const estimate = await app.http.post(`${BASE}/services/LOCAL/estimate-price`, shipment(), { token: w.customer });
    noPrices(estimate.body);
    assert.equal(estimate.body.price_hidden, true);
    const order = await create(w, 'LOCAL', shipment());
    noPrices(order);
    assert.equal(order.price_hidden, true);
    noPrices((await app.http.get(`${BASE}/services/LOCAL/orders`, { token: w.customer })).body.orders);

    const refused = await pay(w, order.id);
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'PRICE_HIDDEN_SETTLE_OFFLINE');
    assert.equal(await w.available(), 5000n);

    const settled = orderOf(
      await app.http.post(`/v1/client/shipping-orders/${order.id}/settle-offline`, {}, { token: w.admin }),
    );
    assert.equal(settled.status, 'confirmed');
    assert.equal(settled.settled_offline, true);
    assert.equal(settled.total, '9.00');
    assert.equal(settled.customer_id, w.users.customer.id);
    const again = await app.http.post(`/v1/client/shipping-orders/${order.id}/settle-offline`, {}, { token: w.admin });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'NOTHING_DUE');

    assert.equal(await processOf(order.id).result(), 'placed');
    const placed = await read(w, order.id);
    noPrices(placed);
    assert.equal(placed.status, 'confirmed');
    assert.ok(placed.order);
    // The delivery order is hidden under the same family from the customer.
    const delivery = await app.http.get(`/v1/orders/${placed.order.id}`, { token: w.customer });
    assert.equal(delivery.status, 200, JSON.stringify(delivery.body));
    assert.ok(!JSON.stringify(delivery.body).includes('"shipping_price"'), JSON.stringify(delivery.body));
    const staffView = await app.http.get(`/v1/orders/${placed.order.id}`, { token: w.admin });
    assert.ok(JSON.stringify(staffView.body).includes('"shipping_price":"9.00"'), JSON.stringify(staffView.body));

    // Cancelled: nothing was paid from the wallet, nothing is refunded to it.
    orderOf(await app.http.post(`${BASE}/${order.id}/cancel`, {}, { token: w.customer }));
    assert.equal(await w.available(), 5000n);
  });

  test('isolation: another customer and another business see 404; staff are refused on customer endpoints', async () => {
    const w = await world();
    const order = await create(w, 'LOCAL', shipment());
    const { token: otherToken } = await anotherCustomer(app, w.business.id, {
      email: `customer-b-${w.tag}@test.example`,
      name: `customer b ${w.tag}`,
    });
    const stranger = await world();

    for (const token of [otherToken, stranger.customer]) {
      assert.equal((await app.http.get(`${BASE}/${order.id}`, { token })).status, 404);
      assert.equal((await app.http.post(`${BASE}/${order.id}/pay`, {}, { token })).status, 404);
      assert.equal((await app.http.post(`${BASE}/${order.id}/cancel`, {}, { token })).status, 404);
    }
    const theirs = await app.http.get(`${BASE}/services/LOCAL/orders`, { token: otherToken });
    assert.equal(theirs.body.total, 0);
    const settle = await app.http.post(
      `/v1/client/shipping-orders/${order.id}/settle-offline`,
      {},
      {
        token: stranger.admin,
      },
    );
    assert.equal(settle.status, 404);

    for (const token of [w.admin, w.employee]) {
      const res = await app.http.get(`${BASE}/${order.id}`, { token });
      assert.equal(res.status, 403, JSON.stringify(res.body));
      assert.equal(res.body.code, 'FORBIDDEN');
      assert.equal((await app.http.get(`${BASE}/services`, { token })).status, 403);
    }
    const byCustomer = await app.http.post(
      `/v1/client/shipping-orders/${order.id}/settle-offline`,
      {},
      {
        token: w.customer,
      },
    );
    assert.equal(byCustomer.status, 403);
  });

  test('a key repeated with another request is IDEMPOTENCY_KEY_REUSED; label keys starting with tms: are refused', async () => {
    const w = await world();
    const key = `reuse-${w.tag}`;
    const first = await create(w, 'LOCAL', shipment({ idempotency_key: key }));
    for (const [code, body] of [
      ['LOCAL', shipment({ idempotency_key: key, reference: 'other' })],
      ['LOCAL', shipment({ idempotency_key: key, packages: [{ weight_grams: 100 }] })],
      ['SWIFT', shipment({ idempotency_key: key })],
    ] as const) {
      const res = await app.http.post(`${BASE}/services/${code}/orders`, body, { token: w.customer });
      assert.equal(res.status, 409, JSON.stringify(res.body));
      assert.equal(res.body.code, 'IDEMPOTENCY_KEY_REUSED');
    }
    // The same request with its optional fields spelled out: the first order again.
    const same = await create(w, 'LOCAL', shipment({ idempotency_key: key, sender: null }));
    assert.equal(same.id, first.id);

    // The service's own label keys (tms:so-<id>, tms:sho-<id>) cannot be taken by a caller's purchase.
    for (const [token, reserved] of [
      [w.customer, 'tms:so-1'],
      [w.admin, 'TMS:sho-1'],
    ] as const) {
      const res = await app.http.post(
        '/v1/labelservice/submitOrder',
        { rate_id: 'lr_unknown', idempotency_key: reserved },
        { token },
      );
      assert.equal(res.status, 422, JSON.stringify(res.body));
      const refusal = res.body.errors.find((e: any) => e.field === 'idempotency_key');
      assert.ok(refusal, JSON.stringify(res.body));
      assert.match(refusal.message, /tms:/);
    }
  });

  test('a delivery order cancelled by the business takes its shipping order with it, refunded', async () => {
    const w = await world();
    await w.topUp(900n);
    const order = await create(w, 'LOCAL', shipment());
    assert.equal(orderOf(await pay(w, order.id)).status, 'confirmed');
    assert.equal(await processOf(order.id).result(), 'placed');
    assert.equal(await w.available(), 0n);
    const placed = await read(w, order.id);

    const res = await app.http.post(`/v1/orders/${placed.order.id}/cancel`, { reason: 'No van' }, { token: w.admin });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const after = await read(w, order.id);
    assert.equal(after.status, 'cancelled');
    assert.equal(after.cancel_reason, 'delivery_cancelled');
    assert.equal(after.order.status, 'CANCELLED');
    assert.equal(await w.available(), 900n);
    const again = await app.http.post(`${BASE}/${order.id}/cancel`, {}, { token: w.customer });
    assert.equal(again.status, 409, JSON.stringify(again.body));
    assert.equal(again.body.code, 'SHIPPING_ORDER_NOT_CANCELLABLE');
    assert.equal(await w.available(), 900n);
  });

  test('a delivery order a delivery provider holds: the cancel is refused and no cancellation is written', async () => {
    const w = await world();
    await w.topUp(900n);
    const order = await create(w, 'LOCAL', shipment());
    assert.equal(orderOf(await pay(w, order.id)).status, 'confirmed');
    assert.equal(await processOf(order.id).result(), 'placed');
    const placed = await read(w, order.id);
    const provider = await world();
    await executeBound(app.em(), 'update delivery_order set carrier_provider_id = $2 where id = $1', [
      placed.order.id,
      provider.business.id,
    ]);

    const res = await app.http.post(`${BASE}/${order.id}/cancel`, {}, { token: w.customer });
    assert.equal(res.status, 409, JSON.stringify(res.body));
    assert.equal(res.body.code, 'SHIPPING_ORDER_NOT_CANCELLABLE');
    assert.match(res.body.message, /delivery provider/);
    const [asked] = await executeBound<{ n: number }>(
      app.em(),
      'select count(*)::int as n from order_cancellation where order_id = $1',
      [placed.order.id],
    );
    assert.equal(asked!.n, 0);
    assert.equal((await read(w, order.id)).status, 'confirmed');
    assert.equal(await w.available(), 0n);
  });

  test('a carrier with no rate for the service: the order is cancelled (no_rate) and refunded', async () => {
    const w = await world();
    await w.topUp(900n);
    await executeBound(
      app.em(),
      `update shipping_service set fulfilment = jsonb_set(fulfilment, '{service}', '"swift_gone"')
       where business_id = $1 and code = 'SWIFT'`,
      [w.business.id],
    );
    const order = await create(w, 'SWIFT', shipment());
    assert.equal(orderOf(await pay(w, order.id)).status, 'confirmed');
    assert.equal(await w.available(), 0n);
    assert.equal(await processOf(order.id).result(), 'not_placed');
    const after = await read(w, order.id);
    assert.equal(after.status, 'cancelled');
    assert.equal(after.cancel_reason, 'no_rate');
    assert.equal(after.order, null);
    assert.equal(await w.available(), 900n);
  });

  test('a label left bought for a cancelled order is voided by the retried activity', async () => {
    const w = await world();
    await w.topUp(900n);
    const order = await create(w, 'SWIFT', shipment());
    assert.equal(orderOf(await pay(w, order.id)).status, 'confirmed');
    assert.equal(await processOf(order.id).result(), 'placed');
    const placed = await read(w, order.id);
    // What a cancel committed while the label was bought leaves when the void after it failed: the order cancelled,
    // its label order recorded and still bought.
    await executeBound(
      app.em(),
      "update shipping_order set status = 'cancelled', cancel_reason = 'customer' where id = $1",
      [order.id],
    );
    assert.deepEqual(await orderActivities().placeShippingDelivery(order.id), { placed: false });
    assert.equal(await labelState(placed.order.id), 'voided');
    const after = await read(w, order.id);
    assert.equal(after.order.id, placed.order.id);
    assert.equal(after.order.status, 'CANCELLED');
  });

  test('a payment past expires_at is NOTHING_DUE: the order expires then, its partial payment refunded', async () => {
    const w = await world();
    await w.topUp(300n);
    const order = await create(w, 'LOCAL', shipment());
    assert.equal(orderOf(await pay(w, order.id)).paid_amount, '3.00');
    await w.topUp(1000n);
    // Past its expiry while its process has not expired it yet (its timer runs on).
    await executeBound(app.em(), "update shipping_order set expires_at = now() - interval '1 second' where id = $1", [
      order.id,
    ]);
    const late = await pay(w, order.id);
    assert.equal(late.status, 409, JSON.stringify(late.body));
    assert.equal(late.body.code, 'NOTHING_DUE');
    assert.match(late.body.message, /expired/);
    const after = await read(w, order.id);
    assert.equal(after.status, 'expired');
    assert.equal(after.paid_amount, '3.00');
    assert.equal(await w.available(), 1300n);
    await processOf(order.id).terminate('test: its expiry is not awaited');
  });
});
