import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { standardWebhooksKey } from '../../../src/modules/webhooks/signing.ts';
import { verifyWebhook } from '../../../src/modules/webhooks/verify.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeProvider, PASSWORD } from '../../helpers/factories.ts';
import { startReceiver, type Received } from '../../helpers/receiver.ts';
import { waitFor } from '../../helpers/wait.ts';

const valid = (sender: 'partner_locker' | 'third_party' | 'ohp', r: Received, secret: string) =>
  verifyWebhook({ sender, headers: r.headers, rawBody: r.body, secret }).valid;

describe('provider endpoints and OHP subscriptions', () => {
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const arrived = (eventId: string, n = 1) =>
    waitFor(async () => {
      const got = receiver.received.filter((r) => r.body.includes(eventId));
      return got.length >= n && got;
    }, 30_000);

  before(async () => {
    // Provider schedules run 10 s .. 40960 s; at this scale the eight attempts take about 5 s.
    app = await startApp({ WEBHOOK_RETRY_SCALE: '0.0001' });
    receiver = await startReceiver(() => 200);
  });
  after(async () => {
    await receiver.close();
    await app.running.close();
  });

  test('partner locker: generated secret shown once, sandbox test events, the switch, key rotation signing with both keys', async () => {
    const { user } = await makeProvider(app.em(), 'locker_provider');
    const token = await app.login(user.email, PASSWORD);
    assert.deepEqual((await app.http.get('/v1/provider/webhook-settings', { token })).body, {
      result: true,
      settings: null,
    });
    assert.equal((await app.http.post('/v1/provider/webhook-settings/test', {}, { token })).status, 409);
    assert.equal(
      (await app.http.put('/v1/provider/webhook-settings', { sandbox_enabled: true }, { token })).body.errors[0].field,
      'url',
    );

    const put = await app.http.put(
      '/v1/provider/webhook-settings',
      { url: `${receiver.url}/prod`, sandbox_url: `${receiver.url}/sandbox`, standard_webhooks: true },
      { token },
    );
    assert.equal(put.status, 200);
    const secret = put.body.generated_secret as string;
    assert.ok(secret.length >= 32);
    assert.equal(put.body.settings.secret, `…${secret.slice(-4)}`);
    const read = await app.http.get('/v1/provider/webhook-settings', { token });
    assert.ok(!JSON.stringify(read.body).includes(secret), 'shown once');

    const sent = await app.http.post('/v1/provider/webhook-settings/test', {}, { token });
    assert.equal(sent.status, 202);
    assert.match(sent.body.event_id, /^PLE-MOCK-/);
    const [r] = await arrived(sent.body.event_id);
    assert.equal(r!.headers['x-webhook-test'], '1');
    assert.equal(JSON.parse(r!.body).livemode, false);
    assert.ok(valid('partner_locker', r!, secret));
    assert.equal(r!.headers['x-webhook-key-id'], put.body.settings.key_id);
    new Webhook(standardWebhooksKey(secret)).verify(r!.body, r!.headers);

    const rotated = await app.http.post('/v1/provider/webhook-settings/rotate-secret', {}, { token });
    const next = rotated.body.generated_secret as string;
    assert.equal(rotated.body.settings.previous_key_id, put.body.settings.key_id);
    assert.ok(Date.parse(rotated.body.settings.previous_valid_until) - Date.now() > 23 * 3600_000);
    const again = await app.http.post('/v1/provider/webhook-settings/test', {}, { token });
    const [r2] = await arrived(again.body.event_id);
    assert.equal(r2!.headers['x-webhook-signature']!.split(' ').length, 2, 'one signature per live key');
    assert.ok(valid('partner_locker', r2!, next), 'the new key verifies');
    assert.ok(valid('partner_locker', r2!, secret), 'the old key still verifies during the grace period');
    new Webhook(standardWebhooksKey(secret)).verify(r2!.body, r2!.headers);
    new Webhook(standardWebhooksKey(next)).verify(r2!.body, r2!.headers);

    await app.http.put('/v1/provider/webhook-settings', { sandbox_enabled: false }, { token });
    const off = await app.http.post('/v1/provider/webhook-settings/test', {}, { token });
    assert.equal(off.status, 409);
    assert.equal(off.body.code, 'SANDBOX_DISABLED');
  });

  test('third-party: mock events marked, seven retries then a dead letter the provider can read and resend; merchants cannot see it', async () => {
    const { user } = await makeProvider(app.em(), 'delivery_provider');
    const token = await app.login(user.email, PASSWORD);
    const secret = `tp-secret-${randomUUID()}`;
    await app.http.put(
      '/v1/provider/webhook-settings',
      { url: `${receiver.url}/tp`, secret, events: ['delivery.assignment.created'] },
      { token },
    );
    assert.equal(
      (
        await app.http.put(
          '/v1/provider/webhook-settings',
          { events: ['partner_locker.delivery.delivered'] },
          { token },
        )
      ).status,
      422,
    );

    receiver.behave((_n, req) => (req.body.includes('TPE-TEST') && !req.body.includes('"pass"') ? 500 : 200));
    const sent = await app.http.post('/v1/provider/webhook-settings/test', {}, { token });
    const all = await arrived(sent.body.event_id, 8);
    for (const r of all) {
      assert.equal(r.headers['x-webhook-test'], '1');
      assert.equal(JSON.parse(r.body).data.test, true);
      assert.ok(valid('third_party', r, secret));
      assert.equal(r.headers['x-webhook-id'], all[0]!.headers['x-webhook-id'], 'X-Webhook-Id never changes');
    }
    const list = await waitFor(async () => {
      const res = await app.http.get('/v1/webhook-deliveries?status=dead', { token });
      return res.body.deliveries.length === 1 && res;
    });
    const dead = list.body.deliveries[0];
    assert.equal(dead.attempts, 8);
    assert.equal(dead.sender, 'third_party');
    const merchant = await app.login((await makeBusiness(app.em())).users.admin.email, PASSWORD);
    assert.equal((await app.http.get(`/v1/webhook-deliveries/${dead.id}`, { token: merchant })).status, 404);

    receiver.behave(() => 200);
    const resend = await app.http.post('/v1/webhook-deliveries/resend', { delivery_ids: [dead.id] }, { token });
    assert.equal(resend.body.resent, 1);
    await waitFor(
      async () =>
        (await app.http.get(`/v1/webhook-deliveries/${dead.id}`, { token })).body.delivery.status === 'delivered',
      30_000,
    );
  });

  test('OHP: a subscription exists only after its URL echoes the challenge; pushes keep message_id and are signed', async () => {
    const b = await makeBusiness(app.em());
    const admin = await app.login(b.users.admin.email, PASSWORD);
    receiver.behave((_n, req) => {
      const body = JSON.parse(req.body || '{}');
      if (body.type !== 'challenge') return 200;
      return req.headers['x-ohp-event'] === 'challenge' ? { status: 200, json: { challenge: body.challenge } } : 400;
    });
    const secret = `ohp-secret-${randomUUID()}`;
    const created = await app.http.post(
      '/v1/ohp/subscriptions',
      { url: `${receiver.url}/ohp`, secret, events: ['handoff.accepted'], format: 'ce_binary' },
      { token: admin },
    );
    assert.equal(created.status, 201);
    assert.equal(created.body.subscription.secret, `…${secret.slice(-4)}`);
    assert.ok(!('generated_secret' in created.body));
    const challengeReq = receiver.received.findLast((r) => r.body.includes('"challenge"'))!;
    assert.ok(valid('ohp', challengeReq, secret), 'the challenge is signed like a push');

    receiver.behave(() => ({ status: 200, json: { challenge: 'something else' } }));
    const wrong = await app.http.post(
      '/v1/ohp/subscriptions',
      { url: `${receiver.url}/ohp2` },
      { token: admin, lang: 'fr' },
    );
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.code, 'CHALLENGE_FAILED');
    receiver.behave(() => 'hang');
    assert.equal(
      (await app.http.post('/v1/ohp/subscriptions', { url: `${receiver.url}/ohp3` }, { token: admin })).status,
      400,
    );
    assert.equal(
      (await app.http.get('/v1/ohp/subscriptions', { token: admin })).body.subscriptions.length,
      1,
      'failed challenges create nothing',
    );

    // No OHP producer exists yet: write the event as one would, then watch the engine push it.
    receiver.behave((_n, req) => (receiver.received.filter((x) => x.body === req.body).length === 1 ? 503 : 200));
    const messageId = `msg-${randomUUID()}`;
    await app.em().execute(
      `insert into outbox_event (business_id, event_id, event_type, reference_type, reference_id, payload)
       values (?, ?, 'handoff.accepted', 'handoff', 'H-1', ?::jsonb)`,
      [
        b.business.id,
        messageId,
        JSON.stringify({
          message_id: messageId,
          event: 'handoff.accepted',
          occurred_at: new Date().toISOString(),
          handoff_id: 'H-1',
          data: {},
        }),
      ],
    );
    const pushes = await arrived(messageId, 2);
    for (const p of pushes) {
      assert.equal(p.headers['x-ohp-delivery'], messageId);
      assert.equal(p.headers['x-ohp-event'], 'handoff.accepted');
      assert.equal(p.headers['ce-id'], messageId);
      assert.ok(valid('ohp', p, secret));
    }

    const id = created.body.subscription.id;
    const other = await app.login((await makeBusiness(app.em())).users.admin.email, PASSWORD);
    assert.equal(
      (await app.http.del(`/v1/ohp/subscriptions?id=${id}`, { token: other })).status,
      404,
      'another business cannot revoke it',
    );
    assert.equal((await app.http.del(`/v1/ohp/subscriptions?id=${id}`, { token: admin })).status, 200);
    assert.deepEqual((await app.http.get('/v1/ohp/subscriptions', { token: admin })).body.subscriptions, []);
  });

  test('OHP limits: the same URL and events twice is refused before any challenge; a URL holds 5, a business 50', async () => {
    const b = await makeBusiness(app.em());
    const admin = await app.login(b.users.admin.email, PASSWORD);
    receiver.behave((_n, req) => ({ status: 200, json: { challenge: JSON.parse(req.body || '{}').challenge } }));
    const path = `/ohp-limits-${randomUUID()}`;
    const url = `${receiver.url}${path}`;
    const challenges = () => receiver.received.filter((r) => r.url === path).length;
    const subscribe = (events: string[], at = url) =>
      app.http.post('/v1/ohp/subscriptions', { url: at, events }, { token: admin, lang: 'de' });

    assert.equal((await subscribe(['handoff.accepted', 'handoff.rejected'])).status, 201);
    const again = await subscribe(['handoff.rejected', 'handoff.accepted', 'handoff.accepted']);
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'SUBSCRIPTION_EXISTS');
    assert.match(again.body.message, /bereits/);
    assert.equal(challenges(), 1, 'a refused subscription sends no challenge');

    for (const event of ['handoff.expired', 'handoff.cancelled', 'amendment.accepted', 'amendment.rejected']) {
      assert.equal((await subscribe([event])).status, 201);
    }
    const sixth = await subscribe(['handoff.tracking']);
    assert.equal(sixth.status, 409);
    assert.equal(sixth.body.code, 'TOO_MANY_SUBSCRIPTIONS_FOR_URL');
    assert.equal(challenges(), 5);

    // Fill the business up to its limit without 45 challenges.
    await app.em().execute(
      `insert into webhook_endpoint (business_id, kind, url, events, format, standard_webhooks, secret, key_id)
       select ?, 'ohp', 'https://example.com/ohp/' || n, '{handoff.accepted}', 'native', false, 'secret-' || n, 'key-' || n
       from generate_series(1, 45) as n`,
      [b.business.id],
    );
    const over = await subscribe(['handoff.tracking'], `${receiver.url}/ohp-other`);
    assert.equal(over.status, 409);
    assert.equal(over.body.code, 'TOO_MANY_SUBSCRIPTIONS');
    const list = (await app.http.get('/v1/ohp/subscriptions', { token: admin })).body.subscriptions;
    assert.equal(list.length, 50);

    assert.equal((await app.http.del(`/v1/ohp/subscriptions?id=${list[0].id}`, { token: admin })).status, 200);
    assert.equal(
      (await subscribe(['handoff.tracking'], `${receiver.url}/ohp-other`)).status,
      201,
      'a revoked subscription frees its place',
    );
  });
});
