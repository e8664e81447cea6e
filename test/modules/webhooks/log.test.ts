import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { WEBHOOK_LOG_PRUNE_SCHEDULE } from '../../../src/modules/webhooks/contract.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, PASSWORD } from '../../helpers/factories.ts';
import { startReceiver } from '../../helpers/receiver.ts';
import { retryWorkflowOf } from '../../helpers/retryWorkflow.ts';
import { waitFor } from '../../helpers/wait.ts';

const SECRET = 'log-secret-0123456789abcdef';

describe('webhook delivery log: list, read, replay, resend, prune', () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let admin: string;
  let otherAdmin: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let grid = 0;

  /** Stores a device order and answers the id of the delivery of its stored event. */
  const storeAndDelivery = async (): Promise<{ id: number; orderId: number }> => {
    const res = await app.http.post(
      '/v1/device-orders',
      {
        kind: 'delivery',
        device_id: b.device.code,
        grid_code: ['A01', 'A02', 'A03', 'A04'][grid++ % 4],
        reference_number: 'LOG-1',
        due_at: new Date(Date.now() + 3600_000).toISOString(),
      },
      { token: admin },
    );
    assert.equal(res.status, 201);
    const orderId = res.body.device_order.id as number;
    const list = await waitFor(async () => {
      const r = await app.http.get(
        `/v1/webhook-deliveries?reference_type=device_order&reference_id=${orderId}&event=device_order.stored`,
        { token: admin },
      );
      return r.body.deliveries?.length === 1 && r;
    });
    // Frees the compartment for the next store; removals are not delivered (device_order_events).
    assert.equal(
      (await app.http.post(`/v1/device-orders/${orderId}/remove`, { removal_reason: 'deleted' }, { token: admin }))
        .status,
      200,
    );
    return { id: list.body.deliveries[0].id, orderId };
  };
  const delivery = (id: number) => app.http.get(`/v1/webhook-deliveries/${id}`, { token: admin });
  const settled = (id: number, status: string) =>
    waitFor(async () => {
      const r = await delivery(id);
      return r.body.delivery.status === status && r.body.delivery;
    }, 60_000);

  before(async () => {
    app = await startApp({ WEBHOOK_RETRY_SCALE: '0.001' });
    b = await makeBusiness(app.em());
    admin = await app.login(b.users.admin.email, PASSWORD);
    otherAdmin = await app.login((await makeBusiness(app.em())).users.admin.email, PASSWORD);
    receiver = await startReceiver(() => 500);
    await app.http.put(
      '/v1/webhook-settings',
      {
        webhook_sign_secret: SECRET,
        device_order_webhook_url: receiver.url,
        device_order_events: 'device_order.stored',
      },
      { token: admin },
    );
  });
  after(async () => {
    await receiver.close();
    await app.running.close();
  });

  test('a dead letter is listed and readable attempt by attempt, then resent by filter with the same ids', async () => {
    receiver.behave(() => 500);
    const { id, orderId } = await storeAndDelivery();
    const dead = await settled(id, 'dead');
    assert.equal(dead.attempts, 5);
    assert.match(dead.retry_workflow_id, /^webhook-retries-\d+-[0-9a-f]{12}$/);
    assert.deepEqual(
      dead.attempt_log.map((a: { attempt: number; response_status: number }) => [a.attempt, a.response_status]),
      [
        [1, 500],
        [2, 500],
        [3, 500],
        [4, 500],
        [5, 500],
      ],
    );
    for (const a of dead.attempt_log) {
      assert.equal(a.request_headers['x-webhook-event-id'], dead.webhook_event_id);
      assert.ok(
        !('signature' in a.request_headers) && !('x-webhook-signature-v2' in a.request_headers),
        'no signature in the log',
      );
      assert.match(a.body_sha256, /^[0-9a-f]{64}$/);
    }
    assert.ok(!JSON.stringify(dead).includes(SECRET));

    const listed = await app.http.get('/v1/webhook-deliveries?status=dead&event=device_order.stored', { token: admin });
    assert.ok(listed.body.deliveries.some((d: { id: number }) => d.id === id));
    assert.equal(
      (await app.http.get(`/v1/webhook-deliveries/${id}`, { token: otherAdmin })).status,
      404,
      'another business cannot read it',
    );
    assert.ok(
      !(await app.http.get('/v1/webhook-deliveries', { token: otherAdmin })).body.deliveries.some(
        (d: { id: number }) => d.id === id,
      ),
    );

    receiver.behave(() => 200);
    const before = receiver.received.length;
    const resend = await app.http.post(
      '/v1/webhook-deliveries/resend',
      { event: 'device_order.stored', reference_type: 'device_order', reference_id: String(orderId) },
      { token: admin },
    );
    assert.equal(resend.status, 202);
    assert.deepEqual(resend.body, { result: true, resent: 1, delivery_ids: [id], more: false });
    const delivered = await settled(id, 'delivered');
    assert.equal(delivered.round, 1);
    assert.equal(delivered.attempts, 6);
    const again = receiver.received.slice(before);
    assert.equal(again.length, 1);
    assert.equal(again[0]!.headers['x-webhook-event-id'], dead.webhook_event_id, 'the resend keeps X-Webhook-Event-Id');
    const resentBy = await retryWorkflowOf(app, id);
    assert.deepEqual(await resentBy.result(), { delivered: 1, dead: 0 });
    assert.notEqual(resentBy.workflowId, dead.retry_workflow_id, 'the resent round has a workflow of its own');
    assert.equal(delivered.retry_workflow_id, resentBy.workflowId, 'the API names the workflow');

    const nothing = await app.http.post(
      '/v1/webhook-deliveries/resend',
      { event: 'device_order.stored', reference_type: 'device_order', reference_id: String(orderId) },
      { token: admin },
    );
    assert.equal(nothing.body.resent, 0, 'a delivered delivery is not a dead letter');
  });

  test('replay sends a delivered delivery again on a new round; an open one answers 409; another business gets 404', async () => {
    receiver.behave(() => 200);
    const { id } = await storeAndDelivery();
    const first = await settled(id, 'delivered');
    assert.equal((await app.http.post(`/v1/webhook-deliveries/${id}/replay`, {}, { token: otherAdmin })).status, 404);
    const replay = await app.http.post(`/v1/webhook-deliveries/${id}/replay`, {}, { token: admin });
    assert.equal(replay.status, 202);
    assert.equal(replay.body.delivery.status, 'retrying');
    assert.equal(replay.body.delivery.round, 1);
    const done = await settled(id, 'delivered');
    assert.deepEqual(
      done.attempt_log.map((a: { attempt: number }) => a.attempt),
      [1, 2],
    );
    assert.equal(done.webhook_event_id, first.webhook_event_id);

    receiver.behave(() => 500);
    const open = await storeAndDelivery();
    await waitFor(async () => (await delivery(open.id)).body.delivery.status === 'retrying');
    const busy = await app.http.post(`/v1/webhook-deliveries/${open.id}/replay`, {}, { token: admin, lang: 'de' });
    assert.equal(busy.status, 409);
    assert.equal(busy.body.code, 'DELIVERY_IN_PROGRESS');
    assert.match(busy.body.message, /Zustellung/);
    await settled(open.id, 'dead');
  });

  test('resend needs ids or a filter, and a time range in order', async () => {
    const empty = await app.http.post('/v1/webhook-deliveries/resend', {}, { token: admin });
    assert.equal(empty.status, 422);
    assert.equal(empty.body.errors[0].field, 'delivery_ids');
    const reversed = await app.http.get('/v1/webhook-deliveries?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z', {
      token: admin,
    });
    assert.equal(reversed.status, 422);
    assert.equal(reversed.body.errors[0].field, 'to');
    const employee = await app.http.get('/v1/webhook-deliveries', {
      token: await app.login(b.users.employee.email, PASSWORD),
    });
    assert.equal(employee.status, 403);
  });

  test('the daily Temporal Schedule prunes what is older than 90 days and keeps the rest', async () => {
    receiver.behave(() => 200);
    const old = await storeAndDelivery();
    const fresh = await storeAndDelivery();
    await settled(old.id, 'delivered');
    await settled(fresh.id, 'delivered');
    const em = app.em();
    await em.execute(
      "update webhook_delivery set created_at = now() - interval '91 days', updated_at = now() - interval '91 days' where id = ?",
      [old.id],
    );
    await em.execute("update webhook_attempt set attempted_at = now() - interval '91 days' where delivery_id = ?", [
      old.id,
    ]);
    const [{ outbox_event_id: oldEvent }] = (await em.execute<{ outbox_event_id: number }[]>(
      'select outbox_event_id from webhook_delivery where id = ?',
      [old.id],
    )) as [{ outbox_event_id: number }];
    await em.execute("update outbox_event set published_at = now() - interval '91 days' where id = ?", [oldEvent]);

    const schedule = app.running.temporal.schedule.getHandle(WEBHOOK_LOG_PRUNE_SCHEDULE);
    const described = await schedule.describe();
    assert.deepEqual(described.spec.calendars?.[0]?.hour, [{ start: 3, end: 3, step: 1 }]);
    await schedule.trigger();
    await waitFor(async () => (await delivery(old.id)).status === 404, 30_000);
    assert.equal((await delivery(fresh.id)).status, 200, 'a young delivery stays');
    const [left] = await em.execute<{ n: number }[]>(
      'select (select count(*) from webhook_attempt where delivery_id = ?)::int + (select count(*) from outbox_event where id = ?)::int as n',
      [old.id, oldEvent],
    );
    assert.equal(left!.n, 0, 'its attempts and its published event are gone too');
  });
});
