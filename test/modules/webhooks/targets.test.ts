// WEBHOOK_ALLOW_PRIVATE_TARGETS off, as in production: a tenant's URL cannot point this service at its own
// network. Refused when saved (422, every field named) and again when sending, on the address actually used.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeProvider, PASSWORD } from '../../helpers/factories.ts';
import { startReceiver } from '../../helpers/receiver.ts';
import { awaitDeviceOrderDelivery } from '../../helpers/retryWorkflow.ts';

describe('webhook targets: private addresses refused unless allowed', () => {
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    app = await startApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: '0' });
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    await app.running.close();
  });

  test('saving a loopback, private or link-local URL answers 422 naming each field; nothing is saved or sent', async () => {
    const b = await makeBusiness(app.em());
    const admin = await app.login(b.users.admin.email, PASSWORD);
    const res = await app.http.put(
      '/v1/webhook-settings',
      {
        webhook_sign_secret: 'targets-secret-0123456789',
        device_order_webhook_url: `https://hooks.example.com/a, ${receiver.url}`,
        order_status_change_webhook_url: 'http://169.254.169.254/latest/meta-data',
        tracking_event_webhook_url: 'http://[::1]:8080/x',
        route_board_webhook_url: 'http://localhost:9000/hook',
        url_formats: { 'http://10.1.2.3/hook': { format: 'ce_binary' } },
      },
      { token: admin, lang: 'fr' },
    );
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.errors.map((e: { field: string }) => e.field).sort(), [
      'device_order_webhook_url',
      'order_status_change_webhook_url',
      'route_board_webhook_url',
      'tracking_event_webhook_url',
      'url_formats',
    ]);
    assert.match(res.body.errors[0].message, /adresse de bouclage, privée ou lien-local/);
    assert.equal(
      (await app.http.get('/v1/webhook-settings', { token: admin })).body.settings.device_order_webhook_url,
      null,
      'nothing saved',
    );

    const ok = await app.http.put(
      '/v1/webhook-settings',
      { webhook_sign_secret: 'targets-secret-0123456789', device_order_webhook_url: 'https://hooks.example.com/a' },
      { token: admin },
    );
    assert.equal(ok.status, 200, 'a public host is accepted');

    const provider = await makeProvider(app.em(), 'locker_provider');
    const providerToken = await app.login(provider.user.email, PASSWORD);
    const p = await app.http.put(
      '/v1/provider/webhook-settings',
      { url: 'https://partner.example.com/hook', sandbox_url: 'http://192.168.1.20/hook' },
      { token: providerToken },
    );
    assert.equal(p.status, 422);
    assert.deepEqual(
      p.body.errors.map((e: { field: string }) => e.field),
      ['sandbox_url'],
    );

    const ohp = await app.http.post('/v1/ohp/subscriptions', { url: `${receiver.url}/ohp` }, { token: admin });
    assert.equal(ohp.status, 422);
    assert.equal(receiver.received.length, 0, 'no challenge was sent to the private address');
  });

  test('IPv6 spellings of private addresses (embedded IPv4, site-local) are refused when saved, each field named', async () => {
    const b = await makeBusiness(app.em());
    const admin = await app.login(b.users.admin.email, PASSWORD);
    const urls = {
      order_create_webhook_url: 'http://[2002:7f00:1::]/',
      order_status_change_webhook_url: 'http://[::7f00:1]/',
      tracking_event_webhook_url: 'http://[64:ff9b:1::7f00:1]/',
      pod_files_webhook_url: 'http://[::ffff:0:7f00:1]/',
      order_deleted_webhook_url: 'http://[fec0::1]/',
      route_board_webhook_url: 'http://[::a9fe:a9fe]/latest/meta-data',
      device_order_webhook_url: 'http://[2002:a9fe:a9fe::]/latest/meta-data',
    };
    const res = await app.http.put(
      '/v1/webhook-settings',
      { webhook_sign_secret: 'targets-secret-0123456789', ...urls },
      { token: admin },
    );
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.errors.map((e: { field: string }) => e.field).sort(), Object.keys(urls).sort());
  });

  test('a private URL already stored (saved while allowed, or a name re-pointed) is refused when sending and logged', async () => {
    const b = await makeBusiness(app.em());
    const admin = await app.login(b.users.admin.email, PASSWORD);
    await app.http.put(
      '/v1/webhook-settings',
      {
        webhook_sign_secret: 'targets-secret-0123456789',
        device_order_webhook_url: 'https://hooks.example.com/b',
        device_order_events: 'device_order.stored',
      },
      { token: admin },
    );
    await app
      .em()
      .execute(
        `update webhook_settings set urls = jsonb_set(urls, '{device_order_webhook_url}', to_jsonb(?::text)) where business_id = ?`,
        [receiver.url, b.business.id],
      );
    const stored = await app.http.post(
      '/v1/device-orders',
      {
        kind: 'delivery',
        device_id: b.device.code,
        grid_code: 'A01',
        reference_number: 'PRIV',
        due_at: new Date(Date.now() + 3600_000).toISOString(),
      },
      { token: admin },
    );
    assert.equal(stored.status, 201);
    const delivery = await awaitDeviceOrderDelivery(
      app,
      stored.body.device_order.id,
      (d) => d.attempts >= 1 && d.status !== 'pending',
    );
    const read = await app.http.get(`/v1/webhook-deliveries/${delivery.id}`, { token: admin });
    assert.equal(read.body.delivery.url, receiver.url);
    assert.deepEqual(
      read.body.delivery.attempt_log.map((a: { response_status: number | null; error: string }) => [
        a.response_status,
        a.error,
      ]),
      [[null, 'refused: a private address']],
    );
    assert.equal(receiver.received.length, 0, 'nothing reached the private address');
  });
});
