// The API reference pages (docs/decisions.md, API reference pages) from the real app in Debian's headless Chromium:
// /api/docs renders the OpenAPI document with Swagger UI, /api/docs/webhooks the webhook catalog, both public, offline
// and under a Content-Security-Policy without 'unsafe-inline' or 'unsafe-eval', with nothing refused or thrown.
import assert from 'node:assert/strict';
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser.ts';
import { DOCS_CSP } from '../../api/pages/docs.ts';
import { startApp, type TestApp } from '../helpers/app.ts';

describe('API reference pages', () => {
  let app: TestApp;
  let browser: Browser;

  before(async () => {
    app = await startApp();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await app.running.close();
  });

  /**
   * A page that records what went wrong: thrown errors, console errors (Chromium reports each CSP refusal there too),
   * CSP violation events, failed requests, and any request that leaves this service.
   */
  async function open(path: string): Promise<{ page: Page; failures: string[] }> {
    const page = await browser.newPage();
    const failures: string[] = [];
    const origin = new URL(app.url).origin;
    page.on('pageerror', (err) => failures.push(`pageerror: ${err.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') failures.push(`console: ${m.text()}`);
    });
    page.on('requestfailed', (r) => failures.push(`failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
    page.on('request', (r) => {
      if (!r.url().startsWith(`${origin}/`) && !r.url().startsWith('data:'))
        failures.push(`left the service: ${r.url()}`);
    });
    page.on('response', (r) => {
      if (r.status() >= 400) failures.push(`HTTP ${r.status()}: ${r.url()}`);
    });
    await page.exposeFunction('reportViolation', (v: string) => failures.push(`CSP: ${v}`));
    // Runs in the page before its own scripts (a string: the page's globals are not this file's).
    await page.addInitScript(
      "document.addEventListener('securitypolicyviolation', (e) => reportViolation(e.violatedDirective + ' ' + e.blockedURI));",
    );
    const res = await page.goto(`${app.url}${path}`);
    assert.equal(res?.status(), 200, path);
    assert.equal(res?.headers()['content-security-policy'], DOCS_CSP);
    return { page, failures };
  }

  test('the pages and their files are public, typed, cached by version and gzipped on request', async () => {
    assert.doesNotMatch(DOCS_CSP, /unsafe-/);
    for (const path of ['/api/docs', '/api/docs/webhooks']) {
      const res = await fetch(`${app.url}${path}`);
      assert.equal(res.status, 200, `${path} needs no token`);
      assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(res.headers.get('cache-control'), 'no-cache');
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      const page = await res.text();
      for (const [, src] of page.matchAll(/(?:src|href)="(\/api\/docs\/assets\/[^"]+)"/g)) {
        const asset = await fetch(`${app.url}${src}`, { headers: { 'accept-encoding': 'identity' } });
        assert.equal(asset.status, 200, src);
        assert.match(asset.headers.get('content-type')!, src!.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
      }
    }
    const docs = await (await fetch(`${app.url}/api/docs`)).text();
    const bundle = /src="(\/api\/docs\/assets\/swagger-ui-[\d.]+\/swagger-ui-bundle\.js)"/.exec(docs)?.[1];
    assert.ok(bundle, 'the page names the bundle of the installed Swagger UI version');
    const plain = await fetch(`${app.url}${bundle}`, { headers: { 'accept-encoding': 'identity' } });
    assert.equal(plain.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(plain.headers.get('content-encoding'), null);
    const text = Buffer.from(await plain.arrayBuffer());
    // fetch would unzip it: the raw answer is read with node:http.
    const zipped = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
      http
        .get(`${app.url}${bundle}`, { headers: { 'accept-encoding': 'gzip, br' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });
    assert.equal(zipped.encoding, 'gzip');
    assert.ok(zipped.body.length < text.length / 2, `${zipped.body.length} of ${text.length} bytes`);
    assert.deepEqual(gunzipSync(zipped.body), text);
  });

  test('/api/docs lists the operations by tag with their description, roles, MCP tool, error codes and examples', async () => {
    const { page, failures } = await open('/api/docs');
    try {
      // Every family is listed, closed; a click opens one.
      const tags = page.locator('.opblock-tag');
      await page.locator('.opblock-tag', { hasText: 'Operations AI Agent' }).first().waitFor();
      assert.ok((await tags.count()) >= 20, `${await tags.count()} families listed`);
      const tag = page.locator('.opblock-tag', { hasText: 'Device Orders' }).first();
      await tag.click();
      const op = page.locator('#operations-Device_Orders-device_order_store');
      await op.waitFor();
      assert.match((await op.locator('.opblock-summary-path').textContent())!, /\/v1\/device-orders/);
      await op.locator('.opblock-summary-control').click();
      const body = op.locator('.opblock-body');
      await body.waitFor();
      const description = (await op.locator('.opblock-description-wrapper').first().textContent())!;
      assert.match(description, /Who may call it: client_admin, employee, driver/);
      assert.match(description, /MCP tool: device_order_store \(user server\); scope orders:write/);
      const conflict = op.locator('tr.response[data-code="409"]');
      assert.match((await conflict.locator('.response-col_description').textContent())!, /COMPARTMENT_OCCUPIED/);
      const created = op.locator('tr.response[data-code="201"] .example').first();
      assert.ok('pickup_code' in JSON.parse((await created.textContent())!), 'the 201 example is the answer');
      assert.deepEqual(failures, []);
    } finally {
      await page.close();
    }
  });

  test('/api/docs/webhooks shows every event with its payload schema and an example payload', async () => {
    const catalog = (await (await fetch(`${app.url}/api/asyncapi-webhooks.json`)).json()) as {
      components: { messages: Record<string, { name: string }> };
    };
    const names = Object.values(catalog.components.messages).map((m) => m.name);
    const { page, failures } = await open('/api/docs/webhooks');
    try {
      const card = page.locator('[id="event-device_order.stored"]');
      await card.waitFor();
      assert.equal(await card.locator('h3').textContent(), 'device_order.stored');
      const data = card.locator('.payload li[data-property="data"]');
      assert.match((await data.locator('li[data-property="device_order"] > .type').first().textContent())!, /object/);
      assert.equal(
        await data.locator('li[data-property="grid_code"] > .doc').textContent(),
        'Compartment code',
        'nested fields are shown with their descriptions',
      );
      const example = JSON.parse((await card.locator('.example-payload').first().textContent())!);
      assert.equal(example.event, 'device_order.stored');
      assert.ok(example.data.device_order, JSON.stringify(example));
      assert.deepEqual(
        await page.locator('section.event').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-event'))),
        names,
        'one card per event of the catalog, in its order',
      );
      assert.equal(
        await page.locator('section.event .example-payload').count(),
        names.length,
        'each event has an example payload',
      );
      assert.equal((await page.locator('section.event .payload li').count()) > names.length, true);
      await page.fill('#filter', 'device_order.');
      assert.equal(
        await page.locator('section.event:visible').count(),
        names.filter((n) => n.includes('device_order.')).length,
        'the filter narrows the events by name',
      );
      assert.deepEqual(failures, []);
    } finally {
      await page.close();
    }
  });
});
