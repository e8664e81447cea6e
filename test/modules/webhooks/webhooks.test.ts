import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import { HTTP, type CloudEvent } from 'cloudevents';
import { Webhook } from 'standardwebhooks';
import { eventDefinition } from '../../helpers/events.ts';
import { standardWebhooksKey } from '../../../src/modules/webhooks/signing.ts';
import { verifyWebhook } from '../../../src/modules/webhooks/verify.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, PASSWORD } from '../../helpers/factories.ts';
import { startReceiver } from '../../helpers/receiver.ts';
import { retryWorkflowOf } from '../../helpers/retryWorkflow.ts';
import { waitFor } from '../../helpers/wait.ts';

const SECRET = 'test-secret-0123456789abcdef';
const hex = (data: string) => createHmac('sha256', SECRET).update(data).digest('hex');

describe('webhook settings and tenant delivery', () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let admin: string;
  let grid = 0;
  const store = () =>
    app.http.post(
      '/v1/device-orders',
      {
        kind: 'delivery',
        device_id: b.device.code,
        grid_code: ['A01', 'A02', 'A03', 'A04'][grid++ % 4],
        reference_number: 'WH-1',
        due_at: new Date(Date.now() + 3600_000).toISOString(),
      },
      { token: admin },
    );
  const deliveries = (eventId: string) =>
    app
      .em()
      .execute<{ id: number; status: string; attempts: number; delivery_key: string }[]>(
        'select id, status, attempts, delivery_key from webhook_delivery where event_id = ? order by id',
        [eventId],
      );
  const attempts = (deliveryId: number) =>
    app.em().execute<
      {
        attempt: number;
        response_status: number | null;
        error: string | null;
        request_headers: Record<string, string>;
      }[]
    >('select attempt, response_status, error, request_headers from webhook_attempt where delivery_id = ? order by attempt', [deliveryId]);
  const storedEventId = async (deviceOrderId: number) =>
    (
      await app
        .em()
        .execute<{ event_id: string }[]>(
          "select event_id from outbox_event where reference_type = 'device_order' and reference_id = ? order by id limit 1",
          [String(deviceOrderId)],
        )
    )[0]!.event_id;

  before(async () => {
    app = await startApp({ WEBHOOK_RETRY_SCALE: '0.001' });
    b = await makeBusiness(app.em());
    admin = await app.login(b.users.admin.email, PASSWORD);
  });
  after(() => app.running.close());

  test('settings: partial update, the secret never echoed, bad values answer 422 naming the field', async () => {
    const put = await app.http.put(
      '/v1/webhook-settings',
      { webhook_sign_secret: SECRET, device_order_webhook_url: 'https://a.example/hook, https://b.example/hook' },
      { token: admin },
    );
    assert.equal(put.status, 200);
    assert.equal(put.body.settings.webhook_sign_secret, '…cdef');
    assert.equal(put.body.settings.device_order_webhook_url, 'https://a.example/hook,https://b.example/hook');
    assert.ok(!JSON.stringify(put.body).includes(SECRET));
    const partial = await app.http.put(
      '/v1/webhook-settings',
      { order_status_change_webhook_url: 'https://c.example/x' },
      { token: admin },
    );
    assert.equal(
      partial.body.settings.device_order_webhook_url,
      'https://a.example/hook,https://b.example/hook',
      'left-out fields keep their value',
    );
    const read = await app.http.get('/v1/webhook-settings', { token: admin });
    assert.equal(read.body.settings.order_status_change_webhook_url, 'https://c.example/x');
    assert.ok(!JSON.stringify(read.body).includes(SECRET));

    const bad = await app.http.put(
      '/v1/webhook-settings',
      {
        webhook_sign_secret: 'short',
        device_order_webhook_url: 'ftp://x',
        device_order_events: 'device_order.stored,device_order.exploded',
      },
      { token: admin, lang: 'fr' },
    );
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.errors.map((e: { field: string }) => e.field).sort(), [
      'device_order_events',
      'device_order_webhook_url',
      'webhook_sign_secret',
    ]);
    assert.ok(
      bad.body.errors.some((e: { message: string }) => e.message === 'Événement inconnu : device_order.exploded.'),
    );
    const employee = await app.http.get('/v1/webhook-settings', {
      token: await app.login(b.users.employee.email, PASSWORD),
    });
    assert.equal(employee.status, 403);
    const foreignCustomer = await app.http.get('/v1/webhook-settings?customer_id=1', { token: admin });
    assert.equal(foreignCustomer.status, 422);
    await app.http.put(
      '/v1/webhook-settings',
      { device_order_webhook_url: null, order_status_change_webhook_url: '' },
      { token: admin },
    );
    const cleared = await app.http.get('/v1/webhook-settings', { token: admin });
    assert.equal(cleared.body.settings.device_order_webhook_url, null);
  });

  test('a device order event reaches the receiver signed; a failing receiver gets retries with the same ids', async () => {
    const receiver = await startReceiver((n) => (n < 2 ? 500 : 200));
    try {
      await app.http.put(
        '/v1/webhook-settings',
        { webhook_sign_secret: SECRET, device_order_webhook_url: receiver.url },
        { token: admin },
      );
      const res = await store();
      assert.equal(res.status, 201);
      const eventId = await storedEventId(res.body.device_order.id);
      await waitFor(async () => receiver.received.length >= 3);
      const [delivery] = await waitFor(async () => {
        const d = await deliveries(eventId);
        return d[0]?.status === 'delivered' && d;
      });
      assert.equal(delivery!.attempts, 3);
      for (const r of receiver.received) {
        assert.equal(r.headers['x-webhook-event-id'], delivery!.delivery_key, 'X-Webhook-Event-Id never changes');
        assert.equal(JSON.parse(r.body).event_id, eventId);
        assert.equal(r.headers.signature, hex(r.body));
        assert.equal(r.headers['x-webhook-signature-v2'], hex(`${r.headers['x-webhook-timestamp']}.${r.body}`));
        assert.ok(
          Math.abs(Number(r.headers['x-webhook-timestamp']) - r.at / 1000) < 5,
          'signed at the attempt, not at the event',
        );
        assert.ok(!r.body.includes('pickup'), 'no pickup code');
      }
      assert.equal(new Set(receiver.received.map((r) => r.body)).size, 1, 'the body is the same on every retry');
      const log = await attempts(delivery!.id);
      assert.deepEqual(
        log.map((a) => [a.attempt, a.response_status]),
        [
          [1, 500],
          [2, 500],
          [3, 200],
        ],
      );
      assert.ok(!JSON.stringify(log).includes(SECRET));
      assert.ok(log.every((a) => !('signature' in a.request_headers)));
      assert.deepEqual(await (await retryWorkflowOf(app, delivery!.id)).result(), { delivered: 1, dead: 0 });
    } finally {
      await receiver.close();
    }
  });

  test('a receiver that hangs past 3 s fails that attempt; one that never succeeds is dead-lettered after 5 attempts', async () => {
    const receiver = await startReceiver((n) => (n === 0 ? 'hang' : 500));
    try {
      await app.http.put(
        '/v1/webhook-settings',
        { webhook_sign_secret: SECRET, device_order_webhook_url: receiver.url },
        { token: admin },
      );
      const res = await store();
      const eventId = await storedEventId(res.body.device_order.id);
      const [delivery] = await waitFor(async () => {
        const d = await deliveries(eventId);
        return d[0]?.status === 'dead' && d;
      }, 60_000);
      assert.equal(delivery!.attempts, 5);
      const log = await attempts(delivery!.id);
      assert.equal(log.length, 5);
      assert.match(log[0]!.error!, /3000 ms/);
      assert.deepEqual(
        log.slice(1).map((a) => a.response_status),
        [500, 500, 500, 500],
      );
    } finally {
      await receiver.close();
    }
  });

  test('formats per URL: CloudEvents binary and structured (read by the CloudEvents SDK) and Standard Webhooks (checked by its library)', async () => {
    const receiver = await startReceiver(() => 204);
    try {
      const [binary, structured, native] = ['/binary', '/structured', '/native'].map((p) => receiver.url + p);
      await app.http.put(
        '/v1/webhook-settings',
        {
          webhook_sign_secret: SECRET,
          device_order_webhook_url: [binary, structured, native].join(','),
          url_formats: {
            [binary!]: { format: 'ce_binary', standard_webhooks: true },
            [structured!]: { format: 'ce_structured', standard_webhooks: false },
          },
        },
        { token: admin },
      );
      const res = await store();
      const eventId = await storedEventId(res.body.device_order.id);
      await waitFor(async () => receiver.received.length >= 3);
      // The relay writes a batch's deliveries after its first attempts, so the rows may land just after the POSTs.
      const delivered = await waitFor(async () => {
        const d = await deliveries(eventId);
        return d.length >= 3 && d;
      });
      assert.equal(delivered.length, 3);
      const bin = receiver.received.find((r) => r.headers['ce-specversion'])!;
      const str = receiver.received.find((r) => r.headers['content-type'] === 'application/cloudevents+json')!;
      const nat = receiver.received.find((r) => r !== bin && r !== str)!;

      const binEvent = HTTP.toEvent({ headers: bin.headers, body: bin.body }) as CloudEvent<any>;
      assert.ok(binEvent.validate());
      assert.equal(binEvent.id, eventId, 'ce-id is the body event_id');
      assert.equal(binEvent.type, 'org.opentms.device_order.stored');
      assert.equal(binEvent.subject, `device_order/${res.body.device_order.id}`);
      assert.equal(binEvent.tmsbusiness, String(b.business.id));
      assert.equal(binEvent.tmsattempt, '1');
      assert.equal(binEvent.data.event_id, eventId);
      assert.equal(bin.headers.signature, hex(bin.body), 'native signatures cover the binary body');
      assert.equal(bin.headers['webhook-id'], eventId);
      new Webhook(standardWebhooksKey(SECRET)).verify(bin.body, bin.headers);
      assert.deepEqual(
        verifyWebhook({ sender: 'standard_webhooks', secret: SECRET, headers: bin.headers, rawBody: bin.body }),
        { valid: true },
      );

      const strEvent = HTTP.toEvent({ headers: str.headers, body: str.body }) as CloudEvent<any>;
      assert.ok(strEvent.validate());
      assert.equal(strEvent.id, eventId);
      assert.equal(strEvent.data.data.device_order.id, res.body.device_order.id);
      assert.equal(strEvent.tmsattempt, undefined, 'the structured body is identical on every retry');
      assert.equal(str.headers.signature, hex(str.body), 'native signatures cover the structured body');
      assert.equal(str.headers['webhook-id'], undefined, 'no Standard Webhooks headers where not asked');

      assert.equal(nat.headers['content-type'], 'application/json');
      assert.equal(nat.headers['ce-id'], undefined);
      assert.deepEqual(verifyWebhook({ sender: 'tenant', secret: SECRET, headers: nat.headers, rawBody: nat.body }), {
        valid: true,
      });
      assert.equal(
        verifyWebhook({
          sender: 'tenant',
          secret: SECRET,
          headers: nat.headers,
          rawBody: nat.body.replace('WH-1', 'WH-2'),
        }).valid,
        false,
      );
    } finally {
      await receiver.close();
    }
  });

  test('a restriction in device_order_events keeps other device order events away', async () => {
    const receiver = await startReceiver(() => 200);
    try {
      await app.http.put(
        '/v1/webhook-settings',
        {
          webhook_sign_secret: SECRET,
          device_order_webhook_url: receiver.url,
          url_formats: null,
          device_order_events: 'device_order.removed',
        },
        { token: admin },
      );
      const res = await store();
      await app.http.post(
        `/v1/device-orders/${res.body.device_order.id}/remove`,
        { removal_reason: 'anomaly' },
        { token: admin },
      );
      await waitFor(async () => receiver.received.length >= 1);
      const [stored] = await app
        .em()
        .execute<{ n: number }[]>(
          "select count(*)::int as n from webhook_delivery d join outbox_event o on o.id = d.outbox_event_id where o.reference_id = ? and d.event_type = 'device_order.stored'",
          [String(res.body.device_order.id)],
        );
      assert.equal(stored!.n, 0);
      assert.equal(JSON.parse(receiver.received[0]!.body).event, 'device_order.removed');
    } finally {
      await app.http.put('/v1/webhook-settings', { device_order_events: null }, { token: admin });
      await receiver.close();
    }
  });

  test('track_event_webhook_url is accepted as the other spelling of tracking_event_webhook_url', async () => {
    const res = await app.http.put(
      '/v1/webhook-settings',
      { track_event_webhook_url: 'https://t.example/track' },
      { token: admin },
    );
    assert.equal(res.status, 200);
    assert.equal(res.body.settings.tracking_event_webhook_url, 'https://t.example/track');
    await app.http.put('/v1/webhook-settings', { tracking_event_webhook_url: null }, { token: admin });
  });

  test('a customer override receives the events of its customer; the merchant receives every event', async () => {
    const merchant = await startReceiver(() => 200);
    const customer = await startReceiver(() => 200);
    try {
      await app.http.put(
        '/v1/webhook-settings',
        { webhook_sign_secret: SECRET, device_order_webhook_url: merchant.url, url_formats: null },
        { token: admin },
      );
      const override = await app.http.put(
        '/v1/webhook-settings',
        {
          customer_id: b.users.customer.id,
          webhook_sign_secret: `${SECRET}-c`,
          device_order_webhook_url: customer.url,
        },
        { token: admin },
      );
      assert.equal(override.status, 200);
      assert.equal(override.body.settings.customer_id, b.users.customer.id);
      // No producer names a customer yet: write the two events the way one will, straight into the outbox.
      for (const [eventId, customerId] of [
        ['CUST-1', b.users.customer.id],
        ['CUST-2', null],
      ] as const) {
        await app.em().execute(
          `insert into outbox_event (business_id, customer_id, event_id, event_type, reference_type, reference_id, payload)
           values (?, ?, ?, 'device_order.stored', 'device_order', '0', ?::jsonb)`,
          [
            b.business.id,
            customerId,
            `${eventId}-${b.tag}`,
            JSON.stringify({ event_id: `${eventId}-${b.tag}`, event: 'device_order.stored' }),
          ],
        );
      }
      await waitFor(async () => merchant.received.length >= 2 && customer.received.length >= 1);
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(merchant.received.map((r) => JSON.parse(r.body).event_id).sort(), [
        `CUST-1-${b.tag}`,
        `CUST-2-${b.tag}`,
      ]);
      assert.deepEqual(
        customer.received.map((r) => JSON.parse(r.body).event_id),
        [`CUST-1-${b.tag}`],
      );
      assert.deepEqual(
        verifyWebhook({
          sender: 'tenant',
          secret: `${SECRET}-c`,
          headers: customer.received[0]!.headers,
          rawBody: customer.received[0]!.body,
        }),
        { valid: true },
      );
    } finally {
      await merchant.close();
      await customer.close();
    }
  });

  test('creating an order produces order.created, signed, once, shaped as the catalog says, with a history row', async () => {
    const receiver = await startReceiver(() => 200);
    try {
      await app.http.put(
        '/v1/webhook-settings',
        { webhook_sign_secret: SECRET, order_create_webhook_url: receiver.url, url_formats: null },
        { token: admin },
      );
      const created = await app.http.post(
        '/v1/client/orderCreate',
        {
          type: 'D',
          scheduled_date: '2026-12-24',
          order_ref: `WH-${b.tag}`,
          recipient: {
            name: 'Private Person',
            phone: '+33 1 23 45 67 89',
            address: { line1: '2 Rue X', city: 'Lyon', postal_code: '69001', country: 'fr' },
          },
        },
        { token: admin },
      );
      assert.equal(created.status, 200);
      const got = await waitFor(async () => receiver.received.find((r) => r.body.includes('order.created')));
      assert.deepEqual(verifyWebhook({ sender: 'tenant', headers: got.headers, rawBody: got.body, secret: SECRET }), {
        valid: true,
      });
      const event = JSON.parse(got.body) as { event_id: string; data: { order: unknown } };
      assert.ok(
        new Ajv({ strict: false }).compile(eventDefinition('order.created')!.payload)(event),
        'matches the catalog',
      );
      assert.equal(event.event_id, `ORC-${created.body.order_id}`);
      assert.deepEqual(event.data.order, {
        id: created.body.order_id,
        order_ref: `WH-${b.tag}`,
        tracking_number: created.body.tracking_number,
        type: 'D',
        status_id: 1,
        status: 'NEW_ORDER',
      });
      assert.ok(
        !got.body.includes('Private Person') && !got.body.includes('45 67'),
        'no recipient details in the event',
      );
      const history = await app
        .em()
        .execute('select before_status, after_status, operation_type from order_status_change where order_id = ?', [
          created.body.order_id,
        ]);
      assert.deepEqual(history, [{ before_status: null, after_status: 1, operation_type: 1001 }]);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(receiver.received.filter((r) => r.body.includes('order.created')).length, 1);
    } finally {
      await receiver.close();
    }
  });
});
