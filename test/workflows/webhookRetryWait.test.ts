import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTemporalDevServer, type DevServer } from '../../src/launchers/temporalServer.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { freePort } from '../../src/launchers/startup.ts';
import { awaitDeviceOrderDelivery, retryWorkflowOf } from '../helpers/retryWorkflow.ts';
import { waitFor } from '../helpers/wait.ts';
import { tenantWithReceiver } from '../helpers/webhookTenant.ts';
import { deliveriesQuery } from '../../src/modules/webhooks/contract.ts';

describe('retry schedule on the real clock', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ WEBHOOK_RETRY_SCALE: '1' });
  });
  after(() => app.running.close());

  test("the first retry waits what is left of 10 s after the relay's attempt, not 10 s from the workflow's start, as the workflow's start delay", async () => {
    const { receiver, store } = await tenantWithReceiver(app, (n) => (n === 0 ? 500 : 200), 'wait-secret-0123456789');
    try {
      const delivery = await awaitDeviceOrderDelivery(
        app,
        (await store()).deviceOrderId,
        (d) => d.retry_workflow_id !== null,
      );
      const handle = await retryWorkflowOf(app, delivery.id);
      const started = (await handle.fetchHistory()).events?.[0]?.workflowExecutionStartedEventAttributes;
      const backoff = started?.firstWorkflowTaskBackoff;
      const ms = Number(backoff?.seconds ?? 0) * 1000 + Math.round((backoff?.nanos ?? 0) / 1e6);
      // The wait is the workflow's start delay; the full 10 s from the workflow's start would make it exactly 10000.
      assert.ok(ms > 0 && ms < 10_000, `start delay ${ms} ms`);
      // Operators find a delivery's workflow by its id, and the workflow shows where each of its deliveries stands.
      const found = await waitFor(async () => {
        const ids = [];
        for await (const w of app.running.temporal.workflow.list({ query: `WebhookDeliveryIds = '${delivery.id}'` }))
          ids.push(w.workflowId);
        return ids.length > 0 && ids;
      });
      assert.deepEqual(found, [handle.workflowId]);
      assert.deepEqual(await handle.result(), { delivered: 1, dead: 0 });
      assert.equal(receiver.received.length, 2);
      const gap = receiver.received[1]!.at - receiver.received[0]!.at;
      assert.ok(gap >= 9_900, `attempt 2 came ${gap} ms after attempt 1`);
      assert.deepEqual(await handle.query(deliveriesQuery), [
        { deliveryId: delivery.id, state: 'delivered', attemptsMade: 2, nextAttemptAt: null },
      ]);
    } finally {
      await receiver.close();
    }
  });
});

describe('a long-running retry workflow continues as new', () => {
  const log = createLogger('silent');
  let server: DevServer;
  let app: TestApp;
  before(async () => {
    // A server of its own that suggests continuing as new after 10 history events, so that a short schedule crosses it.
    server = await startTemporalDevServer(
      {
        port: await freePort(),
        uiPort: 0,
        namespace: process.env.TEMPORAL_NAMESPACE ?? 'default',
        headless: true,
        dynamicConfig: ['limit.historyCount.suggestContinueAsNew=10'],
      },
      log,
    );
    app = await startApp({ TEMPORAL_ADDRESS: server.address, WEBHOOK_RETRY_SCALE: '0.01' });
  });
  after(async () => {
    await app?.running.close();
    await server?.stop();
  });

  // Would fail if the workflow ignored the suggestion (one run), lost a delivery's schedule on the way (never
  // delivered, or attempts made again from 1), or dropped what it had counted.
  test('the deliveries keep their attempts and schedules across runs; the last run reports them', async () => {
    const { receiver, store } = await tenantWithReceiver(app, (n) => (n < 3 ? 500 : 200), 'continue-secret-0123456789');
    try {
      const delivery = await awaitDeviceOrderDelivery(
        app,
        (await store()).deviceOrderId,
        (d) => d.status === 'delivered',
        60_000,
      );
      assert.equal(
        delivery.attempts,
        4,
        'refused three times (then waits of 0.1, 1 and 10 s), delivered on the fourth',
      );
      const handle = await retryWorkflowOf(app, delivery.id);
      assert.deepEqual(await handle.result(), { delivered: 1, dead: 0 });
      const runs = [];
      for await (const w of app.running.temporal.workflow.list({ query: `WorkflowId = '${handle.workflowId}'` }))
        runs.push(w.status.name);
      assert.ok(runs.includes('CONTINUED_AS_NEW') && runs.includes('COMPLETED'), `runs: ${runs.join(', ')}`);
    } finally {
      await receiver.close();
    }
  });
});
