/**
 * Reading a label order back (docs/labels.md): its label downloaded as a 4x6 PDF whose barcodes decode to the
 * carrier tracking numbers after printing at 203 dpi (pdfinfo, pdftoppm, zbarimg: scripts/debian.ts), or as ZPL; its
 * detail found by a carrier tracking number; nothing of it for another business or another customer; prices hidden
 * from a customer its business hides label prices from.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { orderArguments } from '../../helpers/factories.ts';
import { labelWorld, rateBody, type LabelWorld } from './world.ts';

const exec = promisify(execFile);

/** Buys a Swift label for the shipment of `reference` (extra: rate fields such as parcels) as `token`. */
async function buyLabel(app: TestApp, token: string, reference: string, extra: Record<string, unknown> = {}) {
  const rated = await app.http.post('/v1/labelservice/rate', rateBody(reference, extra), { token });
  assert.equal(rated.status, 200, JSON.stringify(rated.body));
  const rate = rated.body.rates.find((r: any) => r.service === 'swift_express');
  return app.http.post('/v1/labelservice/submitOrder', { rate_id: rate.rate_id }, { token });
}

const TWO_PARCELS = {
  parcels: [
    { weight_grams: 1200, length_mm: 300, width_mm: 200, height_mm: 100 },
    { weight_grams: 800, reference: 'BOX-2' },
  ],
};

describe('labels: detail and label documents', () => {
  let app: TestApp;
  let w: LabelWorld;
  let other: LabelWorld;
  let dir = '';
  let bought: any;

  before(async () => {
    app = await startApp();
    w = await labelWorld(app);
    other = await labelWorld(app);
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tms-labeldoc-'));
    const res = await buyLabel(app, w.admin, 'DOC-1', TWO_PARCELS);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    bought = res.body;
  });
  after(async () => {
    await fs.rm(dir, { recursive: true, force: true });
    await app.running.close();
  });

  test('the PDF is 4x6 in, one page per parcel, each barcode decoding to its carrier tracking number', async () => {
    const res = await app.http.post('/v1/shipping/getShippingLabel', { order_id: bought.order_id }, { token: w.admin });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.format, 'PDF');
    assert.equal(res.body.media_type, 'application/pdf');
    assert.equal(res.body.pages, 2);
    assert.equal(res.body.tracking_number, bought.tracking_number);
    const bytes = Buffer.from(res.body.label_base64, 'base64');
    assert.equal(createHash('sha256').update(bytes).digest('hex'), res.body.sha256);
    const pdf = path.join(dir, 'label.pdf');
    await fs.writeFile(pdf, bytes);
    const info = (await exec('pdfinfo', [pdf])).stdout;
    assert.match(info, /^Page size:\s+288 x 432 pts/m);
    assert.match(info, /^Pages:\s+2$/m);
    await exec('pdftoppm', ['-r', '203', '-png', pdf, path.join(dir, 'page')]);
    const pngs = (await fs.readdir(dir)).filter((f) => f.endsWith('.png')).sort();
    assert.equal(pngs.length, 2);
    const numbers = bought.label.carrier_tracking_numbers;
    assert.equal(numbers.length, 2);
    for (const [i, png] of pngs.entries()) {
      const decoded = await exec('zbarimg', ['--raw', '-q', path.join(dir, png)]);
      assert.equal(decoded.stdout.trim(), numbers[i]);
    }
  });

  test('the ZPL has a Code 128 field of each carrier tracking number', async () => {
    const res = await app.http.post(
      '/v1/shipping/getShippingLabel',
      { tracking_number: bought.tracking_number, format: 'ZPL' },
      { token: w.employee },
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.media_type, 'application/zpl');
    const zpl = Buffer.from(res.body.label_base64, 'base64').toString('utf8');
    assert.match(zpl, /\^BC/);
    for (const n of bought.label.carrier_tracking_numbers) assert.ok(zpl.includes(`^FD${n}^FS`), `${n} not in the ZPL`);
  });

  test('the detail is found by a carrier tracking number, with parcels, price and the newest event', async () => {
    const carrierNumber = bought.label.carrier_tracking_numbers[1];
    const res = await app.http.post(
      '/v1/labelservice/getShippingDetail',
      { tracking_number: carrierNumber },
      { token: w.admin },
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const d = res.body;
    assert.equal(d.order_id, bought.order_id);
    assert.equal(d.order_ref, 'DOC-1');
    assert.equal(d.status, 'NEW_ORDER');
    assert.equal(d.label.state, 'purchased');
    assert.equal(d.label.carrier, 'sandbox_swift');
    assert.deepEqual(
      d.parcels.map((p: any) => [p.position, p.carrier_tracking_number, p.weight_grams, p.reference]),
      [
        [1, bought.label.carrier_tracking_numbers[0], 1200, null],
        [2, carrierNumber, 800, 'BOX-2'],
      ],
    );
    assert.equal(d.shipper.name, 'Depot');
    assert.equal(d.recipient.address.city, 'Lyon');
    assert.equal(d.shipping_price, bought.shipping_price);
    assert.equal(d.rate_id, bought.rate_id);
    assert.equal(d.last_event.code, 'otep:core:created');
  });

  test('exactly one of order_id and tracking_number', async () => {
    for (const body of [{}, { order_id: bought.order_id, tracking_number: bought.tracking_number }]) {
      const res = await app.http.post('/v1/labelservice/getShippingDetail', body, { token: w.admin });
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.equal(res.body.code, 'VALIDATION_FAILED');
    }
  });

  test('another business finds nothing: 404 by id and by tracking number', async () => {
    for (const body of [{ order_id: bought.order_id }, { tracking_number: bought.label.carrier_tracking_numbers[0] }]) {
      const detail = await app.http.post('/v1/labelservice/getShippingDetail', body, { token: other.admin });
      assert.equal(detail.status, 404, JSON.stringify(detail.body));
      const label = await app.http.post('/v1/shipping/getShippingLabel', body, { token: other.admin });
      assert.equal(label.status, 404, JSON.stringify(label.body));
    }
  });

  test('a local order is NOT_A_LABEL_ORDER', async () => {
    const local = await app.http.post('/v1/client/orderCreate', orderArguments('LOCAL-DOC'), { token: w.admin });
    assert.equal(local.status, 200, JSON.stringify(local.body));
    const res = await app.http.post(
      '/v1/shipping/getShippingLabel',
      { order_id: local.body.order_id },
      { token: w.admin },
    );
    assert.equal(res.status, 409, JSON.stringify(res.body));
    assert.equal(res.body.code, 'NOT_A_LABEL_ORDER');
  });

  test('a customer reads its own label orders only, without prices when they are hidden from it', async () => {
    const own = await buyLabel(app, w.customer, 'DOC-CUST');
    assert.equal(own.status, 201, JSON.stringify(own.body));
    const theirs = await app.http.post(
      '/v1/labelservice/getShippingDetail',
      { order_id: bought.order_id },
      { token: w.customer },
    );
    assert.equal(theirs.status, 404, JSON.stringify(theirs.body));
    const shown = await app.http.post(
      '/v1/labelservice/getShippingDetail',
      { order_id: own.body.order_id },
      { token: w.customer },
    );
    assert.equal(shown.status, 200, JSON.stringify(shown.body));
    assert.equal(shown.body.shipping_price, own.body.shipping_price);
    await app
      .em()
      .execute("update app_user set hidden_price_families = '{label_service}' where id = ?", [w.users.customer.id]);
    const hidden = await app.http.post(
      '/v1/labelservice/getShippingDetail',
      { order_id: own.body.order_id },
      { token: w.customer },
    );
    assert.equal(hidden.status, 200, JSON.stringify(hidden.body));
    assert.equal(hidden.body.price_hidden, true);
    for (const key of ['currency', 'shipping_price', 'tax', 'price_details']) assert.ok(!(key in hidden.body), key);
    const staff = await app.http.post(
      '/v1/labelservice/getShippingDetail',
      { order_id: own.body.order_id },
      { token: w.admin },
    );
    assert.equal(staff.body.shipping_price, own.body.shipping_price);
  });
});
