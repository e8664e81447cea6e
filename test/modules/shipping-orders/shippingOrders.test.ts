/**
 * Shipping orders through the HTTP API (docs/customer-services.md, "Shipping orders"): the services a customer sees,
 * an estimate, a creation and its idempotency key, a payment in two parts from the wallet, the delivery order placed
 * by the process (own fleet and a sandbox carrier's label) in the shipping_service family at the order's price, a
 * cancel with its refund, the unpaid expiry refunding a partial payment, price hiding (no price anywhere, pay refused,
 * settled offline), and isolation (another customer, another business, staff on customer endpoints).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { randomUUID } from 'node:crypto';
import { User } from '../../../src/modules/identity/index.ts';
import { createShippingOrderActivities } from '../../../src/modules/shipping-orders/activities.ts';
import { shippingOrderWorkflowId } from '../../../src/modules/shipping-orders/contract.ts';
import type { shippingOrder } from '../../../src/modules/shipping-orders/workflows.ts';
import { transfer, walletAvailable } from '../../../src/modules/wallet/index.ts';
import { executeBound } from '../../../src/platform/db/orm.ts';
import { createLogger } from '../../../src/platform/logger.ts';
import { hashPassword } from '../../../src/platform/secrets.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { PASSWORD } from '../../helpers/factories.ts';
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
    const set = await app.http.put(
      '/v1/client/customer-services/settings',
      { currency: 'EUR', ...settings },
      { token: w.admin },
    );
    assert.equal(set.status, 200, JSON.stringify(set.body));
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
      app.em().transactional((tx) =>
        transfer(tx, {
          businessId: w.business.id,
          key,
          currency: 'EUR',
          code: 'top_up',
          amount,
          debit: { kind: 'funding' },
          credit: { kind: 'wallet', customerId: w.users.customer.id },
        }),
      );
    const available = () => walletAvailable(app.em(), w.business.id, w.users.customer.id, 'EUR');
    return { ...w, topUp, available };
  }
  type World = Awaited<ReturnType<typeof world>>;

  const create = async (w: World, code: string, body: Record<string, unknown>) => {
    const res = await app.http.post(`${BASE}/services/${code}/orders`, body, { token: w.customer });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  };
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

    const again = await create(w, 'LOCAL', shipment({ idempotency_key: key, reference: 'other' }));
    assert.equal(again.id, order.id);

    // An empty wallet pays nothing.
    const broke = await app.http.post(`${BASE}/${order.id}/pay`, {}, { token: w.customer });
    assert.equal(broke.status, 409, JSON.stringify(broke.body));
    assert.equal(broke.body.code, 'INSUFFICIENT_FUNDS');

    await w.topUp(400n);
    const part = await app.http.post(`${BASE}/${order.id}/pay`, {}, { token: w.customer });
    assert.equal(part.status, 200, JSON.stringify(part.body));
    assert.equal(part.body.status, 'pending_payment');
    assert.equal(part.body.paid_amount, '4.00');
    assert.equal(part.body.balance_due, '5.00');
    assert.equal(await w.available(), 0n);

    await w.topUp(1000n);
    const full = await app.http.post(`${BASE}/${order.id}/pay`, {}, { token: w.customer });
    assert.equal(full.status, 200, JSON.stringify(full.body));
    assert.equal(full.body.status, 'confirmed');
    assert.equal(full.body.balance_due, '0.00');
    assert.equal(await w.available(), 500n);

    const paidAgain = await app.http.post(`${BASE}/${order.id}/pay`, {}, { token: w.customer });
    assert.equal(paidAgain.status, 409);
    assert.equal(paidAgain.body.code, 'NOTHING_DUE');
    assert.equal(await w.available(), 500n);

    assert.equal(await processOf(order.id).result(), 'placed');
    const placed = await app.http.get(`${BASE}/${order.id}`, { token: w.customer });
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    assert.equal(placed.body.order.status, 'NEW_ORDER');
    assert.match(placed.body.order.tracking_number, /\w+/);
    const delivery = await deliveryOrder(placed.body.order.id);
    assert.deepEqual(delivery, {
      price_family: 'shipping_service',
      shipping_price: '9.00',
      tax: '1.50',
      customer_id: w.users.customer.id,
    });

    // A retried activity (a worker killed after its commit) places nothing twice, and the expiry changes nothing.
    const activities = createShippingOrderActivities({
      orm: app.running.orm,
      config: app.config,
      log: createLogger('silent'),
      temporal: app.running.temporal,
      databaseUrl: '',
    });
    assert.deepEqual(await activities.placeShippingDelivery(order.id), { placed: true });
    assert.equal(await activities.expireShippingOrder(order.id), 'confirmed');
    const [count] = await executeBound<{ n: number }>(
      app.em(),
      'select count(*)::int as n from delivery_order where customer_id = $1',
      [w.users.customer.id],
    );
    assert.equal(count!.n, 1);
    assert.equal(
      (await app.http.get(`${BASE}/${order.id}`, { token: w.customer })).body.order.id,
      placed.body.order.id,
    );

    const list = await app.http.get(`${BASE}/services/LOCAL/orders`, { token: w.customer });
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.equal(list.body.total, 1);
    assert.equal(list.body.orders[0].id, order.id);

    const cancelled = await app.http.post(`${BASE}/${order.id}/cancel`, {}, { token: w.customer });
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.status, 'cancelled');
    assert.equal(cancelled.body.order.status, 'CANCELLED');
    assert.equal(cancelled.body.can_cancel, false);
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
    const paid = await app.http.post(`${BASE}/${order.id}/pay`, {}, { token: w.customer });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    assert.equal(paid.body.status, 'confirmed');
    assert.equal(await processOf(order.id).result(), 'placed');

    const read = await app.http.get(`${BASE}/${order.id}`, { token: w.customer });
    assert.equal(read.body.order.status, 'NEW_ORDER');
    assert.match(read.body.order.tracking_number, /\w+/);
    const delivery = await deliveryOrder(read.body.order.id);
    assert.equal(delivery.price_family, 'shipping_service');
    assert.equal(delivery.shipping_price, '9.00');
    const [label] = await executeBound<{ state: string; service: string; idempotency_key: string }>(
      app.em(),
      'select state, service, idempotency_key from label_order where order_id = $1',
      [read.body.order.id],
    );
    assert.deepEqual(label, { state: 'purchased', service: 'swift_express', idempotency_key: `so-${order.id}` });

    const activities = createShippingOrderActivities({
      orm: app.running.orm,
      config: app.config,
      log: createLogger('silent'),
      temporal: app.running.temporal,
      databaseUrl: '',
    });
    assert.deepEqual(await activities.placeShippingDelivery(order.id), { placed: true });
    const [labels] = await executeBound<{ n: number }>(
      app.em(),
      'select count(*)::int as n from label_order l join delivery_order o on o.id = l.order_id where o.customer_id = $1',
      [w.users.customer.id],
    );
    assert.equal(labels!.n, 1);

    const cancelled = await app.http.post(`${BASE}/${order.id}/cancel`, {}, { token: w.customer });
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.status, 'cancelled');
    assert.equal(cancelled.body.order.status, 'CANCELLED');
    const [voided] = await executeBound<{ state: string }>(
      app.em(),
      'select state from label_order where order_id = $1',
      [read.body.order.id],
    );
    assert.equal(voided!.state, 'voided');
    assert.equal(await w.available(), 2000n);
  });

  test('carrier refusal: the label order kept in LABEL_PURCHASE_FAILED; a cancel closes it and refunds', async () => {
    const w = await world();
    await w.topUp(900n);
    const order = await create(w, 'SWIFT', shipment({ reference: 'SBX-REFUSE-SO' }));
    const paid = await app.http.post(`${BASE}/${order.id}/pay`, {}, { token: w.customer });
    assert.equal(paid.body.status, 'confirmed', JSON.stringify(paid.body));
    assert.equal(await processOf(order.id).result(), 'placed');
    const read = await app.http.get(`${BASE}/${order.id}`, { token: w.customer });
    assert.ok(read.body.order, JSON.stringify(read.body));
    const [label] = await executeBound<{ state: string }>(
      app.em(),
      'select state from label_order where order_id = $1',
      [read.body.order.id],
    );
    assert.equal(label!.state, 'failed');
    const [delivery] = await executeBound<{ status_id: number }>(
      app.em(),
      'select status_id from delivery_order where id = $1',
      [read.body.order.id],
    );
    assert.equal(delivery!.status_id, 60);

    const cancelled = await app.http.post(`${BASE}/${order.id}/cancel`, {}, { token: w.customer });
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.status, 'cancelled');
    assert.equal(cancelled.body.order.status, 'CANCELLED');
    assert.equal(await w.available(), 900n);
  });

  test('an unpaid order expires and its partial payment is refunded', async () => {
    const w = await world({ unpaid_expiry_seconds: 3 });
    await w.topUp(300n);
    const order = await create(w, 'LOCAL', shipment());
    const part = await app.http.post(`${BASE}/${order.id}/pay`, {}, { token: w.customer });
    assert.equal(part.status, 200, JSON.stringify(part.body));
    assert.equal(part.body.paid_amount, '3.00');
    assert.equal(await w.available(), 0n);

    assert.equal(await processOf(order.id).result(), 'expired');
    const read = await app.http.get(`${BASE}/${order.id}`, { token: w.customer });
    assert.equal(read.body.status, 'expired');
    assert.equal(read.body.order, null);
    assert.equal(read.body.can_cancel, false);
    assert.equal(await w.available(), 300n);
    const pay = await app.http.post(`${BASE}/${order.id}/pay`, {}, { token: w.customer });
    assert.equal(pay.status, 409);
    assert.equal(pay.body.code, 'NOTHING_DUE');
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

    const pay = await app.http.post(`${BASE}/${order.id}/pay`, {}, { token: w.customer });
    assert.equal(pay.status, 403, JSON.stringify(pay.body));
    assert.equal(pay.body.code, 'PRICE_HIDDEN_SETTLE_OFFLINE');
    assert.equal(await w.available(), 5000n);

    const settled = await app.http.post(
      `/v1/client/shipping-orders/${order.id}/settle-offline`,
      {},
      { token: w.admin },
    );
    assert.equal(settled.status, 200, JSON.stringify(settled.body));
    assert.equal(settled.body.status, 'confirmed');
    assert.equal(settled.body.settled_offline, true);
    assert.equal(settled.body.total, '9.00');
    const again = await app.http.post(`/v1/client/shipping-orders/${order.id}/settle-offline`, {}, { token: w.admin });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'NOTHING_DUE');

    assert.equal(await processOf(order.id).result(), 'placed');
    const read = await app.http.get(`${BASE}/${order.id}`, { token: w.customer });
    noPrices(read.body);
    assert.equal(read.body.status, 'confirmed');
    assert.ok(read.body.order);
    // The delivery order is hidden under the same family from the customer.
    const delivery = await app.http.get(`/v1/orders/${read.body.order.id}`, { token: w.customer });
    assert.equal(delivery.status, 200, JSON.stringify(delivery.body));
    assert.ok(!JSON.stringify(delivery.body).includes('"shipping_price"'), JSON.stringify(delivery.body));
    const staffView = await app.http.get(`/v1/orders/${read.body.order.id}`, { token: w.admin });
    assert.ok(JSON.stringify(staffView.body).includes('"shipping_price":"9.00"'), JSON.stringify(staffView.body));

    // Cancelled: nothing was paid from the wallet, nothing is refunded to it.
    const cancelled = await app.http.post(`${BASE}/${order.id}/cancel`, {}, { token: w.customer });
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(await w.available(), 5000n);
  });

  test('isolation: another customer and another business see 404; staff are refused on customer endpoints', async () => {
    const w = await world();
    const order = await create(w, 'LOCAL', shipment());
    const em = app.em();
    const other = em.create(User, {
      businessId: w.business.id,
      email: `customer-b-${w.tag}@test.example`,
      name: `customer b ${w.tag}`,
      role: 'customer',
      passwordHash: await hashPassword(PASSWORD),
    });
    await em.flush();
    const otherToken = await app.login(other.email, PASSWORD);
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
});
