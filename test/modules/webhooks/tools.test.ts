import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import { Webhook } from 'standardwebhooks';
import { eventDefinition } from '../../helpers/events.ts';
import { signPartnerLocker, standardWebhooksKey } from '../../../src/modules/webhooks/signing.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, PASSWORD } from '../../helpers/factories.ts';
import { startReceiver } from '../../helpers/receiver.ts';
import { waitFor } from '../../helpers/wait.ts';

const SECRET = 'tools-secret-0123456789abcdef';

describe('webhook test sends, the verifier operation, driver positions', () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let admin: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  before(async () => {
    app = await startApp({ WEBHOOK_RETRY_SCALE: '0.001' });
    b = await makeBusiness(app.em());
    admin = await app.login(b.users.admin.email, PASSWORD);
    receiver = await startReceiver(() => 200);
  });
  after(async () => {
    await receiver.close();
    await app.running.close();
  });

  test('a test send reaches the configured URLs signed, and its received request passes the verify operation', async () => {
    const none = await app.http.post('/v1/webhook-settings/test', {}, { token: admin });
    assert.equal(none.status, 409, 'no secret yet');
    const [a, c] = [`${receiver.url}/a`, `${receiver.url}/c`];
    await app.http.put(
      '/v1/webhook-settings',
      {
        webhook_sign_secret: SECRET,
        device_order_webhook_url: a,
        order_status_change_webhook_url: c,
        device_order_events: 'device_order.collected',
        url_formats: { [a]: { format: 'native', standard_webhooks: true } },
      },
      { token: admin },
    );

    const all = await app.http.post('/v1/webhook-settings/test', {}, { token: admin });
    assert.equal(all.status, 202);
    assert.deepEqual(all.body.urls.sort(), [a, c]);
    const one = await app.http.post('/v1/webhook-settings/test', { event: 'device_order.stored' }, { token: admin });
    assert.deepEqual(one.body.urls, [a], 'the event picks its settings field; a restriction does not stop a test');
    const got = await waitFor(async () => {
      const mine = receiver.received.filter(
        (r) => r.body.includes(all.body.event_id) || r.body.includes(one.body.event_id),
      );
      return mine.length === 3 && mine;
    });
    const atA = got.filter((r) => r.body.includes(one.body.event_id));
    assert.equal(atA.length, 1);
    const body = JSON.parse(atA[0]!.body);
    assert.equal(body.event, 'device_order.stored');
    assert.equal(body.data.test, true);
    new Webhook(standardWebhooksKey(SECRET)).verify(atA[0]!.body, atA[0]!.headers);

    for (const r of got) {
      const ok = await app.http.post(
        '/v1/webhooks/verify',
        { sender: 'tenant', headers: r.headers, body: r.body, secret: SECRET },
        { token: admin },
      );
      assert.deepEqual(ok.body, { result: true, valid: true });
    }
    const r = got[0]!;
    const tampered = await app.http.post(
      '/v1/webhooks/verify',
      { sender: 'tenant', headers: r.headers, body: r.body.replace('test', 'tost'), secret: SECRET },
      { token: admin },
    );
    assert.equal(tampered.body.valid, false);
    assert.equal(tampered.body.reason, 'signature');
    const stale = await app.http.post(
      '/v1/webhooks/verify',
      {
        sender: 'tenant',
        headers: r.headers,
        body: r.body,
        secret: SECRET,
        now: Number(r.headers['x-webhook-timestamp']) + 301,
      },
      { token: admin },
    );
    assert.equal(stale.body.reason, 'timestamp');

    const unknownUrl = await app.http.post(
      '/v1/webhook-settings/test',
      { url: 'https://nowhere.example/x' },
      { token: admin },
    );
    assert.equal(unknownUrl.status, 422);
    assert.equal(unknownUrl.body.errors[0].field, 'url');
  });

  test('the verify operation checks every sender, with or without a token (it is public), and never echoes the secret', async () => {
    const body = '{"event":"partner_locker.delivery.delivered"}';
    const now = Math.floor(Date.now() / 1000);
    const headers = signPartnerLocker({
      secrets: [SECRET],
      keyId: 'k1',
      webhookId: 'w1',
      deliveryId: 'd1',
      body,
      timestamp: now,
      test: false,
    });
    const driver = await app.login(b.users.driver.email, PASSWORD);
    const ok = await app.http.post(
      '/v1/webhooks/verify',
      { sender: 'partner_locker', headers, body, secret: SECRET },
      { token: driver },
    );
    assert.deepEqual(ok.body, { result: true, valid: true });
    assert.ok(!JSON.stringify(ok.body).includes(SECRET));
    const digest = await app.http.post(
      '/v1/webhooks/verify',
      { sender: 'partner_locker', headers, body: `${body} `, secret: SECRET },
      { token: driver },
    );
    assert.equal(digest.body.reason, 'content_digest');
    const missing = await app.http.post(
      '/v1/webhooks/verify',
      { sender: 'partner_locker', headers: {}, body, secret: SECRET },
      { token: driver },
    );
    assert.equal(missing.body.reason, 'missing_header');
    const badSender = await app.http.post(
      '/v1/webhooks/verify',
      { sender: 'carrier_pigeon', headers, body, secret: SECRET },
      { token: driver },
    );
    assert.equal(badSender.status, 422);
    const anonymous = await app.http.post('/v1/webhooks/verify', {
      sender: 'partner_locker',
      headers,
      body,
      secret: SECRET,
    });
    assert.deepEqual(anonymous.body, { result: true, valid: true }, "public, as the specification's developer tool");
    assert.ok(anonymous.headers.get('ratelimit-policy'), 'and limited by address');
  });

  test('driver positions produce driver.location_update, throttled per driver by the merchant setting', async () => {
    await app.http.put(
      '/v1/webhook-settings',
      {
        webhook_sign_secret: SECRET,
        driver_location_webhook_url: `${receiver.url}/loc`,
        driver_location_min_interval_sec: 3600,
      },
      { token: admin },
    );
    const driver = await app.login(b.users.driver.email, PASSWORD);
    const first = await app.http.post(
      '/v1/driver/location',
      { lat: 48.85, lng: 2.35, heading: 90, speed: 12.5 },
      { token: driver },
    );
    assert.deepEqual(first.body, { result: true, event_emitted: true });
    const second = await app.http.post('/v1/driver/location', { lat: 48.86, lng: 2.36 }, { token: driver });
    assert.deepEqual(second.body, { result: true, event_emitted: false }, 'inside the interval');
    const got = await waitFor(async () => receiver.received.find((r) => r.body.includes('driver.location_update')));
    const event = JSON.parse(got.body) as { event_id: string; data: Record<string, unknown> };
    assert.match(event.event_id, /^DLU-/);
    const schema = new Ajv({ strict: false }).compile(eventDefinition('driver.location_update')!.payload);
    assert.ok(schema(JSON.parse(got.body)), `matches the catalog: ${JSON.stringify(schema.errors)}`);
    assert.deepEqual(
      { ...event.data, recorded_at: undefined },
      { driver_id: b.users.driver.id, lat: 48.85, lng: 2.35, heading: 90, speed: 12.5, recorded_at: undefined },
    );
    const [pos] = await app
      .em()
      .execute<{ lat: number }[]>('select lat from driver_location where driver_id = ?', [b.users.driver.id]);
    assert.equal(pos!.lat, 48.86, 'the newest position is kept even when no event is produced');

    const late = await app.http.post(
      '/v1/driver/location',
      { lat: 1, lng: 1, recorded_at: new Date(Date.now() - 3600_000).toISOString() },
      { token: driver },
    );
    assert.equal(late.body.event_emitted, false);
    const [kept] = await app
      .em()
      .execute<{ lat: number }[]>('select lat from driver_location where driver_id = ?', [b.users.driver.id]);
    assert.equal(kept!.lat, 48.86, 'an older fix arriving late does not overwrite a newer one');

    await app.http.put('/v1/webhook-settings', { driver_location_min_interval_sec: 0 }, { token: admin });
    assert.equal(
      (await app.http.post('/v1/driver/location', { lat: 48.87, lng: 2.37 }, { token: driver })).body.event_emitted,
      true,
    );
    const future = await app.http.post(
      '/v1/driver/location',
      { lat: 1, lng: 1, recorded_at: new Date(Date.now() + 3600_000).toISOString() },
      { token: driver, lang: 'es' },
    );
    assert.equal(future.status, 422);
    assert.equal(future.body.errors[0].field, 'recorded_at');
    assert.equal((await app.http.post('/v1/driver/location', { lat: 91, lng: 0 }, { token: driver })).status, 422);
    assert.equal((await app.http.post('/v1/driver/location', { lat: 1, lng: 1 }, { token: admin })).status, 403);
  });
});
