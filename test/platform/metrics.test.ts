import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../helpers/app.ts';
import { waitFor } from '../helpers/wait.ts';
import { tenantWithReceiver } from '../helpers/webhookTenant.ts';

/** One sample of the scrape: the value of `name` with exactly these labels (in any order), or 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return 0;
}

describe('GET /metrics (Prometheus text)', () => {
  let app: TestApp;
  let url: string;
  const scrape = async () => {
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    return res.text();
  };

  before(async () => {
    app = await startApp({ METRICS_PORT: '0', LOCKER_TIMER_SCALE: '0.0005' });
    url = app.running.metrics!.url;
  });
  after(() => app.running.close());

  test('requests by operation, webhook attempts by outcome, workflow starts, relay lag, and the outbox gauges', async () => {
    const before = await scrape();
    const tenant = await tenantWithReceiver(app, () => 200, 'metrics-secret-0123456789abcdef');
    await tenant.store();
    await waitFor(async () => tenant.receiver.received.length === 1);
    await app.http.get('/nowhere');

    const text = await waitFor(async () => {
      const t = await scrape();
      return sample(t, 'tms_webhook_attempts_total', { outcome: 'delivered', kind: 'first' }) >
        sample(before, 'tms_webhook_attempts_total', { outcome: 'delivered', kind: 'first' })
        ? t
        : null;
    });
    const count = (t: string, labels: Record<string, string>) =>
      sample(t, 'tms_http_request_duration_seconds_count', labels);
    assert.equal(
      count(text, { operation: 'device_order_store', method: 'POST', status: '201' }) -
        count(before, { operation: 'device_order_store', method: 'POST', status: '201' }),
      1,
    );
    assert.ok(
      count(text, { operation: 'user_login', method: 'POST', status: '200' }) >= 1,
      'sign-in is counted under its operation',
    );
    assert.ok(
      count(text, { operation: 'unmatched', method: 'GET', status: '404' }) >= 1,
      'an unknown path is counted without its path as a label',
    );
    const starts = (t: string) =>
      sample(t, 'tms_workflow_starts_total', { workflow_type: 'deviceOrderWorkflow', result: 'started' });
    assert.equal(starts(text) - starts(before), 1);
    assert.ok(
      sample(text, 'tms_outbox_relay_lag_seconds_count') > sample(before, 'tms_outbox_relay_lag_seconds_count'),
    );
    assert.match(text, /^tms_outbox_backlog_events \d+$/m);
    assert.match(text, /^tms_outbox_oldest_pending_seconds [\d.e+-]+$/m);
    assert.match(text, /^tms_webhook_deliveries_undriven \d+$/m);
    assert.match(text, /^tms_process_nodejs_eventloop_lag_seconds /m);
    await tenant.receiver.close();
  });

  test('only GET /metrics is served there', async () => {
    assert.equal((await fetch(url, { method: 'POST' })).status, 405);
    assert.equal((await fetch(url.replace('/metrics', '/other'))).status, 404);
  });

  test('a finished workflow is counted by type and outcome', async () => {
    const tenant = await tenantWithReceiver(app, () => 200, 'metrics-secret-0123456789abcdef');
    after(() => tenant.receiver.close());
    const before = await scrape();
    const { deviceOrderId } = await tenant.store();
    assert.equal(
      (
        await app.http.post(
          `/v1/device-orders/${deviceOrderId}/remove`,
          { removal_reason: 'handover' },
          { token: tenant.admin },
        )
      ).status,
      200,
    );
    const done = (t: string) =>
      sample(t, 'tms_workflow_results_total', { workflow_type: 'deviceOrderWorkflow', outcome: 'completed' });
    const activities = (t: string) =>
      sample(t, 'tms_activity_results_total', { activity_type: 'applyDeviceOrderTransition', outcome: 'completed' });
    const scraped = await waitFor(async () => {
      const t = await scrape();
      return done(t) > done(before) ? t : null;
    });
    assert.equal(done(scraped) - done(before), 1);
    assert.ok(activities(scraped) > activities(before));
  });
});
