import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../helpers/app.ts';
import { makeBusiness, PASSWORD } from '../helpers/factories.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { retryWorkflowOf } from '../helpers/retryWorkflow.ts';
import { waitFor } from '../helpers/wait.ts';

describe('retry schedule on the real clock', () => {
  let app: TestApp;
  before(async () => { app = await startApp({ WEBHOOK_RETRY_SCALE: '1' }); });
  after(() => app.running.close());

  test('the first retry waits what is left of 10 s after the relay\'s attempt, not 10 s from the workflow\'s start, as the workflow\'s start delay', async () => {
    const b = await makeBusiness(app.em());
    const admin = await app.login(b.users.admin.email, PASSWORD);
    const receiver = await startReceiver((n) => (n === 0 ? 500 : 200));
    try {
      await app.http.put('/v1/webhook-settings', { webhook_sign_secret: 'wait-secret-0123456789', device_order_webhook_url: receiver.url, device_order_events: 'device_order.stored' }, { token: admin });
      const res = await app.http.post('/v1/device-orders', { kind: 'delivery', device_id: b.device.code, grid_code: 'A01', reference_number: 'WAIT', due_at: new Date(Date.now() + 3600_000).toISOString() }, { token: admin });
      assert.equal(res.status, 201);
      const [delivery] = await waitFor(async () => {
        const rows = await app.em().execute<{ id: number }[]>(
          "select d.id from webhook_delivery d join outbox_event o on o.id = d.outbox_event_id where o.reference_id = ? and d.retry_workflow_id is not null", [String(res.body.device_order.id)]);
        return rows.length === 1 && rows;
      });
      const handle = await retryWorkflowOf(app, Number(delivery!.id));
      const started = (await handle.fetchHistory()).events?.[0]?.workflowExecutionStartedEventAttributes;
      const backoff = started?.firstWorkflowTaskBackoff;
      const ms = Number(backoff?.seconds ?? 0) * 1000 + Math.round((backoff?.nanos ?? 0) / 1e6);
      // The wait is the workflow's start delay; the full 10 s from the workflow's start would make it exactly 10000.
      assert.ok(ms > 0 && ms < 10_000, `start delay ${ms} ms`);
      // Operators find a delivery's workflow by its id, and the workflow shows where each of its deliveries stands.
      const found = await waitFor(async () => {
        const ids = [];
        for await (const w of app.running.temporal.workflow.list({ query: `WebhookDeliveryIds = '${delivery!.id}'` })) ids.push(w.workflowId);
        return ids.length > 0 && ids;
      });
      assert.deepEqual(found, [handle.workflowId]);
      assert.deepEqual(await handle.result(), { delivered: 1, dead: 0 });
      assert.equal(receiver.received.length, 2);
      const gap = receiver.received[1]!.at - receiver.received[0]!.at;
      assert.ok(gap >= 9_900, `attempt 2 came ${gap} ms after attempt 1`);
      assert.deepEqual(await handle.query('deliveries'), [{ deliveryId: Number(delivery!.id), state: 'delivered', attemptsMade: 2, nextAttemptAt: null }]);
    } finally {
      await receiver.close();
    }
  });
});
