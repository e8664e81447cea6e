/**
 * Rating and buying labels through the HTTP API with the sandbox carriers (docs/labels.md): rates from both
 * carriers with their own prices and transit days, a purchase, a refused purchase kept as LABEL_PURCHASE_FAILED, an
 * idempotent retry that buys nothing new, and a rate bought once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { assertSandboxRates, labelWorld, rateBody, type LabelWorld } from './world.ts';

describe('labels: rate and purchase', () => {
  let app: TestApp;
  let w: LabelWorld;

  before(async () => {
    app = await startApp({ LABEL_CARRIER_TIMEOUT_MS: '500' });
    w = await labelWorld(app);
  });
  after(() => app.running.close());

  const rate = async (reference: string, extra: Record<string, unknown> = {}, token = w.admin) => {
    const res = await app.http.post('/v1/labelservice/rate', rateBody(reference, extra), { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const shipmentsOf = async (accountId: number) =>
    app
      .em()
      .execute<{ idempotency_key: string; state: string }[]>(
        'select idempotency_key, state from sandbox_shipment where account_id = ? order by id',
        [accountId],
      );

  test('both carriers rate, with their own services, prices and transit days, cheapest first', async () => {
    const body = await rate('SO-1');
    const express = assertSandboxRates(body.rates);
    assert.equal(express.transit_days, 2);
    assert.match(express.rate_id, /^lr_[a-z2-7]{26}$/);
    assert.ok(Date.parse(express.expires_at) > Date.now());
  });

  test('a purchase buys the label once; the same key again answers it, replayed', async () => {
    const { rates } = await rate('SO-2');
    const chosen = rates.find((r: any) => r.carrier === 'sandbox_swift');
    const buy = () =>
      app.http.post(
        '/v1/labelservice/submitOrder',
        { rate_id: chosen.rate_id, idempotency_key: 'k-so-2' },
        { token: w.admin },
      );
    const first = await buy();
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal(first.body.replayed, false);
    assert.equal(first.body.label.state, 'purchased');
    assert.match(first.body.label.carrier_tracking_numbers[0], /^SWF\d{11}$/);
    assert.equal(first.body.shipping_price, chosen.total_charge);
    const again = await buy();
    assert.equal(again.status, 201, JSON.stringify(again.body));
    assert.equal(again.body.replayed, true);
    assert.equal(again.body.order_id, first.body.order_id);
    const used = await app.http.post('/v1/labelservice/submitOrder', { rate_id: chosen.rate_id }, { token: w.admin });
    assert.equal(used.status, 409);
    assert.equal(used.body.code, 'RATE_ALREADY_USED');
    assert.equal(used.body.order_id, first.body.order_id);
    const rows = (await shipmentsOf(w.accounts[0]!.id)).filter((r) =>
      r.idempotency_key.startsWith(`lo-${first.body.order_id}.`),
    );
    assert.equal(rows.length, 1);
  });

  test('a refused purchase keeps the order in LABEL_PURCHASE_FAILED with the carrier reason', async () => {
    const { rates } = await rate(`SBX-REFUSE-${Date.now()}`);
    const res = await app.http.post('/v1/labelservice/submitOrder', { rate_id: rates[0].rate_id }, { token: w.admin });
    assert.equal(res.status, 424, JSON.stringify(res.body));
    assert.equal(res.body.code, 'LABEL_PURCHASE_FAILED');
    assert.equal(res.body.carrier_error.code, 'ADDRESS_UNSERVICEABLE');
    const [order] = await app
      .em()
      .execute<{ status_id: number }[]>('select status_id from delivery_order where id = ?', [res.body.order_id]);
    assert.equal(order!.status_id, 60);

    // The order's audit trail has the move to 60 as operation 6011 with the carrier's code and message.
    const trail = await app.http.post(
      '/v1/tracking/operationevents',
      { order_ids: [res.body.order_id] },
      { token: w.admin },
    );
    assert.equal(trail.status, 200, JSON.stringify(trail.body));
    const failed = trail.body.events.filter((e: any) => e.operation_type === 6011);
    assert.equal(failed.length, 1, JSON.stringify(trail.body.events));
    const carrierName: string = rates[0].carrier_name;
    const message = `${carrierName} does not deliver to this address.`;
    assert.equal(res.body.carrier_error.message, message);
    const description = `${carrierName}: ADDRESS_UNSERVICEABLE: ${message}`;
    assert.equal(failed[0].details.description, description);
    assert.deepEqual(
      [failed[0].details.carrier_error.code, failed[0].details.carrier_error.message],
      ['ADDRESS_UNSERVICEABLE', message],
    );
    const [change] = await app
      .em()
      .execute<{ before_status: number; after_status: number; operation_description: string }[]>(
        'select before_status, after_status, operation_description from order_status_change where order_id = ? and operation_type = 6011',
        [res.body.order_id],
      );
    assert.deepEqual(change, {
      before_status: 1,
      after_status: 60,
      operation_description: description,
    });
  });

  test('a timeout is a retryable failure after the deadline, and nothing is bought', async () => {
    const { rates } = await rate(`SBX-TIMEOUT-${Date.now()}`);
    const res = await app.http.post('/v1/labelservice/submitOrder', { rate_id: rates[0].rate_id }, { token: w.admin });
    assert.equal(res.status, 424, JSON.stringify(res.body));
    assert.equal(res.body.carrier_error.code, 'TIMEOUT');
    assert.equal(res.body.carrier_error.retryable, true);
  });

  test('two racing purchases of one key buy one label: the other is its replay or still in progress', async () => {
    const { rates } = await rate('SO-RACE');
    const chosen = rates.find((r: any) => r.carrier === 'sandbox_parcel');
    const buy = () =>
      app.http.post(
        '/v1/labelservice/submitOrder',
        { rate_id: chosen.rate_id, idempotency_key: 'k-race' },
        { token: w.admin },
      );
    const answers = await Promise.all([buy(), buy(), buy()]);
    const bought = answers.filter((a) => a.status === 201);
    assert.ok(bought.length >= 1, JSON.stringify(answers.map((a) => a.body)));
    for (const a of answers)
      if (a.status !== 201)
        assert.deepEqual([a.status, a.body.code], [409, 'PURCHASE_IN_PROGRESS'], JSON.stringify(a.body));
    const orderIds = new Set(bought.map((a) => a.body.order_id));
    assert.equal(orderIds.size, 1);
    const [orderId] = [...orderIds];
    const rows = (await shipmentsOf(w.accounts[1]!.id)).filter((r) => r.idempotency_key.startsWith(`lo-${orderId}.`));
    assert.equal(rows.length, 1);
    const [orders] = await app
      .em()
      .execute<{ n: number }[]>("select count(*)::int as n from delivery_order where order_ref = 'SO-RACE'");
    assert.equal(orders!.n, 1);
  });

  test('a rate of another business, an unknown rate and an expired rate are refused before anything is written', async () => {
    const other = await labelWorld(app);
    const { rates } = await rate('SO-OTHER');
    const foreign = await app.http.post(
      '/v1/labelservice/submitOrder',
      { rate_id: rates[0].rate_id },
      { token: other.admin },
    );
    assert.equal(foreign.status, 422, JSON.stringify(foreign.body));
    assert.equal(foreign.body.errors[0].field, 'rate_id');
    const unknown = await app.http.post(
      '/v1/labelservice/submitOrder',
      { rate_id: 'lr_aaaaaaaaaaaaaaaaaaaaaaaaaa' },
      { token: w.admin },
    );
    assert.equal(unknown.status, 422);
    await app
      .em()
      .execute("update label_rate set expires_at = now() - interval '1 second' where id = ?", [rates[1].rate_id]);
    const expired = await app.http.post(
      '/v1/labelservice/submitOrder',
      { rate_id: rates[1].rate_id },
      { token: w.admin },
    );
    assert.equal(expired.status, 409);
    assert.equal(expired.body.code, 'RATE_EXPIRED');
    const [orders] = await app
      .em()
      .execute<{ n: number }[]>("select count(*)::int as n from delivery_order where order_ref = 'SO-OTHER'");
    assert.equal(orders!.n, 0);
  });

  test('a customer account buys its own rate only, and the order is placed for it', async () => {
    const own = await rate('SO-CUST', {}, w.customer);
    const staff = await rate('SO-STAFF');
    const refused = await app.http.post(
      '/v1/labelservice/submitOrder',
      { rate_id: staff.rates[0].rate_id },
      { token: w.customer },
    );
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    const bought = await app.http.post(
      '/v1/labelservice/submitOrder',
      { rate_id: own.rates[0].rate_id },
      { token: w.customer },
    );
    assert.equal(bought.status, 201, JSON.stringify(bought.body));
    const [order] = await app
      .em()
      .execute<{ customer_id: number; price_family: string; self_delivery: boolean }[]>(
        'select customer_id, price_family, self_delivery from delivery_order where id = ?',
        [bought.body.order_id],
      );
    assert.deepEqual(order, { customer_id: w.users.customer.id, price_family: 'label_service', self_delivery: false });
  });

  test("an idempotency key never shows another account's purchase to a customer account", async () => {
    const staff = await rate('SO-KEY-STAFF');
    const first = await app.http.post(
      '/v1/labelservice/submitOrder',
      { rate_id: staff.rates[0].rate_id, idempotency_key: 'k-shared' },
      { token: w.admin },
    );
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const own = await rate('SO-KEY-CUSTOMER', {}, w.customer);
    for (const [path, body] of [
      ['/v1/labelservice/submitOrder', { rate_id: own.rates[0].rate_id, idempotency_key: 'k-shared' }],
      ['/v1/labelservice/submitOrder', { rate_id: staff.rates[0].rate_id, idempotency_key: 'k-shared' }],
      [
        '/v1/labelservice/quote-and-ship',
        { ...rateBody('SO-KEY-QS'), choose: 'cheapest', idempotency_key: 'k-shared' },
      ],
    ] as const) {
      const res = await app.http.post(path, body, { token: w.customer });
      assert.equal(res.status, 409, `${path}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.code, 'IDEMPOTENCY_KEY_REUSED');
      assert.ok(!JSON.stringify(res.body).includes(first.body.tracking_number));
    }
  });

  test("buying a failed label again takes a rate of the order's own service only", async () => {
    const reference = `SBX-REFUSE-ONCE-${Date.now()}`;
    const { rates } = await rate(reference);
    const overnight = rates.find((r: any) => r.service === 'swift_overnight');
    const refused = await app.http.post(
      '/v1/labelservice/submitOrder',
      { rate_id: overnight.rate_id },
      { token: w.admin },
    );
    assert.equal(refused.status, 424, JSON.stringify(refused.body));
    const again = await rate(reference);
    const express = again.rates.find((r: any) => r.service === 'swift_express');
    const other = await app.http.post(
      `/v1/uniorder/${refused.body.order_id}/purchase-label`,
      { rate_id: express.rate_id },
      { token: w.admin },
    );
    assert.equal(other.status, 422, JSON.stringify(other.body));
    assert.equal(other.body.errors[0].field, 'rate_id');
    const same = again.rates.find((r: any) => r.service === 'swift_overnight');
    const bought = await app.http.post(
      `/v1/uniorder/${refused.body.order_id}/purchase-label`,
      { rate_id: same.rate_id },
      { token: w.admin },
    );
    assert.equal(bought.status, 200, JSON.stringify(bought.body));
    assert.equal(bought.body.label.service, 'swift_overnight');
    assert.equal(bought.body.label.state, 'purchased');
  });
});
