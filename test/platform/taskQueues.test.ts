// Each contract names its task queue; WORKER_QUEUES picks the queues a worker process serves, so webhook deliveries
// scale apart from the parcel processes. Two processes, each serving one queue, together run the whole service.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { servedQueues } from '../../src/main/bootstrap.ts';
import { DEVICE_ORDER_QUEUE } from '../../src/modules/device-orders/contract.ts';
import { TASK_QUEUES } from '../../src/modules/index.ts';
import { ROUTES_QUEUE } from '../../src/modules/routes/contract.ts';
import { WEBHOOK_QUEUE } from '../../src/modules/webhooks/contract.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { waitFor } from '../helpers/wait.ts';
import { tenantWithReceiver } from '../helpers/webhookTenant.ts';

describe('task queues: a worker per queue group', () => {
  let processes: TestApp;
  let webhooks: TestApp | undefined;

  before(async () => {
    // The parcel processes' worker serves the route builds too, as docker-compose.yml's `worker` does.
    processes = await startApp({ WORKER_QUEUES: `${DEVICE_ORDER_QUEUE},${ROUTES_QUEUE}` });
  });
  after(async () => {
    await webhooks?.running.close();
    await processes.running.close();
  });

  const pollers = async (app: TestApp, queue: string) =>
    (
      await app.running.temporal.workflowService.describeTaskQueue({
        namespace: app.config.temporalNamespace,
        taskQueue: { name: queue },
        taskQueueType: 1,
      })
    ).pollers?.length ?? 0;

  test('the contracts name three queues, and a name no module runs on is refused', () => {
    assert.deepEqual([...TASK_QUEUES].sort(), ['tms', 'tms-routes', 'tms-webhooks']);
    assert.deepEqual(servedQueues({ workerQueues: null }), [...TASK_QUEUES]);
    assert.throws(() => servedQueues({ workerQueues: ['tms', 'tms-webhook'] }), /tms-webhook, which no module runs on/);
  });

  test('a worker of the parcel queue alone runs the processes, not the webhooks; a webhook worker beside it delivers', async () => {
    assert.equal(await pollers(processes, WEBHOOK_QUEUE), 0);
    assert.ok((await pollers(processes, DEVICE_ORDER_QUEUE)) > 0);
    const health = await processes.http.get('/health');
    assert.equal(health.status, 503);
    assert.equal(health.body.checks.worker, 'down', 'a queue nobody polls makes the service unhealthy');

    const tenant = await tenantWithReceiver(processes, () => 200, 'queues-secret-0123456789abcdef');
    try {
      const { deviceOrderId, eventId } = await tenant.store();
      // The device order's process runs on the parcel queue...
      await waitFor(
        async () =>
          (await processes.http.get(`/v1/device-orders/${deviceOrderId}`, { token: tenant.admin })).body.device_order
            ?.status === 'stored',
      );
      // ...while its webhook waits: the outbox relay runs only beside the webhook queue.
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(tenant.receiver.received.length, 0);

      webhooks = await startApp({ WORKER_QUEUES: WEBHOOK_QUEUE }, { api: false });
      await waitFor(async () => tenant.receiver.received.length === 1);
      assert.equal(JSON.parse(tenant.receiver.received[0]!.body).event_id, eventId);
      assert.ok((await pollers(processes, WEBHOOK_QUEUE)) > 0);
      await waitFor(async () => (await processes.http.get('/health')).status === 200);
    } finally {
      await tenant.receiver.close();
    }
  });
});
