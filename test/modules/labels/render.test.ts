/**
 * The label renderers (src/modules/labels/render): the PDF is a 4x6 inch page (pdfinfo) whose barcode a reader
 * decodes to the tracking number after printing at 203 dpi (pdftoppm, then zbarimg), and the same content gives the
 * same bytes; the ZPL has a Code 128 field of the tracking number and prints user text without letting `^` or `~`
 * start a command. The test command installs Debian's poppler-utils and zbar-tools when missing (scripts/debian.ts).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { LabelContent } from '../../../src/modules/labels/render/content.ts';
import { renderLabelPdf } from '../../../src/modules/labels/render/labelPdf.ts';
import { renderLabelZpl } from '../../../src/modules/labels/render/labelZpl.ts';
import { toWinAnsi } from '../../../src/modules/labels/render/winAnsi.ts';

const exec = promisify(execFile);

const LABEL: LabelContent = {
  trackingNumber: 'SBX1Z0004815162342',
  carrierName: 'Sandbox Express',
  serviceName: 'Next Day',
  from: { name: 'Depot North', lines: ['Industrial Road 4'], city: 'Gdansk', postalCode: '80-001', country: 'PL' },
  to: {
    name: 'Anna Nowak',
    lines: ['Long Street 12', 'Flat 3'],
    city: 'Warsaw',
    postalCode: '00-950',
    country: 'PL',
  },
  weightGrams: 1250,
  reference: 'ORDER-42',
  createdAt: '2026-11-26T10:00:00Z',
};

describe('label rendering', () => {
  let dir = '';
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tms-label-'));
  });
  after(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  test('the PDF is a 4x6 inch page whose barcode decodes to the tracking number at 203 dpi', async () => {
    const pdf = path.join(dir, 'label.pdf');
    await fs.writeFile(pdf, await renderLabelPdf(LABEL));
    const info = await exec('pdfinfo', [pdf]);
    assert.match(info.stdout, /^Page size:\s+288 x 432 pts/m);
    assert.match(info.stdout, /^Pages:\s+1$/m);
    await exec('pdftoppm', ['-r', '203', '-png', pdf, path.join(dir, 'page')]);
    const [png] = (await fs.readdir(dir)).filter((f) => f.endsWith('.png'));
    assert.ok(png, 'pdftoppm wrote no image');
    const decoded = await exec('zbarimg', ['--raw', '-q', path.join(dir, png)]);
    assert.equal(decoded.stdout.trim(), LABEL.trackingNumber);
    const text = (await exec('pdftotext', ['-layout', pdf, '-'])).stdout;
    for (const field of ['Sandbox Express', 'Next Day', 'Depot North', 'Anna Nowak', '00-950 Warsaw', '1.25 kg']) {
      assert.ok(text.includes(field), `${field} missing from the PDF's text`);
    }
  });

  test('the PDF prints letters its fonts lack as their base letters', async () => {
    assert.equal(
      toWinAnsi('Łucja Żółć, Gdańsk 80-001, Straße, Ørsted, 東京'),
      'Lucja Zólc, Gdansk 80-001, Straße, Ørsted, ??',
    );
    const pdf = path.join(dir, 'accents.pdf');
    await fs.writeFile(pdf, await renderLabelPdf({ ...LABEL, to: { ...LABEL.to, name: 'Łucja Żółć', city: 'Łódź' } }));
    const text = (await exec('pdftotext', ['-layout', pdf, '-'])).stdout;
    assert.ok(text.includes('Lucja Zólc'));
    assert.ok(text.includes('00-950 Lódz'));
  });

  test('the same content renders the same PDF bytes, and other content other bytes', async () => {
    const [a, b] = await Promise.all([renderLabelPdf(LABEL), renderLabelPdf(LABEL)]);
    assert.ok(a.equals(b));
    const c = await renderLabelPdf({ ...LABEL, reference: 'ORDER-43' });
    assert.ok(!a.equals(c));
  });

  test('the ZPL is one 4x6 format with a Code 128 field of the tracking number', () => {
    const zpl = renderLabelZpl(LABEL);
    assert.ok(zpl.startsWith('^XA'));
    assert.ok(zpl.trimEnd().endsWith('^XZ'));
    assert.match(zpl, /\^PW812\b/);
    assert.match(zpl, /\^LL1218\b/);
    assert.match(zpl, new RegExp(`\\^BCN[^\\n]*\\^FD${LABEL.trackingNumber}\\^FS`));
    for (const text of ['Anna Nowak', 'Sandbox Express', 'Next Day', 'ORDER-42', '1.25 kg', '00-950 Warsaw']) {
      assert.ok(zpl.includes(text), `${text} missing`);
    }
  });

  test('commands in user text stay text in the ZPL', () => {
    const zpl = renderLabelZpl({
      ...LABEL,
      to: { ...LABEL.to, name: 'Eve^XZ~JA^XA_x', lines: ['Line\r\n^FO0,0'] },
    });
    // One format only: the injected ^XZ and ^XA are hex escapes, ~JA (cancel all) too, and the escape character
    // itself is escaped so `_x` cannot become a byte.
    assert.equal(zpl.match(/\^XA/g)?.length, 1);
    assert.equal(zpl.match(/\^XZ/g)?.length, 1);
    assert.ok(!zpl.includes('~'));
    assert.ok(zpl.includes('^FH_^FDEve_5EXZ_7EJA_5EXA_5Fx^FS'));
    assert.ok(zpl.includes('^FDLine_5EFO0,0^FS'));
  });
});
