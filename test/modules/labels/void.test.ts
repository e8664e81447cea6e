/**
 * Voiding labels (docs/labels.md, cancelShippingLabel): the carrier voids, the label is voided and the order
 * cancelled (3041); voiding again asks no carrier; a carrier's refusal changes nothing; a manifested label and a
 * label never bought cannot be voided.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { labelWorld, rateBody, type LabelWorld } from './world.ts';

describe('labels: void', () => {
  let app: TestApp;
  let w: LabelWorld;

  before(async () => {
    app = await startApp({ LABEL_CARRIER_TIMEOUT_MS: '500', SANDBOX_TRACKING_DAY_SECONDS: '1' });
    w = await labelWorld(app);
  });
  after(() => app.running.close());

  const buy = async (reference: string) => {
    const rated = await app.http.post('/v1/labelservice/rate', rateBody(reference), { token: w.admin });
    assert.equal(rated.status, 200, JSON.stringify(rated.body));
    const rate = rated.body.rates.find((r: any) => r.carrier === 'sandbox_swift');
    return app.http.post('/v1/labelservice/submitOrder', { rate_id: rate.rate_id }, { token: w.admin });
  };
  const cancel = (body: Record<string, unknown>) =>
    app.http.post('/v1/labelservice/cancelShippingLabel', body, { token: w.admin });
  const facts = async (orderId: number) => {
    const [row] = await app
      .em()
      .execute<{ state: string; voided_at: Date | null; status_id: number }[]>(
        'select l.state, l.voided_at, o.status_id from label_order l join delivery_order o on o.id = l.order_id where l.order_id = ?',
        [orderId],
      );
    return row!;
  };
  const shipmentState = async (key: string) =>
    (
      await app
        .em()
        .execute<{ state: string }[]>(
          'select state from sandbox_shipment where idempotency_key = ? and account_id = ?',
          [key, w.accounts[0]!.id],
        )
    )[0]?.state;

  test('a void voids at the carrier and cancels the order; again, it answers already_voided and asks no carrier', async () => {
    const bought = await buy('VOID-1');
    assert.equal(bought.status, 201, JSON.stringify(bought.body));
    const orderId = bought.body.order_id;
    const res = await cancel({ tracking_number: bought.body.label.carrier_tracking_numbers[0] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, {
      result: true,
      order_id: orderId,
      state: 'voided',
      already_voided: false,
      status_id: 5,
      status: 'CANCELLED',
    });
    const after1 = await facts(orderId);
    assert.equal(after1.state, 'voided');
    assert.ok(after1.voided_at);
    assert.equal(after1.status_id, 5);
    assert.equal(await shipmentState(`lo-${orderId}.1`), 'voided');
    const [change] = await app
      .em()
      .execute<{ operation_type: number; before_status: number }[]>(
        'select operation_type, before_status from order_status_change where order_id = ? and after_status = 5',
        [orderId],
      );
    assert.equal(change?.operation_type, 3041);
    assert.equal(change?.before_status, 1);

    // With the carrier's record gone, any carrier call would fail (SHIPMENT_NOT_FOUND): a 200 shows none was made.
    await app.em().execute('delete from sandbox_shipment where idempotency_key = ?', [`lo-${orderId}.1`]);
    const again = await cancel({ order_id: orderId });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.already_voided, true);
    const label = await app.http.post('/v1/shipping/getShippingLabel', { order_id: orderId }, { token: w.admin });
    assert.equal(label.status, 409);
    assert.equal(label.body.code, 'LABEL_VOIDED');
  });

  test("a void names the order by its own package number: a later parcel's voids the whole label", async () => {
    const parcel = { weight_grams: 800, length_mm: 200, width_mm: 150, height_mm: 100 };
    const rated = await app.http.post(
      '/v1/labelservice/rate',
      rateBody('VOID-PACKAGE', { parcels: [parcel, parcel] }),
      { token: w.admin },
    );
    assert.equal(rated.status, 200, JSON.stringify(rated.body));
    const rate = rated.body.rates.find((r: any) => r.carrier === 'sandbox_swift');
    const bought = await app.http.post('/v1/labelservice/submitOrder', { rate_id: rate.rate_id }, { token: w.admin });
    assert.equal(bought.status, 201, JSON.stringify(bought.body));
    const orderId = bought.body.order_id;
    const detail = await app.http.post('/v1/labelservice/getShippingDetail', { order_id: orderId }, { token: w.admin });
    assert.equal(detail.status, 200, JSON.stringify(detail.body));
    assert.equal(detail.body.parcels.length, 2);
    const second: string = detail.body.parcels[1].package_number;
    // Ours, neither the order's tracking number nor a carrier number.
    assert.notEqual(second, bought.body.tracking_number);
    assert.ok(!bought.body.label.carrier_tracking_numbers.includes(second));

    const unknown = await cancel({ tracking_number: `${second}X` });
    assert.equal(unknown.status, 404, JSON.stringify(unknown.body));
    assert.equal((await facts(orderId)).state, 'purchased');
    const res = await cancel({ tracking_number: second });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      [res.body.order_id, res.body.state, res.body.already_voided, res.body.status_id],
      [orderId, 'voided', false, 5],
    );
    assert.deepEqual([(await facts(orderId)).state, await shipmentState(`lo-${orderId}.1`)], ['voided', 'voided']);
    // Named by its first package's number (the order's tracking number), it is the same order, voided already.
    const again = await cancel({ tracking_number: detail.body.parcels[0].package_number });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.deepEqual([again.body.order_id, again.body.already_voided], [orderId, true]);
  });

  test('a carrier that refuses the void: 424 LABEL_VOID_REFUSED with its error, and nothing changed', async () => {
    const bought = await buy('SBX-NOVOID-1');
    assert.equal(bought.status, 201, JSON.stringify(bought.body));
    const orderId = bought.body.order_id;
    const res = await cancel({ order_id: orderId });
    assert.equal(res.status, 424, JSON.stringify(res.body));
    assert.equal(res.body.code, 'LABEL_VOID_REFUSED');
    assert.equal(res.body.carrier_error.code, 'VOID_WINDOW_CLOSED');
    assert.equal(res.body.carrier_error.carrier, 'sandbox_swift');
    const now = await facts(orderId);
    assert.equal(now.state, 'purchased');
    assert.equal(now.voided_at, null);
    assert.equal(now.status_id, 1);
    assert.equal(await shipmentState(`lo-${orderId}.1`), 'created');
  });

  test('a manifested label is LABEL_NOT_VOIDABLE; the carrier is not asked', async () => {
    const bought = await buy('VOID-MANIFESTED');
    assert.equal(bought.status, 201, JSON.stringify(bought.body));
    const orderId = bought.body.order_id;
    await app.em().execute("update label_order set state = 'manifested' where order_id = ?", [orderId]);
    const res = await cancel({ order_id: orderId });
    assert.equal(res.status, 409, JSON.stringify(res.body));
    assert.equal(res.body.code, 'LABEL_NOT_VOIDABLE');
    assert.equal(await shipmentState(`lo-${orderId}.1`), 'created');
    assert.equal((await facts(orderId)).status_id, 1);
  });

  test('a label whose purchase failed is NO_LABEL', async () => {
    const refused = await buy('SBX-REFUSE-VOID');
    assert.equal(refused.status, 424, JSON.stringify(refused.body));
    const res = await cancel({ order_id: refused.body.order_id });
    assert.equal(res.status, 409, JSON.stringify(res.body));
    assert.equal(res.body.code, 'NO_LABEL');
    assert.equal((await facts(refused.body.order_id)).status_id, 60);
  });

  test('a customer account cannot void', async () => {
    const bought = await buy('VOID-CUSTOMER');
    const res = await app.http.post(
      '/v1/labelservice/cancelShippingLabel',
      { order_id: bought.body.order_id },
      { token: w.customer },
    );
    assert.equal(res.status, 403, JSON.stringify(res.body));
  });

  test('cancel_order refuses a label order, bought or failed: voiding its label cancels it', async () => {
    const bought = await buy('VOID-VIA-CANCEL');
    const refused = await buy('SBX-REFUSE-VIA-CANCEL');
    for (const orderId of [bought.body.order_id, refused.body.order_id]) {
      const before = await facts(orderId);
      const res = await app.http.post(`/v1/orders/${orderId}/cancel`, {}, { token: w.admin });
      assert.equal(res.status, 409, JSON.stringify(res.body));
      assert.equal(res.body.code, 'CANCEL_BY_VOID');
      assert.deepEqual(await facts(orderId), before);
    }
  });

  test('cancelling an order whose purchase timed out voids what the carrier bought after all, and only that', async () => {
    const [late, never] = [await buy(`SBX-TIMEOUT-LATE-${Date.now()}`), await buy(`SBX-TIMEOUT-NEVER-${Date.now()}`)];
    assert.equal(late.status, 424, JSON.stringify(late.body));
    assert.equal(late.body.carrier_error.code, 'TIMEOUT');
    // The carrier did buy the first one, after our deadline (as a real carrier may).
    await app.em().execute(
      `insert into sandbox_shipment (carrier, account_id, idempotency_key, reference, service, shipment, transit_days,
         tracking_numbers, state, total_charge, currency)
       select carrier, account_id, 'lo-' || ? || '.1', 'LATE', 'swift_express', '{}'::jsonb, 2, '{SWF00000000018}',
         'created', 14.15, 'EUR' from sandbox_shipment where account_id = ? limit 1`,
      [late.body.order_id, w.accounts[0]!.id],
    );
    for (const orderId of [late.body.order_id, never.body.order_id]) {
      const res = await app.http.post(`/v1/uniorder/${orderId}/cancel`, {}, { token: w.admin });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((await facts(orderId)).status_id, 5);
    }
    assert.equal(await shipmentState(`lo-${late.body.order_id}.1`), 'voided');
    assert.equal(await shipmentState(`lo-${never.body.order_id}.1`), undefined);
  });
});
