import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { secrets } from '../../../src/modules/secrets/index.ts';
import { verifyWebhook } from '../../../src/modules/webhooks/verify.ts';
import { createLogger } from '../../../src/platform/logger.ts';
import { isSealed } from '../../../src/platform/secretBox.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeProvider, PASSWORD } from '../../helpers/factories.ts';
import { startReceiver } from '../../helpers/receiver.ts';
import { waitFor } from '../../helpers/wait.ts';

/** Every row of every table, as text, searched for each secret: what a database dump would show. */
async function inTheClear(app: TestApp, secrets: string[]): Promise<string[]> {
  const em = app.em();
  const tables = await em.execute<{ name: string }[]>(
    "select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'",
  );
  const found: string[] = [];
  for (const { name } of tables) {
    for (const s of secrets) {
      const [row] = await em.execute<{ n: number }[]>(
        `select count(*)::int as n from "${name}" x where strpos(x::text, ?) > 0`,
        [s],
      );
      if (row!.n > 0) found.push(`${name}: ${s}`);
    }
  }
  return found;
}

describe('secrets at rest', () => {
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    app = await startApp();
    receiver = await startReceiver((_n, req) => {
      const body = JSON.parse(req.body || '{}');
      return body.type === 'challenge' ? { status: 200, json: { challenge: body.challenge } } : 200;
    });
  });
  after(async () => {
    await receiver.close();
    await app.running.close();
  });

  test('no secret the service reads back is in any table in clear, and every one still signs', async () => {
    const b = await makeBusiness(app.em());
    const admin = await app.login(b.users.admin.email, PASSWORD);
    const tenant = `tenant-secret-${randomUUID()}`;
    const customer = `customer-secret-${randomUUID()}`;
    const ohp = `ohp-secret-${randomUUID()}`;
    assert.equal(
      (
        await app.http.put(
          '/v1/webhook-settings',
          {
            webhook_sign_secret: tenant,
            device_order_webhook_url: `${receiver.url}/tenant`,
            device_order_events: 'device_order.stored',
          },
          { token: admin },
        )
      ).status,
      200,
    );
    assert.equal(
      (
        await app.http.put(
          '/v1/webhook-settings',
          {
            customer_id: b.users.customer.id,
            webhook_sign_secret: customer,
            device_order_webhook_url: `${receiver.url}/customer`,
          },
          { token: admin },
        )
      ).status,
      200,
    );
    assert.equal(
      (
        await app.http.post(
          '/v1/ohp/subscriptions',
          { url: `${receiver.url}/ohp`, secret: ohp, events: ['handoff.accepted'] },
          { token: admin },
        )
      ).status,
      201,
    );
    const { user } = await makeProvider(app.em(), 'locker_provider');
    const provider = await app.login(user.email, PASSWORD);
    const first = (
      await app.http.put('/v1/provider/webhook-settings', { url: `${receiver.url}/provider` }, { token: provider })
    ).body.generated_secret as string;
    const current = (await app.http.post('/v1/provider/webhook-settings/rotate-secret', {}, { token: provider })).body
      .generated_secret as string;

    assert.deepEqual(await inTheClear(app, [tenant, customer, ohp, first, current]), []);
    const stored = await app.em().execute<{ value: string }[]>(
      `select sign_secret as value from webhook_settings where business_id = ?
       union all select secret from webhook_endpoint where business_id in (?, ?) union all select previous_secret from webhook_endpoint where business_id = ?`,
      [b.business.id, b.business.id, user.businessId, user.businessId],
    );
    assert.equal(stored.length, 5);
    assert.ok(
      stored.every((r) => isSealed(r.value)),
      'sealed, not merely changed',
    );

    // The masked forms the API shows come from the opened secrets.
    assert.equal(
      (await app.http.get('/v1/webhook-settings', { token: admin })).body.settings.webhook_sign_secret,
      `…${tenant.slice(-4)}`,
    );
    const stores = await app.http.post(
      '/v1/device-orders',
      {
        kind: 'delivery',
        device_id: b.device.code,
        grid_code: 'A01',
        reference_number: 'R-1',
        due_at: new Date(Date.now() + 3600_000).toISOString(),
      },
      { token: admin },
    );
    assert.equal(stores.status, 201);
    const tenantCopy = await waitFor(async () => receiver.received.find((r) => r.url === '/tenant'), 20_000);
    assert.ok(
      verifyWebhook({ sender: 'tenant', headers: tenantCopy.headers, rawBody: tenantCopy.body, secret: tenant }).valid,
    );
    assert.equal((await app.http.post('/v1/provider/webhook-settings/test', {}, { token: provider })).status, 202);
    const providerCopy = await waitFor(async () => receiver.received.find((r) => r.url === '/provider'), 20_000);
    for (const secret of [current, first])
      assert.ok(
        verifyWebhook({ sender: 'partner_locker', headers: providerCopy.headers, rawBody: providerCopy.body, secret })
          .valid,
        'both keys sign during the grace period',
      );
  });

  test('the start-up step seals secrets written in clear before sealing existed', async () => {
    const b = await makeBusiness(app.em());
    const plain = [
      `legacy-tenant-${randomUUID()}`,
      `legacy-current-${randomUUID()}`,
      `legacy-previous-${randomUUID()}`,
    ];
    const em = app.em();
    await em.execute("insert into webhook_settings (business_id, sign_secret, urls) values (?, ?, '{}')", [
      b.business.id,
      plain[0],
    ]);
    await em.execute(
      `insert into webhook_endpoint (business_id, kind, url, secret, key_id, previous_secret, previous_key_id, previous_valid_until)
       values (?, 'ohp', 'https://legacy.example/ohp', ?, 'k1', ?, 'k0', now() + interval '1 hour')`,
      [b.business.id, plain[1], plain[2]],
    );
    assert.equal((await inTheClear(app, plain)).length, 3);

    await secrets.startup!({ orm: app.running.orm, log: createLogger('silent') });
    assert.deepEqual(await inTheClear(app, plain), []);
    const admin = await app.login(b.users.admin.email, PASSWORD);
    assert.equal(
      (await app.http.get('/v1/webhook-settings', { token: admin })).body.settings.webhook_sign_secret,
      `…${plain[0]!.slice(-4)}`,
      'the sealed value opens to the same secret',
    );
    assert.equal(
      (await app.http.get('/v1/ohp/subscriptions', { token: admin })).body.subscriptions[0].secret,
      `…${plain[1]!.slice(-4)}`,
    );
  });
});
