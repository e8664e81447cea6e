// A dry run rolls a call's own writes back, but not the counts that guard the service (docs/mcp.md, Dry runs): a
// preview answers whether a pickup code was right, so its wrong codes must count toward the lock, and its calls
// toward the rate limits, or previews would be a free way to try every code and to get around a limit.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../helpers/app.ts';
import { keepEvents, makeBusiness, PASSWORD } from '../helpers/factories.ts';

describe('what a dry run still counts', () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let admin: string;

  before(async () => {
    app = await startApp({ RATE_LIMIT_WEBHOOK_TEST: '3/600' });
    b = await makeBusiness(app.em());
    await keepEvents(app.em(), b.business.id);
    admin = await app.login(b.users.admin.email, PASSWORD);
  });
  after(() => app.running.close());

  /** A tool call under X-MCP-Dry-Run: 1, answered as the tool's text: a preview or an error body. */
  async function preview(path: string, token: string, name: string, args: Record<string, unknown>) {
    const res = await fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
        'x-mcp-dry-run': '1',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
    });
    const body = (await res.json()) as { result: { content: { text: string }[] } };
    return JSON.parse(body.result.content[0]!.text) as { dry_run?: true; code?: string };
  }

  test('wrong pickup codes under a dry run lock the parcel as real ones do', async () => {
    const customer = await app.login(b.users.customer.email, PASSWORD);
    const stored = await app.http.post(
      '/v1/device-orders',
      {
        kind: 'delivery',
        device_id: b.device.code,
        grid_code: 'A01',
        reference_number: 'DRY-CODES',
        due_at: new Date(Date.now() + 3_600_000).toISOString(),
      },
      { token: admin },
    );
    assert.equal(stored.status, 201, JSON.stringify(stored.body));
    const { id } = stored.body.device_order;
    const code: string = stored.body.pickup_code;
    const wrong = (n: number) => String((Number(code) + n) % 1_000_000).padStart(code.length, '0');
    const answers = [];
    for (let n = 1; n <= 6; n++)
      answers.push((await preview('/mcp', customer, 'device_order_collect', { id, pickup_code: wrong(n) })).code);
    assert.deepEqual(answers, [
      'VALIDATION_FAILED',
      'VALIDATION_FAILED',
      'VALIDATION_FAILED',
      'VALIDATION_FAILED',
      'TOO_MANY_ATTEMPTS',
      'TOO_MANY_ATTEMPTS',
    ]);
    const right = await preview('/mcp', customer, 'device_order_collect', { id, pickup_code: code });
    assert.equal(right.code, 'TOO_MANY_ATTEMPTS', 'during the lock even the right code is refused, previewed or not');
    const real = await app.http.post(`/v1/device-orders/${id}/collect`, { pickup_code: code }, { token: customer });
    assert.equal(real.status, 429, 'the lock a dry run earned holds for real calls too');
  });

  test('dry-run calls count against the rate limits', async () => {
    const set = await app.http.put(
      '/v1/webhook-settings',
      { webhook_sign_secret: 'dry-run-secret-0123456789', device_order_webhook_url: 'https://example.com/hooks/dry' },
      { token: admin },
    );
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const answers = [];
    for (let n = 0; n < 4; n++)
      answers.push((await preview('/mcp/developer', admin, 'test_webhook_delivery', {})).code ?? 'preview');
    assert.deepEqual(answers, ['preview', 'preview', 'preview', 'RATE_LIMITED']);
  });
});
