/**
 * Rating and buying labels through the HTTP API with the sandbox carriers (docs/labels.md): rates from both
 * carriers with their own prices and transit days, a purchase, a refused purchase kept as LABEL_PURCHASE_FAILED, an
 * idempotent retry that buys nothing new, and a rate bought once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { labelWorld, rateBody, type LabelWorld } from './world.ts';

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
    const carriers = new Set(body.rates.map((r: any) => r.carrier));
    assert.deepEqual([...carriers].sort(), ['sandbox_parcel', 'sandbox_swift']);
    assert.equal(body.rates.length, 4);
    const totals = body.rates.map((r: any) => Number(r.total_charge));
    assert.deepEqual(
      totals,
      [...totals].sort((a, b) => a - b),
    );
    const express = body.rates.find((r: any) => r.service === 'swift_express');
    // 8.90 + 1.10 x 2 kg (1.2 kg, volume 1.2 kg: rounded up) = 11.10; zone 2 2.00; fuel 8 % of 13.10 = 1.05.
    assert.equal(express.base_charge, '11.10');
    assert.deepEqual(
      express.extra_charges.map((c: any) => [c.code, c.amount]),
      [
        ['zone', '2.00'],
        ['fuel', '1.05'],
      ],
    );
    assert.equal(express.total_charge, '14.15');
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
  });

  test('a timeout is a retryable failure after the deadline, and nothing is bought', async () => {
    const { rates } = await rate(`SBX-TIMEOUT-${Date.now()}`);
    const res = await app.http.post('/v1/labelservice/submitOrder', { rate_id: rates[0].rate_id }, { token: w.admin });
    assert.equal(res.status, 424, JSON.stringify(res.body));
    assert.equal(res.body.carrier_error.code, 'TIMEOUT');
    assert.equal(res.body.carrier_error.retryable, true);
  });
});
