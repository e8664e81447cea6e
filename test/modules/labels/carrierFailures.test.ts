/**
 * No carrier failure is a 500 (docs/labels.md, "Failures"): an adapter that throws something unexpected during a
 * purchase (here the sandbox carrier's own ledger is gone, as a bug or outage in an adapter would be) answers the
 * typed refusal, 424 LABEL_PURCHASE_FAILED with `carrier_error.code` CARRIER_INTERNAL, logs it with its stack, and keeps
 * the order in 60 to be bought again; and a rate that every connected carrier fails is 424 CARRIER_ERROR naming each
 * carrier's failure, while uniorder's rate lists them as messages.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { labelWorld, rateBody, type LabelWorld } from './world.ts';

describe('labels: carrier failures are typed answers, never 500', () => {
  let app: TestApp;
  let w: LabelWorld;
  /** What the service logs at warn and above, parsed. */
  const logged: Record<string, any>[] = [];

  before(async () => {
    const log = pino({ level: 'warn' }, { write: (line: string) => logged.push(JSON.parse(line)) });
    app = await startApp({}, { log });
    w = await labelWorld(app);
  });
  after(() => app.running.close());

  const rate = (reference: string, world = w, extra: Record<string, unknown> = {}) =>
    app.http.post('/v1/labelservice/rate', rateBody(reference, extra), { token: world.admin });

  test('an adapter throwing an unexpected error: 424 LABEL_PURCHASE_FAILED, CARRIER_INTERNAL, logged; bought later', async () => {
    const rated = await rate('CF-INTERNAL');
    assert.equal(rated.status, 200, JSON.stringify(rated.body));
    const swift = rated.body.rates.find((r: any) => r.service === 'swift_express');
    // The sandbox adapter's purchase reads its ledger first: without its table the query throws a driver error, not
    // a CarrierError, inside the adapter. The test file has a database of its own.
    await app.em().execute('alter table sandbox_shipment rename to sandbox_shipment_away');
    let res;
    try {
      res = await app.http.post('/v1/labelservice/submitOrder', { rate_id: swift.rate_id }, { token: w.admin });
    } finally {
      await app.em().execute('alter table sandbox_shipment_away rename to sandbox_shipment');
    }
    assert.equal(res.status, 424, JSON.stringify(res.body));
    assert.equal(res.body.code, 'LABEL_PURCHASE_FAILED');
    assert.deepEqual(res.body.carrier_error, {
      carrier: 'sandbox_swift',
      code: 'CARRIER_INTERNAL',
      message: 'The carrier call failed unexpectedly.',
      retryable: false,
    });
    assert.doesNotMatch(JSON.stringify(res.body), /sandbox_shipment|relation|does not exist/i);
    const orderId: number = res.body.order_id;
    const [order] = await app
      .em()
      .execute<{ status_id: number; state: string; code: string }[]>(
        "select o.status_id, l.state, l.label_error->>'code' as code from delivery_order o join label_order l on l.order_id = o.id where o.id = ?",
        [orderId],
      );
    assert.deepEqual(order, { status_id: 60, state: 'failed', code: 'CARRIER_INTERNAL' });

    // Logged at error level with the adapter's own failure and its stack; the account's key never is.
    const entry = logged.find((l) => l.msg === 'carrier call failed' && l.carrier === 'sandbox_swift');
    assert.ok(entry, JSON.stringify(logged.map((l) => l.msg)));
    assert.equal(entry.level, 50);
    assert.equal(entry.carrier_account_id, w.accounts[0]!.id);
    assert.match(entry.err.stack, /sandbox_shipment/);
    assert.ok(!JSON.stringify(logged).includes(`sbx_${w.tag}`), 'no credential in the log');
    assert.ok(!logged.some((l) => l.msg === 'request failed'), 'no request failed as a server error');

    // Not retryable, but the order is kept: once the carrier works again its label is bought (60 back to 1).
    const again = await app.http.post(`/v1/uniorder/${orderId}/purchase-label`, {}, { token: w.admin });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.deepEqual([again.body.status_id, again.body.label.state], [1, 'purchased']);
  });

  test('every connected carrier failing: rate and compare are 424 CARRIER_ERROR with each failure; uniorder lists them', async () => {
    const down = await labelWorld(app);
    for (const account of down.accounts) {
      const res = await app.http.put(
        `/v1/labelservice/carrier-accounts/${account.id}`,
        { credentials: { api_key: 'sbx_bad_key' } },
        { token: down.admin },
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    const failures = (body: any) =>
      body.carrier_errors
        .map((e: any) => [e.carrier, e.code])
        .sort((a: string[], b: string[]) => (a[0]! < b[0]! ? -1 : 1));
    const both = [
      ['sandbox_parcel', 'AUTH_FAILED'],
      ['sandbox_swift', 'AUTH_FAILED'],
    ];
    const res = await rate('CF-ALL-DOWN', down);
    assert.equal(res.status, 424, JSON.stringify(res.body));
    assert.equal(res.body.code, 'CARRIER_ERROR');
    assert.equal(res.body.result, false);
    assert.deepEqual(failures(res.body), both);
    assert.ok(res.body.carrier_errors.every((e: any) => e.message === 'The API key was refused.'));
    const compare = await app.http.post('/v1/labelservice/compare', rateBody('CF-ALL-DOWN-CMP'), {
      token: down.admin,
    });
    assert.equal(compare.status, 424, JSON.stringify(compare.body));
    assert.equal(compare.body.code, 'CARRIER_ERROR');
    assert.deepEqual(failures(compare.body), both);
    const [stored] = await app
      .em()
      .execute<{ n: number }[]>('select count(*)::int as n from label_rate where business_id = ?', [down.business.id]);
    assert.equal(stored!.n, 0, 'no rate stored');

    // The only carrier asked is down (SBX-RATE-DOWN fails sandbox_parcel): 424 as well, its code retryable's.
    const filtered = await rate('SBX-RATE-DOWN-CF', w, { carriers: ['sandbox_parcel'] });
    assert.equal(filtered.status, 424, JSON.stringify(filtered.body));
    assert.deepEqual(failures(filtered.body), [['sandbox_parcel', 'SERVICE_UNAVAILABLE']]);

    // Uniorder quotes both kinds: the carriers' failures are messages, the answer 200 (no price model: no self rate).
    const uni = await app.http.post(
      '/v1/uniorder/rate',
      { ...rateBody('CF-ALL-DOWN-UO'), type: 'D', quote_labels: true },
      { token: down.admin },
    );
    assert.equal(uni.status, 200, JSON.stringify(uni.body));
    assert.deepEqual(uni.body.rates, []);
    assert.deepEqual(
      uni.body.messages
        .filter((m: any) => m.carrier !== 'self')
        .map((m: any) => [m.carrier, m.code])
        .sort((a: string[], b: string[]) => (a[0]! < b[0]! ? -1 : 1)),
      both,
    );
    assert.ok(!logged.some((l) => l.msg === 'request failed'), 'no request failed as a server error');
  });
});
