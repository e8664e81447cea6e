/**
 * The shipping methods, the comparison of carriers and quote-and-ship through the HTTP API (docs/labels.md, "Our own
 * operations"), and the demo business rating right after the seed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { labelWorld, rateBody, type LabelWorld } from './world.ts';

describe('labels: methods, compare and quote-and-ship', () => {
  let app: TestApp;
  let w: LabelWorld;

  before(async () => {
    app = await startApp();
    w = await labelWorld(app);
  });
  after(() => app.running.close());

  test('methods list each active account with its services and formats, no price', async () => {
    const res = await app.http.get('/v1/labelservice/methods', { token: w.employee });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.methods.map((m: any) => [m.carrier, m.carrier_account_id]),
      [
        ['sandbox_swift', w.accounts[0]!.id],
        ['sandbox_parcel', w.accounts[1]!.id],
      ],
    );
    const swift = res.body.methods[0];
    assert.deepEqual(
      swift.services.map((s: any) => s.code),
      ['swift_overnight', 'swift_express'],
    );
    assert.deepEqual(swift.services[1].transit_days, { min: 2, max: 4 });
    assert.equal(swift.services[1].max_weight_grams, 20_000);
    assert.deepEqual([...swift.formats].sort(), ['PDF', 'ZPL']);
    assert.ok(!JSON.stringify(res.body).includes('charge'));
  });

  test('compare ranks the rates: cheapest, fastest and the cheapest of each carrier', async () => {
    const res = await app.http.post('/v1/labelservice/compare', rateBody('CMP-1'), { token: w.admin });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const rates: any[] = res.body.rates;
    assert.equal(rates.length, 4);
    const byId = new Map(rates.map((r) => [r.rate_id, r]));
    const cheapest = byId.get(res.body.cheapest_rate_id);
    const fastest = byId.get(res.body.fastest_rate_id);
    // Paris to Lyon is zone 2: parcel_economy is the cheapest (6 days), swift_overnight the fastest (1 day).
    assert.equal(cheapest.service, 'parcel_economy');
    assert.equal(fastest.service, 'swift_overnight');
    assert.ok(rates.every((r) => Number(r.total_charge) >= Number(cheapest.total_charge)));
    assert.ok(rates.every((r) => r.transit_days >= fastest.transit_days));
    assert.deepEqual(
      res.body.best_per_carrier.map((b: any) => [b.carrier, byId.get(b.rate_id).service]),
      [
        ['sandbox_parcel', 'parcel_economy'],
        ['sandbox_swift', 'swift_express'],
      ],
    );
    assert.deepEqual(res.body.messages, []);
  });

  test('compare reports a failing carrier as a message and ranks the others', async () => {
    const res = await app.http.post('/v1/labelservice/compare', rateBody('SBX-RATE-DOWN-CMP'), { token: w.admin });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(res.body.rates.every((r: any) => r.carrier === 'sandbox_swift'));
    assert.deepEqual(
      res.body.messages.map((m: any) => [m.carrier, m.code]),
      [['sandbox_parcel', 'SERVICE_UNAVAILABLE']],
    );
    assert.deepEqual(
      res.body.best_per_carrier.map((b: any) => b.carrier),
      ['sandbox_swift'],
    );
  });

  test('quote-and-ship buys the cheapest rate: the order, its label, the chosen rate and every rate', async () => {
    const res = await app.http.post(
      '/v1/labelservice/quote-and-ship',
      { ...rateBody('QAS-1'), choose: 'cheapest', idempotency_key: 'qas-cheap' },
      { token: w.admin },
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.replayed, false);
    assert.equal(res.body.chosen_rate.service, 'parcel_economy');
    assert.equal(res.body.label.state, 'purchased');
    assert.equal(res.body.label.service, 'parcel_economy');
    assert.equal(res.body.rate_id, res.body.chosen_rate.rate_id);
    assert.equal(res.body.shipping_price, res.body.chosen_rate.total_charge);
    assert.equal(res.body.rates.length, 4);
    const min = Math.min(...res.body.rates.map((r: any) => Number(r.total_charge)));
    assert.equal(Number(res.body.chosen_rate.total_charge), min);

    // The same key again rates nothing and buys nothing: the first purchase, replayed.
    const again = await app.http.post(
      '/v1/labelservice/quote-and-ship',
      { ...rateBody('QAS-1'), choose: 'cheapest', idempotency_key: 'qas-cheap' },
      { token: w.admin },
    );
    assert.equal(again.status, 201, JSON.stringify(again.body));
    assert.equal(again.body.replayed, true);
    assert.equal(again.body.order_id, res.body.order_id);
    assert.equal(again.body.chosen_rate.rate_id, res.body.chosen_rate.rate_id);
    const [count] = await app
      .em()
      .execute<{ n: string }[]>("select count(*) as n from label_order where idempotency_key = 'qas-cheap'");
    assert.equal(Number(count!.n), 1);
  });

  test('quote-and-ship buys the fastest rate when asked', async () => {
    const res = await app.http.post(
      '/v1/labelservice/quote-and-ship',
      { ...rateBody('QAS-2'), choose: 'fastest', label_format: 'ZPL' },
      { token: w.employee },
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.chosen_rate.service, 'swift_overnight');
    assert.equal(res.body.label.carrier, 'sandbox_swift');
    assert.match(res.body.label.carrier_tracking_numbers[0], /^SWF\d{11}$/);
    assert.ok(res.body.rates.every((r: any) => r.transit_days >= res.body.chosen_rate.transit_days));
  });

  test('quote-and-ship keeps a refused purchase as LABEL_PURCHASE_FAILED with its order', async () => {
    const res = await app.http.post(
      '/v1/labelservice/quote-and-ship',
      { ...rateBody('SBX-REFUSE-QAS'), choose: 'cheapest' },
      { token: w.admin },
    );
    assert.equal(res.status, 424, JSON.stringify(res.body));
    assert.equal(res.body.code, 'LABEL_PURCHASE_FAILED');
    assert.equal(res.body.carrier_error.code, 'ADDRESS_UNSERVICEABLE');
    assert.ok(res.body.order_id > 0);
  });

  test('choose is required and checked', async () => {
    const res = await app.http.post(
      '/v1/labelservice/quote-and-ship',
      { ...rateBody('QAS-3'), choose: 'slowest' },
      { token: w.admin },
    );
    assert.equal(res.status, 422);
    assert.ok(res.body.errors.some((e: any) => e.field === 'choose'));
  });

  test('the demo business rates right after the seed: both sandbox carriers and its default shipper', async () => {
    const token = await app.login('admin@demo.example');
    const methods = await app.http.get('/v1/labelservice/methods', { token });
    assert.deepEqual(
      methods.body.methods.map((m: any) => m.carrier),
      ['sandbox_swift', 'sandbox_parcel'],
    );
    const rate = await app.http.post(
      '/v1/labelservice/rate',
      {
        recipient: {
          name: 'Jana',
          address: { line1: 'Vodickova 1', city: 'Praha', postal_code: '11000', country: 'CZ' },
        },
        parcels: [{ weight_grams: 1200 }],
      },
      { token },
    );
    assert.equal(rate.status, 200, JSON.stringify(rate.body));
    assert.equal(rate.body.rates.length, 4);
    const stored = await app
      .em()
      .execute<{ credentials: string }[]>(
        "select a.credentials from carrier_account a join business b on b.id = a.business_id where b.code = 'DEMO'",
      );
    assert.equal(stored.length, 2);
    assert.ok(
      stored.every((s) => !s.credentials.includes('sbx_demo')),
      'sealed by the start-up step',
    );
  });
});
