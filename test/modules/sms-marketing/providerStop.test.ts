/**
 * A STOP the person texted to the sender, as the provider reports it: Twilio (played by a receiver on the loopback)
 * refuses a campaign message with its error 21610, and the business keeps the number as opted out, so that its next
 * campaign never asks the provider again (docs/opt-in-families.md, SMS Marketing).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { startReceiver } from '../../helpers/receiver.ts';
import { waitFor } from '../../helpers/wait.ts';
import { czechMobile, orderTo, quietLater, usableBusiness } from './world.ts';

describe('SMS Marketing: an opt-out the provider reports', () => {
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  /** The number that texted STOP to the sender, as Twilio knows it. */
  let stopped = '';

  before(async () => {
    receiver = await startReceiver((_n, req) =>
      new URLSearchParams(req.body).get('To') === stopped
        ? { status: 400, json: { code: 21610, message: 'Attempt to send to unsubscribed recipient', status: 400 } }
        : { status: 201, json: { sid: `SM${randomUUID().replaceAll('-', '')}`, status: 'queued' } },
    );
    app = await startApp({
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: `AC${'0123456789abcdef'.repeat(2)}`,
      TWILIO_AUTH_TOKEN: 'twilio-auth-token-for-tests-0002',
      TWILIO_FROM_NUMBER: '+15005550006',
      TWILIO_API_BASE_URL: receiver.url,
      SMS_CAMPAIGN_MAX_PER_MINUTE: '6000',
    });
  });
  after(async () => {
    await app?.running.close();
    await receiver?.close();
  });

  test(
    'a 21610 refusal is kept as an opt-out of the business and counted as skipped, not failed',
    { timeout: 90_000 },
    async () => {
      const platform = await app.login('platform@demo.example', 'demo-password');
      const { biz, admin } = await usableBusiness(app, platform);
      const [reached, ...rest] = [czechMobile(), czechMobile()];
      stopped = rest[0]!;
      await orderTo(app, biz, reached);
      await orderTo(app, biz, stopped);
      const run = async () => {
        const made = await app.http.post(
          '/v1/sms-marketing/campaigns',
          { name: 'Depot hours', text: 'Open until 20:00 this week.', quiet_hours: quietLater(), per_minute: 600 },
          { token: admin },
        );
        assert.equal(made.status, 201, JSON.stringify(made.body));
        const id = made.body.campaign.id as number;
        assert.equal(
          (await app.http.post(`/v1/sms-marketing/campaigns/${id}/start`, {}, { token: admin })).status,
          200,
        );
        return waitFor(async () => {
          const c = (await app.http.get(`/v1/sms-marketing/campaigns/${id}`, { token: admin })).body.campaign;
          return c.state === 'done' && c.counts;
        }, 60_000);
      };
      const asked = () => receiver.received.filter((r) => new URLSearchParams(r.body).get('To') === stopped).length;

      const first = await run();
      assert.equal(first.sent, 1);
      assert.equal(first.skipped_opted_out, 1);
      assert.equal(first.failed, 0);
      assert.equal(asked(), 1, 'the provider was asked once, and refused');
      const optOuts = await app.http.get('/v1/sms-marketing/opt-outs', { token: admin });
      assert.deepEqual(
        optOuts.body.opt_outs.map((o: { phone: string; source: string }) => [o.phone, o.source]),
        [[stopped, 'reply']],
      );

      const second = await run();
      assert.equal(second.skipped_opted_out, 1);
      assert.equal(asked(), 1, 'the next campaign skips the number without asking the provider');
    },
  );
});
