/**
 * print_local_label (docs/labels.md): the label of a local delivery order, one 4x6 page per package whose barcode
 * decodes to the package number at 203 dpi; ZPL on request; a label order is NOT_LOCAL_ORDER; another business's
 * order is not found.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { orderArguments } from '../../helpers/factories.ts';
import { labelWorld, rateBody, type LabelWorld } from './world.ts';

const exec = promisify(execFile);

describe('labels: local label', () => {
  let app: TestApp;
  let w: LabelWorld;
  let dir = '';
  let local: any;

  before(async () => {
    app = await startApp();
    w = await labelWorld(app);
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tms-locallabel-'));
    const created = await app.http.post(
      '/v1/client/orderCreate',
      { ...orderArguments('LOCAL-LBL'), packages: [{ weight_grams: 500 }, { weight_grams: 2500 }] },
      { token: w.admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    local = created.body;
  });
  after(async () => {
    await fs.rm(dir, { recursive: true, force: true });
    await app.running.close();
  });

  test('one PDF page per package, each barcode decoding to its package number', async () => {
    const res = await app.http.get(`/v1/orders/${local.order_id}/local-label`, { token: w.employee });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.format, 'PDF');
    assert.equal(res.body.pages, 2);
    assert.equal(res.body.tracking_number, local.tracking_number);
    const pdf = path.join(dir, 'local.pdf');
    await fs.writeFile(pdf, Buffer.from(res.body.label_base64, 'base64'));
    const info = (await exec('pdfinfo', [pdf])).stdout;
    assert.match(info, /^Page size:\s+288 x 432 pts/m);
    assert.match(info, /^Pages:\s+2$/m);
    await exec('pdftoppm', ['-r', '203', '-png', pdf, path.join(dir, 'page')]);
    const pngs = (await fs.readdir(dir)).filter((f) => f.endsWith('.png')).sort();
    assert.equal(pngs.length, 2);
    for (const [i, png] of pngs.entries()) {
      const decoded = await exec('zbarimg', ['--raw', '-q', path.join(dir, png)]);
      assert.equal(decoded.stdout.trim(), local.packages[i].package_number);
    }
    const text = (await exec('pdftotext', ['-layout', pdf, '-'])).stdout;
    for (const field of ['Local delivery (D)', 'Ada Lovelace', 'LOCAL-LBL', '2026-12-24'])
      assert.ok(text.includes(field), `${field} missing from the label`);
  });

  test('ZPL on request, with a Code 128 field of each package number', async () => {
    const res = await app.http.get(`/v1/orders/${local.order_id}/local-label?format=ZPL`, { token: w.admin });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.media_type, 'application/zpl');
    const zpl = Buffer.from(res.body.label_base64, 'base64').toString('utf8');
    assert.match(zpl, /\^BC/);
    for (const p of local.packages) assert.ok(zpl.includes(`^FD${p.package_number}^FS`));
  });

  test('a planned order prints its route and stop number (breaks not counted)', async () => {
    const em = app.em();
    const [route] = await em.execute<{ id: number }[]>(
      "insert into route (business_id, driver_id, route_date) values (?, ?, '2026-12-24') returning id",
      [w.business.id, w.users.driver.id],
    );
    const other = await app.http.post('/v1/client/orderCreate', orderArguments('LOCAL-FIRST'), { token: w.admin });
    await em.execute(
      `insert into route_stop (route_id, business_id, seq, kind, order_id) values
         (?, ?, 1, 'delivery', ?), (?, ?, 2, 'break', null), (?, ?, 3, 'delivery', ?)`,
      [
        route!.id,
        w.business.id,
        other.body.order_id,
        route!.id,
        w.business.id,
        route!.id,
        w.business.id,
        local.order_id,
      ],
    );
    const res = await app.http.get(`/v1/orders/${local.order_id}/local-label`, { token: w.admin });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const pdf = path.join(dir, 'planned.pdf');
    await fs.writeFile(pdf, Buffer.from(res.body.label_base64, 'base64'));
    const text = (await exec('pdftotext', ['-layout', pdf, '-'])).stdout;
    assert.ok(text.includes(`ROUTE ${route!.id} STOP 2`), text);
  });

  test('a label order is NOT_LOCAL_ORDER; another business finds nothing', async () => {
    const rated = await app.http.post('/v1/labelservice/rate', rateBody('LOCAL-VS-LABEL'), { token: w.admin });
    const bought = await app.http.post(
      '/v1/labelservice/submitOrder',
      { rate_id: rated.body.rates[0].rate_id },
      { token: w.admin },
    );
    assert.equal(bought.status, 201, JSON.stringify(bought.body));
    const res = await app.http.get(`/v1/orders/${bought.body.order_id}/local-label`, { token: w.admin });
    assert.equal(res.status, 409, JSON.stringify(res.body));
    assert.equal(res.body.code, 'NOT_LOCAL_ORDER');
    const other = await labelWorld(app);
    const theirs = await app.http.get(`/v1/orders/${local.order_id}/local-label`, { token: other.admin });
    assert.equal(theirs.status, 404, JSON.stringify(theirs.body));
    const customer = await app.http.get(`/v1/orders/${local.order_id}/local-label`, { token: w.customer });
    assert.equal(customer.status, 404, JSON.stringify(customer.body));
  });
});
