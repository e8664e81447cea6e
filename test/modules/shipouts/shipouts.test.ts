/**
 * Ship-outs through the HTTP API (docs/customer-services.md, "Ship-outs"): the services, an estimate, a ship-out of
 * stored packages (one warehouse, packages free), payment as wallet holds taken only at hand-over, cancel giving
 * them back and releasing the packages, method 2 waiting for the staff's price, the staff steps to handed_over with
 * an own-fleet order or a carrier label, the unpaid expiry, price hiding and isolation.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { labelKey } from '../../../src/modules/shipouts/domain.ts';
import { chargeCustomer } from '../../../src/modules/storage/index.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { waitFor } from '../../helpers/wait.ts';
import { anotherCustomer, hideStoragePrices } from '../customer-services/orderWorld.ts';
import { RECIPIENT, shipoutWorld, type ShipoutWorld } from './world.ts';

/** An amount of the answers ("62.80") in cents: sums of decimals as floats are not exact (62.800000000000004). */
const cents = (amount: string) => Math.round(Number(amount) * 100);

describe('ship-outs', () => {
  let app: TestApp;
  let w: ShipoutWorld;

  before(async () => {
    app = await startApp({ LABEL_CARRIER_TIMEOUT_MS: '2000' });
    w = await shipoutWorld(app);
    await w.topUp('100.00');
  });
  after(() => app.running.close());

  const base = '/v1/customer/shipout-orders';
  const create = (service: string, packageIds: number[], extra: Record<string, unknown> = {}, token = w.customer) =>
    app.http.post(
      `${base}/services/${service}/orders`,
      { package_ids: packageIds, recipient: RECIPIENT, ...extra },
      { token },
    );
  const created = async (service: string, packageIds: number[], extra: Record<string, unknown> = {}) =>
    w.ok(await create(service, packageIds, extra), 201).shipout;
  const estimate = (service: string, packageIds: number[], token = w.customer) =>
    app.http.post(`${base}/services/${service}/estimate`, { package_ids: packageIds, recipient: RECIPIENT }, { token });
  const get = async (id: number, token = w.customer) => w.ok(await app.http.get(`${base}/${id}`, { token })).shipout;
  const pay = (id: number, body: Record<string, unknown> = {}, token = w.customer) =>
    app.http.post(`${base}/${id}/pay`, body, { token });
  const staff = (id: number, what: string, body: Record<string, unknown> = {}, token = w.employee) =>
    app.http.post(`/v1/client/shipouts/${id}/${what}`, body, { token });
  const packageStates = async (ids: number[]) =>
    (
      await app
        .em()
        .execute<{ state: string }[]>('select state from stored_package where id = any(?::int[]) order by id', [
          `{${ids.join(',')}}`,
        ])
    ).map((r) => r.state);

  test('the services a customer sees, filtered by warehouse and pricing method; staff are refused', async () => {
    const all = w.ok(await app.http.get(`${base}/services`, { token: w.customer })).services;
    assert.deepEqual(all.map((s: any) => s.code).sort(), ['FLEET', 'FLEET2', 'LATER', 'SWIFT']);
    const fleet = all.find((s: any) => s.code === 'FLEET');
    assert.equal(fleet.warehouse.code, 'WH1');
    assert.equal(fleet.pricing.base_fee, '5.00');
    const wh2 = w.ok(await app.http.get(`${base}/services?warehouse_id=${w.wh2.id}`, { token: w.customer })).services;
    assert.deepEqual(
      wh2.map((s: any) => s.code),
      ['FLEET2'],
    );
    const later = w.ok(await app.http.get(`${base}/services?pricing_method=2`, { token: w.customer })).services;
    assert.deepEqual(
      later.map((s: any) => s.code),
      ['LATER'],
    );
    const refused = await app.http.get(`${base}/services`, { token: w.admin });
    assert.equal(refused.status, 403);
  });

  test('an estimate prices method 1 by the service, method 2 answers priced later', async () => {
    const ids = await w.stored(w.wh1.id, 2);
    const est = w.ok(await estimate('FLEET', ids));
    // 5.00 + 2 x 1.50 + 2 started kg above 1 kg x 0.50 = 9.00, tax 20 % 1.80.
    assert.equal(est.total, '10.80');
    assert.equal(est.tax, '1.80');
    assert.equal(est.currency, 'EUR');
    assert.equal(est.priced_later, false);
    const later = w.ok(await estimate('LATER', ids));
    assert.equal(later.priced_later, true);
    assert.equal(later.total, null);
    assert.deepEqual(await packageStates(ids), ['stored', 'stored']);

    // What create would refuse, the estimate refuses with the same codes.
    const twice = await estimate('FLEET', [ids[0]!, ids[0]!]);
    assert.equal(twice.status, 422, JSON.stringify(twice.body));
    assert.equal(twice.body.code, 'VALIDATION_FAILED');
    const reserved = await created('FLEET', [ids[0]!]);
    const taken = await estimate('FLEET', ids);
    assert.equal(taken.status, 422, JSON.stringify(taken.body));
    assert.equal(taken.body.code, 'PACKAGE_NOT_AVAILABLE');
    w.ok(await app.http.post(`${base}/${reserved.id}/cancel`, {}, { token: w.customer }));
    await app.em().execute("update stored_package set state = 'shipped' where id = ?", [ids[1]]);
    const gone = await estimate('FLEET', [ids[1]!]);
    assert.equal(gone.status, 422, JSON.stringify(gone.body));
    assert.equal(gone.body.code, 'PACKAGE_NOT_AVAILABLE');
    const dup = await create('FLEET', [ids[0]!, ids[0]!]);
    assert.equal(dup.status, 422);
    assert.equal(dup.body.code, 'VALIDATION_FAILED');
  });

  test('create reserves stored packages of one warehouse; a repeat of the key answers it; refusals', async () => {
    const ids = await w.stored(w.wh1.id, 2);
    const s = await created('FLEET', ids, { reference: 'OUT-1', idempotency_key: `k-${ids[0]}` });
    assert.equal(s.status, 'pending_payment');
    assert.equal(s.total, '10.80');
    assert.equal(s.balance_due, '10.80');
    assert.equal(s.paid_amount, '0.00');
    assert.equal(s.can_pay, true);
    assert.ok(s.expires_at);
    assert.equal(s.workflow_id, `shipout-${s.id}`);
    assert.deepEqual(
      s.packages.map((p: any) => p.state),
      ['reserved', 'reserved'],
    );
    const again = w.ok(await create('FLEET', ids, { reference: 'OUT-1', idempotency_key: `k-${ids[0]}` }), 201);
    assert.equal(again.shipout.id, s.id);

    const taken = await create('FLEET', [ids[0]!]);
    assert.equal(taken.status, 422, JSON.stringify(taken.body));
    assert.equal(taken.body.code, 'PACKAGE_NOT_AVAILABLE');
    const elsewhere = await w.stored(w.wh2.id, 1);
    const fresh = await w.stored(w.wh1.id, 1);
    const several = await create('FLEET', [fresh[0]!, elsewhere[0]!]);
    assert.equal(several.status, 422, JSON.stringify(several.body));
    assert.equal(several.body.code, 'PACKAGES_IN_SEVERAL_WAREHOUSES');
    assert.deepEqual(await packageStates([fresh[0]!, elsewhere[0]!]), ['stored', 'stored']);
    const unknown = await create('NOPE', fresh);
    assert.equal(unknown.status, 404);
  });

  test('pay holds the money; hand-over takes it, ships the packages and places the own-fleet order', async () => {
    const ids = await w.stored(w.wh1.id, 2);
    const s = await created('FLEET', ids);
    const before = await w.credits();
    const part = w.ok(await pay(s.id, { amount: '5.00' })).shipout;
    assert.equal(part.status, 'pending_payment');
    assert.equal(part.paid_amount, '5.00');
    assert.equal(part.balance_due, '5.80');
    const early = await staff(s.id, 'pick');
    assert.equal(early.status, 409, JSON.stringify(early.body));
    assert.equal(early.body.code, 'SHIPOUT_WRONG_STATE');
    const full = w.ok(await pay(s.id)).shipout;
    assert.equal(full.status, 'paid');
    assert.equal(full.balance_due, '0.00');
    const held = await w.credits();
    assert.equal(cents(held.available), cents(before.available) - 1080);
    assert.equal(held.balance, before.balance, 'a hold takes nothing yet');
    const twice = await pay(s.id);
    assert.equal(twice.status, 409);
    assert.equal(twice.body.code, 'NOTHING_DUE');

    assert.equal(w.ok(await staff(s.id, 'pick')).shipout.status, 'picked');
    const repick = await staff(s.id, 'pick');
    assert.equal(repick.body.code, 'SHIPOUT_WRONG_STATE');
    const late = await app.http.post(`${base}/${s.id}/cancel`, {}, { token: w.customer });
    assert.equal(late.status, 409);
    assert.equal(late.body.code, 'SHIPOUT_WRONG_STATE');
    assert.equal(w.ok(await staff(s.id, 'pack')).shipout.status, 'packed');
    const done = w.ok(await staff(s.id, 'hand-over')).shipout;
    assert.equal(done.status, 'handed_over');
    assert.ok(done.handed_over_at);
    assert.ok(done.order?.tracking_number);
    assert.deepEqual(
      done.packages.map((p: any) => p.state),
      ['shipped', 'shipped'],
    );
    const after = await w.credits();
    assert.equal(cents(after.balance), cents(before.balance) - 1080);
    assert.equal(after.available, held.available);
    const [order] = await app
      .em()
      .execute<{ price_family: string; shipping_price: string; customer_id: number; self_delivery: boolean }[]>(
        'select price_family, shipping_price::text, customer_id, self_delivery from delivery_order where id = ?',
        [done.order.id],
      );
    assert.equal(order!.price_family, 'storage_services');
    assert.equal(Number(order!.shipping_price), 10.8);
    assert.equal(order!.customer_id, w.users.customer.id);
    assert.equal(order!.self_delivery, true);
  });

  test('the hand-over charges the storage periods started since the last fee run, before the packages leave', async () => {
    const ids = await w.stored(w.wh1.id, 2);
    // Their storage: 0.60 a package per second started (0.50 + 0.10 tax).
    await app.em().execute(
      `update storage_order set period = 'day', period_price = 50, period_tax = 10, storage_day_seconds = 1
         where id = (select storage_order_id from stored_package where id = ?)`,
      [ids[0]],
    );
    const customerId = w.users.customer.id;
    await app.em().transactional((tx) => chargeCustomer(tx, w.business.id, customerId));
    const charged = async () =>
      (
        await app
          .em()
          .execute<{ periods: number }[]>(
            'select count(*)::int as periods from storage_fee where stored_package_id = any(?::int[])',
            [`{${ids.join(',')}}`],
          )
      )[0]!.periods;
    const atRun = await charged();
    assert.equal(atRun, 2, 'the fee run charged period 0 of each');
    const s = await created('FLEET', ids);
    w.ok(await pay(s.id));
    w.ok(await staff(s.id, 'pick'));
    w.ok(await staff(s.id, 'pack'));
    await new Promise((r) => setTimeout(r, 1_200));
    const done = w.ok(await staff(s.id, 'hand-over')).shipout;
    assert.equal(done.status, 'handed_over');
    const rows = await app.em().execute<{ id: number; charged: number; since: number; last: string }[]>(
      `select p.id, p.fees_charged_periods as charged,
         extract(epoch from (select handed_over_at from shipout where id = ?) - p.received_at)::float8 as since,
         (select max(period_start)::text from storage_fee where stored_package_id = p.id) as last
       from stored_package p where p.id = any(?::int[]) order by p.id`,
      [s.id, `{${ids.join(',')}}`],
    );
    for (const r of rows)
      assert.ok(
        r.charged >= Math.floor(r.since) + 1 && r.charged >= 2,
        `periods to the hand-over: ${JSON.stringify(r)}`,
      );
    assert.ok((await charged()) > atRun);
    assert.deepEqual(await packageStates(ids), ['shipped', 'shipped']);
    const [owed] = await app
      .em()
      .execute<{ owed: string }[]>(
        'select coalesce(sum(amount - paid), 0)::text as owed from storage_fee where customer_id = ?',
        [customerId],
      );
    assert.equal(owed!.owed, '0', 'collected from the wallet in the hand-over');
  });

  test('cancel voids the holds at once and puts the packages back on the shelf', async () => {
    const ids = await w.stored(w.wh1.id, 1);
    const s = await created('FLEET', ids);
    const before = await w.credits();
    w.ok(await pay(s.id));
    assert.equal(cents((await w.credits()).available), cents(before.available) - cents(s.total));
    const cancelled = w.ok(await app.http.post(`${base}/${s.id}/cancel`, {}, { token: w.customer })).shipout;
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(cancelled.can_cancel, false);
    const after = await w.credits();
    assert.equal(after.available, before.available);
    assert.equal(after.balance, before.balance);
    assert.deepEqual(await packageStates(ids), ['stored']);
    // Free again: a new ship-out takes them.
    assert.equal((await created('FLEET', ids)).status, 'pending_payment');
  });

  test('method 2 waits for the staff price, then is paid like any other', async () => {
    const ids = await w.stored(w.wh1.id, 1);
    const s = await created('LATER', ids);
    assert.equal(s.status, 'awaiting_price');
    assert.equal(s.total, null);
    assert.equal(s.can_pay, false);
    const early = await pay(s.id);
    assert.equal(early.status, 409);
    assert.equal(early.body.code, 'SHIPOUT_NOT_PRICED');
    const bad = await staff(s.id, 'price', {
      total: '12.00',
      tax: '2.00',
      lines: [{ code: 'x', description: 'X', quantity: 1, unit_amount: '9.00', amount: '9.00' }],
    });
    assert.equal(bad.status, 422, JSON.stringify(bad.body));
    const priced = w.ok(await staff(s.id, 'price', { total: '12.00', tax: '2.00' })).shipout;
    assert.equal(priced.status, 'pending_payment');
    assert.equal(priced.total, '12.00');
    assert.equal(priced.price_details[0].amount, '10.00');
    const again = await staff(s.id, 'price', { total: '1.00' });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'SHIPOUT_WRONG_STATE');
    assert.equal(w.ok(await pay(s.id)).shipout.status, 'paid');
    assert.equal(w.ok(await staff(s.id, 'pick')).shipout.status, 'picked');
  });

  test('a carrier service buys its label at hand-over, once', async () => {
    const ids = await w.stored(w.wh1.id, 1);
    const s = await created('SWIFT', ids);
    w.ok(await pay(s.id));
    w.ok(await staff(s.id, 'pick'));
    w.ok(await staff(s.id, 'pack'));
    const done = w.ok(await staff(s.id, 'hand-over')).shipout;
    assert.equal(done.status, 'handed_over');
    const labels = await app
      .em()
      .execute<{ order_id: number; state: string; carrier: string; service: string }[]>(
        'select order_id, state, carrier, service from label_order where business_id = ? and idempotency_key = ?',
        [w.business.id, labelKey(s.id)],
      );
    assert.equal(labels.length, 1);
    assert.equal(labels[0]!.order_id, done.order.id);
    assert.equal(labels[0]!.state, 'purchased');
    assert.equal(labels[0]!.service, 'swift_express');
  });

  test('a hand-over retried after its label was bought (a worker killed before the ship-out was written) buys nothing twice', async () => {
    const ids = await w.stored(w.wh1.id, 1);
    const s = await created('SWIFT', ids);
    w.ok(await pay(s.id));
    w.ok(await staff(s.id, 'pick'));
    w.ok(await staff(s.id, 'pack'));
    // What the first attempt did before it died: the label bought with the ship-out's key.
    const rated = w.ok(
      await app.http.post(
        '/v1/uniorder/rate',
        {
          type: 'D',
          recipient: RECIPIENT,
          parcels: [{ weight_grams: 1200 }],
          quote_labels: true,
          carriers: ['sandbox_swift'],
        },
        { token: w.admin },
      ),
    );
    const rate = rated.rates.find((r: any) => r.service === 'swift_express');
    const bought = w.ok(
      await app.http.post(
        '/v1/uniorder',
        { rate_id: rate.rate_id, idempotency_key: `first-attempt-${s.id}` },
        { token: w.admin },
      ),
      201,
    );
    // No caller may choose the service's own key: the first attempt's purchase is given it here.
    await app
      .em()
      .execute('update label_order set idempotency_key = ? where business_id = ? and idempotency_key = ?', [
        labelKey(s.id),
        w.business.id,
        `first-attempt-${s.id}`,
      ]);
    const done = w.ok(await staff(s.id, 'hand-over')).shipout;
    assert.equal(done.status, 'handed_over');
    assert.equal(done.order.id, bought.order_id);
    const [{ n }] = (await app
      .em()
      .execute('select count(*)::int as n from label_order where business_id = ? and idempotency_key = ?', [
        w.business.id,
        labelKey(s.id),
      ])) as [{ n: number }];
    assert.equal(n, 1);
  });

  test('an unpaid ship-out expires: its holds are voided and its packages released', async () => {
    const x = await shipoutWorld(app, { unpaidExpirySeconds: 2 });
    await x.topUp('50.00');
    const ids = await x.stored(x.wh1.id, 1);
    const s = x.ok(await create('FLEET', ids, {}, x.customer), 201).shipout;
    x.ok(await app.http.post(`${base}/${s.id}/pay`, { amount: '1.00' }, { token: x.customer }));
    assert.equal((await x.credits()).available, '49.00');
    const expired = await waitFor(async () => {
      const now = await get(s.id, x.customer);
      return now.status === 'expired' ? now : null;
    });
    assert.equal(expired.can_pay, false);
    assert.equal((await x.credits()).available, '50.00');
    assert.deepEqual(await packageStates(ids), ['stored']);
    const late = await app.http.post(`${base}/${s.id}/pay`, {}, { token: x.customer });
    assert.equal(late.body.code, 'SHIPOUT_WRONG_STATE');
  });

  test('prices hidden from a customer: answers leave them out, pay is settled offline by the business', async () => {
    const x = await shipoutWorld(app);
    await hideStoragePrices(app, x.users.customer.id);
    const services = x.ok(await app.http.get(`${base}/services`, { token: x.customer })).services;
    assert.ok(services.every((s: any) => s.price_hidden === true && s.pricing === undefined));
    const ids = await x.stored(x.wh1.id, 1);
    const est = x.ok(await estimate('FLEET', ids, x.customer));
    assert.equal(est.price_hidden, true);
    assert.equal(est.total, undefined);
    const s = x.ok(await create('FLEET', ids, {}, x.customer), 201).shipout;
    assert.equal(s.price_hidden, true);
    for (const field of ['total', 'tax', 'currency', 'price_details', 'paid_amount', 'balance_due'])
      assert.equal(s[field], undefined, field);
    const refused = await app.http.post(`${base}/${s.id}/pay`, {}, { token: x.customer });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'PRICE_HIDDEN_SETTLE_OFFLINE');
    const byEmployee = await staff(s.id, 'settle-offline', {}, x.employee);
    assert.equal(byEmployee.status, 403);
    const settled = x.ok(await staff(s.id, 'settle-offline', {}, x.admin)).shipout;
    assert.equal(settled.status, 'paid');
    assert.equal(settled.settled_offline, true);
    assert.equal(settled.total, '8.40', 'staff see the price');
    x.ok(await staff(s.id, 'pick', {}, x.employee));
    x.ok(await staff(s.id, 'pack', {}, x.employee));
    const done = x.ok(await staff(s.id, 'hand-over', {}, x.employee)).shipout;
    assert.equal(done.status, 'handed_over');
    const mine = await get(s.id, x.customer);
    assert.equal(mine.price_hidden, true);
    // Its outbound order belongs to the storage_services family: hidden from the customer too.
    const order = await app.http.get(`/v1/orders/${done.order.id}`, { token: x.customer });
    assert.equal(order.status, 200, JSON.stringify(order.body));
    assert.equal(order.body.order.shipping_price, undefined);
  });

  test('isolation: another customer, another business, and roles', async () => {
    const ids = await w.stored(w.wh1.id, 1);
    const s = await created('FLEET', ids);
    const { token } = await anotherCustomer(app, w.business.id, {
      email: `customer2-${w.tag}@test.example`,
      name: 'Second customer',
    });
    for (const res of [
      await app.http.get(`${base}/${s.id}`, { token }),
      await app.http.post(`${base}/${s.id}/pay`, {}, { token }),
      await app.http.post(`${base}/${s.id}/cancel`, {}, { token }),
    ])
      assert.equal(res.status, 404, JSON.stringify(res.body));
    const theirs = await create('FLEET', ids, {}, token);
    assert.equal(theirs.body.code, 'PACKAGE_NOT_AVAILABLE');
    assert.equal(w.ok(await app.http.get(base, { token })).total, 0);

    const y = await shipoutWorld(app);
    for (const what of ['price', 'pick', 'settle-offline']) {
      const res = await staff(s.id, what, what === 'price' ? { total: '1.00' } : {}, y.admin);
      assert.equal(res.status, 404, `${what}: ${JSON.stringify(res.body)}`);
    }
    assert.equal((await app.http.get(`${base}/${s.id}`, { token: y.customer })).status, 404);
    assert.equal((await staff(s.id, 'pick', {}, w.customer)).status, 403);
    assert.equal((await app.http.get(`${base}/${s.id}`, { token: w.admin })).status, 403);
    const list = w.ok(await app.http.get(`${base}?status=pending_payment`, { token: w.customer }));
    assert.ok(list.shipouts.some((x: any) => x.id === s.id));
    assert.ok(list.shipouts.every((x: any) => x.status === 'pending_payment'));
  });
});
