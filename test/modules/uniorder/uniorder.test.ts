/**
 * Uniorder through the HTTP API (docs/uniorder.md): one rate list of both kinds, an order created at each kind,
 * read, printed (barcodes decoded), tracked and cancelled; a refused label bought again; batches of 20 with a refused
 * item, and the 21st item refused naming the limit; prices hidden per family in one mixed list.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, PASSWORD, priceModel } from '../../helpers/factories.ts';
import { labelWorld, RECIPIENT, SHIPPER, type LabelWorld } from '../labels/world.ts';

const exec = promisify(execFile);
const DEPOT = { lat: 48.8566, lng: 2.3522 };
const TO = { ...RECIPIENT, address: { ...RECIPIENT.address, lat: 45.76, lng: 4.83 } };
const PARCELS = [{ weight_grams: 1200, length_mm: 300, width_mm: 200, height_mm: 100 }];

const rateBody = (reference: string, extra: Record<string, unknown> = {}) => ({
  type: 'D',
  shipper: SHIPPER,
  recipient: TO,
  parcels: PARCELS,
  reference,
  quote_labels: true,
  ...extra,
});

describe('uniorder', () => {
  let app: TestApp;
  let w: LabelWorld;
  let dir: string;

  before(async () => {
    app = await startApp({ SANDBOX_TRACKING_DAY_SECONDS: '1' });
    w = await labelWorld(app);
    const set = await app.http.put('/v1/client/delivery-price-model', priceModel(DEPOT), { token: w.admin });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'uniorder-'));
  });
  after(async () => {
    await fs.rm(dir, { recursive: true, force: true });
    await app.running.close();
  });

  const rate = async (reference: string, extra: Record<string, unknown> = {}, token = w.admin) => {
    const res = await app.http.post('/v1/uniorder/rate', rateBody(reference, extra), { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const create = (body: Record<string, unknown>, token = w.admin) => app.http.post('/v1/uniorder', body, { token });
  const swiftOf = (rates: any[]) => rates.find((r) => r.kind === 'label' && r.carrier === 'sandbox_swift');

  /** The barcodes of a PDF printed at 203 dpi, page by page. */
  async function barcodes(base64: string, name: string): Promise<string[]> {
    const sub = await fs.mkdtemp(path.join(dir, `${name}-`));
    const pdf = path.join(sub, 'label.pdf');
    await fs.writeFile(pdf, Buffer.from(base64, 'base64'));
    await exec('pdftoppm', ['-r', '203', '-png', pdf, path.join(sub, 'page')]);
    const pngs = (await fs.readdir(sub)).filter((f) => f.endsWith('.png')).sort();
    const out = [];
    for (const png of pngs) out.push((await exec('zbarimg', ['--raw', '-q', path.join(sub, png)])).stdout.trim());
    return out;
  }

  test('one list of both kinds: self delivery first, priced as orders_rate prices it, then labels by price', async () => {
    const body = await rate('UO-1', { time_window: null });
    const [self, ...labels] = body.rates;
    assert.equal(self.kind, 'self_delivery');
    assert.match(self.rate_id, /^sr_[a-z2-7]{26}$/);
    assert.equal(self.carrier, 'self');
    assert.equal(self.service, 'local_D');
    assert.equal(self.transit_days, 0);
    const local = await app.http.post(
      '/v1/orders/rate',
      { type: 'D', address: TO.address, packages: [{ weight_grams: 1200 }] },
      { token: w.admin },
    );
    assert.equal(local.status, 200, JSON.stringify(local.body));
    assert.equal(self.total_charge, local.body.shipping_price);
    assert.equal(self.tax, local.body.tax);
    assert.deepEqual(self.price_details, local.body.price_details);
    assert.equal(labels.length, 4);
    assert.ok(labels.every((r: any) => r.kind === 'label' && /^lr_/.test(r.rate_id)));
    const totals = labels.map((r: any) => Number(r.total_charge));
    assert.deepEqual(
      totals,
      [...totals].sort((a, b) => a - b),
    );
    assert.deepEqual(body.messages, []);
    assert.equal(body.price_hidden, undefined);
  });

  test('a collection has no label rates; a business without a model gets PRICE_MODEL_MISSING only when nothing can come', async () => {
    const p = await rate('UO-P', { type: 'P', shipper: null });
    assert.deepEqual(
      p.rates.map((r: any) => r.kind),
      ['self_delivery'],
    );
    assert.deepEqual(
      p.messages.map((m: any) => m.code),
      ['NOT_LABEL_SHIPPABLE'],
    );
    const bare = await makeBusiness(app.em());
    const token = await app.login(bare.users.admin.email, PASSWORD);
    const none = await app.http.post('/v1/uniorder/rate', rateBody('UO-X', { quote_labels: false }), { token });
    assert.equal(none.status, 409, JSON.stringify(none.body));
    assert.equal(none.body.code, 'PRICE_MODEL_MISSING');
    const messages = await app.http.post('/v1/uniorder/rate', rateBody('UO-X'), { token });
    assert.equal(messages.status, 200, JSON.stringify(messages.body));
    assert.deepEqual(messages.body.rates, []);
    assert.deepEqual(messages.body.messages.map((m: any) => m.code).sort(), [
      'NO_CARRIER_ACCOUNT',
      'PRICE_MODEL_MISSING',
    ]);
  });

  test('a local order at its self rate: the rate’s price, its ship date, once; read and printed', async () => {
    const { rates } = await rate('UO-2', { ship_date: '2030-01-15' });
    const self = rates[0];
    const res = await create({ rate_id: self.rate_id, idempotency_key: 'uo-self-1', note: 'Ring twice' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const order = res.body;
    assert.equal(order.kind, 'self_delivery');
    assert.equal(order.scheduled_date, '2030-01-15');
    assert.equal(order.shipping_price, self.total_charge);
    assert.equal(order.rate_id, self.rate_id);
    assert.equal(order.label, null);
    assert.equal(order.status_id, 1);
    const replay = await create({ rate_id: self.rate_id, idempotency_key: 'uo-self-1' });
    assert.equal(replay.status, 201, JSON.stringify(replay.body));
    assert.equal(replay.body.order_id, order.order_id);
    const used = await create({ rate_id: self.rate_id });
    assert.equal(used.status, 409);
    assert.equal(used.body.code, 'RATE_ALREADY_USED');
    assert.equal(used.body.order_id, order.order_id);
    const raced = (await rate('UO-2R')).rates[0];
    const racing = await Promise.all([1, 2].map(() => create({ rate_id: raced.rate_id, idempotency_key: 'uo-race' })));
    assert.deepEqual(
      racing.map((r) => r.status),
      [201, 201],
      JSON.stringify(racing.map((r) => r.body)),
    );
    assert.equal(racing[0]!.body.order_id, racing[1]!.body.order_id);
    const otherRate = await create({ rate_id: (await rate('UO-2S')).rates[0].rate_id, idempotency_key: 'uo-race' });
    assert.equal(otherRate.status, 409);
    assert.equal(otherRate.body.code, 'IDEMPOTENCY_KEY_REUSED');
    const unknown = await create({ rate_id: 'sr_aaaaaaaaaaaaaaaaaaaaaaaaaa' });
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.errors[0].field, 'rate_id');

    const read = await app.http.get(`/v1/uniorder/${order.order_id}`, { token: w.employee });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.deepEqual(read.body, order);
    const label = await app.http.get(`/v1/uniorder/${order.order_id}/label`, { token: w.admin });
    assert.equal(label.status, 200, JSON.stringify(label.body));
    assert.deepEqual(await barcodes(label.body.label_base64, 'self'), [order.parcels[0].package_number]);

    const local = await app.http.post(`/v1/uniorder/${order.order_id}/purchase-label`, {}, { token: w.admin });
    assert.equal(local.status, 409);
    assert.equal(local.body.code, 'NOT_A_LABEL_ORDER');
    const cancelled = await app.http.post(`/v1/uniorder/${order.order_id}/cancel`, {}, { token: w.admin });
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.status_id, 5);
    assert.equal(cancelled.body.label_voided, false);
  });

  test('a label order at its label rate: bought, printed, tracked, cancelled with its label voided', async () => {
    const { rates } = await rate('UO-3');
    const swift = swiftOf(rates);
    const res = await create({ rate_id: swift.rate_id });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const order = res.body;
    assert.equal(order.kind, 'label');
    assert.equal(order.label.state, 'purchased');
    assert.equal(order.shipping_price, swift.total_charge);
    assert.equal(order.shipper.name, SHIPPER.name);
    const carrierNumber = order.label.carrier_tracking_numbers[0];
    assert.equal(order.parcels[0].carrier_tracking_number, carrierNumber);

    const label = await app.http.get(`/v1/uniorder/${order.order_id}/label?format=PDF`, { token: w.admin });
    assert.equal(label.status, 200, JSON.stringify(label.body));
    assert.deepEqual(await barcodes(label.body.label_base64, 'label'), [carrierNumber]);

    const tracking = await app.http.get(`/v1/uniorder/${order.order_id}/tracking`, { token: w.admin });
    assert.equal(tracking.status, 200, JSON.stringify(tracking.body));
    assert.equal(tracking.body.tracking_number, order.tracking_number);
    assert.deepEqual(tracking.body.carrier_tracking_numbers, [carrierNumber]);
    assert.ok(Array.isArray(tracking.body.timeline.events) && tracking.body.timeline.events.length > 0);

    const cancelled = await app.http.post(`/v1/uniorder/${order.order_id}/cancel`, {}, { token: w.admin });
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.status_id, 5);
    assert.equal(cancelled.body.label_voided, true);
    const [shipment] = await app
      .em()
      .execute<{ state: string }[]>('select state from sandbox_shipment where tracking_numbers[1] = ?', [
        carrierNumber,
      ]);
    assert.equal(shipment!.state, 'voided');
    const again = await app.http.post(`/v1/uniorder/${order.order_id}/cancel`, {}, { token: w.admin });
    assert.equal(again.status, 200);
    assert.equal(again.body.label_voided, false);
    const voided = await app.http.get(`/v1/uniorder/${order.order_id}/label`, { token: w.admin });
    assert.equal(voided.status, 409);
    assert.equal(voided.body.code, 'LABEL_VOIDED');
  });

  test('a refused label is kept in 60 and bought again with purchase-label', async () => {
    const { rates } = await rate('SBX-REFUSE-ONCE-UO');
    const refused = await create({ rate_id: swiftOf(rates).rate_id });
    assert.equal(refused.status, 424, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'LABEL_PURCHASE_FAILED');
    const orderId = refused.body.order_id;
    assert.equal(typeof orderId, 'number');
    const failed = await app.http.get(`/v1/uniorder/${orderId}`, { token: w.admin });
    assert.equal(failed.body.status_id, 60);
    assert.equal(failed.body.label.state, 'failed');
    assert.equal(failed.body.label.label_error.code, 'ADDRESS_UNSERVICEABLE');
    const noLabel = await app.http.get(`/v1/uniorder/${orderId}/label`, { token: w.admin });
    assert.equal(noLabel.body.code, 'NO_LABEL');

    const other = swiftOf((await rate('UO-OTHER')).rates);
    const mismatch = await app.http.post(
      `/v1/uniorder/${orderId}/purchase-label`,
      { rate_id: other.rate_id },
      { token: w.admin },
    );
    assert.equal(mismatch.status, 422, JSON.stringify(mismatch.body));
    assert.equal(mismatch.body.errors[0].field, 'rate_id');
    const bought = await app.http.post(`/v1/uniorder/${orderId}/purchase-label`, {}, { token: w.admin });
    assert.equal(bought.status, 200, JSON.stringify(bought.body));
    assert.equal(bought.body.status_id, 1);
    assert.equal(bought.body.label.state, 'purchased');
    assert.equal(bought.body.label.label_error, null);
    const twice = await app.http.post(`/v1/uniorder/${orderId}/purchase-label`, {}, { token: w.admin });
    assert.equal(twice.status, 409);
    assert.equal(twice.body.code, 'LABEL_ALREADY_PURCHASED');
  });

  test('a batch of 20: rated and created one by one, a refused item its own result with its order', async () => {
    const items = Array.from({ length: 20 }, (_, i) => rateBody(i === 7 ? 'SBX-REFUSE-UO' : `UO-B-${i}`));
    const rated = await app.http.post('/v1/uniorder/rate/batch', { items }, { token: w.admin });
    assert.equal(rated.status, 200, JSON.stringify(rated.body));
    assert.equal(rated.body.results.length, 20);
    assert.ok(rated.body.results.every((r: any, i: number) => r.result && r.index === i));
    const created = await app.http.post(
      '/v1/uniorder/batch',
      {
        items: rated.body.results.map((r: any, i: number) => ({
          rate_id: swiftOf(r.rates).rate_id,
          idempotency_key: `uo-b-${i}`,
        })),
      },
      { token: w.admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.total, 20);
    const failures = JSON.stringify(created.body.results.filter((r: any) => !r.result));
    assert.equal(created.body.succeeded, 19, failures);
    assert.equal(created.body.failed, 1, failures);
    const bad = created.body.results[7];
    assert.equal(bad.result, false);
    assert.equal(bad.code, 'LABEL_PURCHASE_FAILED');
    assert.equal(typeof bad.order_id, 'number');
    for (const r of created.body.results.filter((x: any) => x.index !== 7)) {
      assert.equal(r.result, true);
      assert.equal(r.order.label.state, 'purchased');
    }
  });

  test('an invalid item is its own result; 21 items is 422 on items naming the limit', async () => {
    const mixed = await app.http.post(
      '/v1/uniorder/rate/batch',
      { items: [rateBody('UO-M-0'), { ...rateBody('UO-M-1'), parcels: [] }] },
      { token: w.admin },
    );
    assert.equal(mixed.status, 200, JSON.stringify(mixed.body));
    assert.equal(mixed.body.results[0].result, true);
    assert.equal(mixed.body.results[1].result, false);
    assert.equal(mixed.body.results[1].errors[0].field, 'parcels');
    for (const p of ['/v1/uniorder/rate/batch', '/v1/uniorder/batch']) {
      const items = Array.from({ length: 21 }, () => ({ rate_id: 'sr_aaaaaaaaaaaaaaaaaaaaaaaaaa' }));
      const res = await app.http.post(p, { items }, { token: w.admin });
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.equal(res.body.errors[0].field, 'items');
      assert.match(res.body.errors[0].message, /20/);
    }
  });

  test('prices hidden per family: a customer hidden label prices sees the self price but no label price', async () => {
    await app
      .em()
      .execute("update app_user set hidden_price_families = '{label_service}' where id = ?", [w.users.customer.id]);
    const body = await rate('UO-H', {}, w.customer);
    assert.equal(body.price_hidden, true);
    const [self, ...labels] = body.rates;
    assert.equal(self.kind, 'self_delivery');
    assert.ok(self.total_charge);
    assert.equal(self.price_hidden, undefined);
    assert.equal(labels.length, 4);
    for (const r of labels) {
      assert.equal(r.price_hidden, true);
      for (const f of ['total_charge', 'currency', 'base_charge', 'extra_charges']) assert.equal(r[f], undefined);
    }
    const staff = await rate('UO-H2');
    assert.equal(staff.price_hidden, undefined);
  });
});
