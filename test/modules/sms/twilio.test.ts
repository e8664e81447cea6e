// The Twilio provider against a real local HTTP receiver standing in for api.twilio.com, and the sender's ledger:
// one message per idempotency key, whatever the retries.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../../src/platform/config.ts';
import { smsSender, SmsSendError, twilioProvider } from '../../../src/modules/sms/index.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { startReceiver } from '../../helpers/receiver.ts';

const SID = `AC${'0123456789abcdef'.repeat(2)}`;
const TOKEN = 'twilio-auth-token-for-tests-0001';
const MESSAGE = { to: '+420601123456', text: 'Your code is 482913.', purpose: 'registration' };

describe('SMS: the Twilio provider and the ledger', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const twilio = (extra: Partial<Parameters<typeof twilioProvider>[0]> = {}) =>
    twilioProvider({
      provider: 'twilio',
      accountSid: SID,
      authToken: TOKEN,
      fromNumber: '+15005550006',
      messagingServiceSid: null,
      apiBaseUrl: receiver.url,
      ...extra,
    });
  const key = () => `test:${randomUUID()}`;

  before(async () => {
    receiver = await startReceiver(() => ({ status: 201, json: { sid: `SM${'a'.repeat(32)}`, status: 'queued' } }));
  });
  after(() => receiver.close());

  test("sends a form to the account's Messages resource with basic authentication", async () => {
    receiver.behave(() => ({ status: 201, json: { sid: `SM${'1'.repeat(32)}`, status: 'queued' } }));
    const n = receiver.received.length;
    const receipt = await twilio().send({ ...MESSAGE, idempotencyKey: key() });
    assert.equal(receipt.providerMessageId, `SM${'1'.repeat(32)}`);
    const req = receiver.received[n]!;
    assert.equal(req.url, `/2010-04-01/Accounts/${SID}/Messages.json`);
    assert.equal(req.headers.authorization, `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
    assert.equal(req.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.deepEqual(Object.fromEntries(new URLSearchParams(req.body)), {
      To: MESSAGE.to,
      Body: MESSAGE.text,
      From: '+15005550006',
    });

    const service = `MG${'f'.repeat(32)}`;
    await twilio({ messagingServiceSid: service }).send({ ...MESSAGE, idempotencyKey: key() });
    const form = new URLSearchParams(receiver.received.at(-1)!.body);
    assert.equal(form.get('MessagingServiceSid'), service);
    assert.equal(form.get('From'), null, 'the messaging service chooses the sender');
  });

  test('a 4xx refusal is not retryable; 429, 5xx and an unreachable API are; no error names the text, number or token', async () => {
    const outcome = async (status: number, json: unknown = {}) => {
      receiver.behave(() => ({ status, json }));
      try {
        await twilio().send({ ...MESSAGE, idempotencyKey: key() });
      } catch (err) {
        return err;
      }
      assert.fail(`status ${status} did not throw`);
    };
    const refused = await outcome(400, { code: 21211, message: `The 'To' number ${MESSAGE.to} is not valid.` });
    assert.ok(refused instanceof SmsSendError);
    assert.equal(refused.retryable, false);
    assert.equal(refused.status, 400);
    assert.match(refused.message, /21211/);
    for (const status of [401, 404]) assert.equal(((await outcome(status)) as SmsSendError).retryable, false);
    for (const status of [429, 500, 503]) assert.equal(((await outcome(status)) as SmsSendError).retryable, true);
    const unreachable = twilioProvider({
      provider: 'twilio',
      accountSid: SID,
      authToken: TOKEN,
      fromNumber: '+15005550006',
      messagingServiceSid: null,
      apiBaseUrl: 'http://127.0.0.1:9',
    });
    const down = await unreachable.send({ ...MESSAGE, idempotencyKey: key() }).catch((e: unknown) => e);
    assert.ok(down instanceof SmsSendError);
    assert.equal(down.retryable, true);
    for (const err of [refused, down] as Error[]) {
      const said = `${err.message} ${String(err.stack)}`;
      for (const secret of [MESSAGE.to, '482913', TOKEN]) assert.ok(!said.includes(secret), `an error names ${secret}`);
    }
  });

  test('configuration: twilio needs the account, the token and a sender; the API base is https but for the loopback', () => {
    assert.throws(() => loadConfig({ SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: SID }), /TWILIO_AUTH_TOKEN/);
    assert.throws(
      () => loadConfig({ SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN }),
      /TWILIO_FROM_NUMBER/,
    );
    assert.throws(() => loadConfig({ TWILIO_API_BASE_URL: 'http://api.example.com' }), /TWILIO_API_BASE_URL/);
    assert.throws(() => loadConfig({ SMS_PROVIDER: 'carrier-pigeon' }), /SMS_PROVIDER/);
    const c = loadConfig({
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: SID,
      TWILIO_AUTH_TOKEN: TOKEN,
      TWILIO_FROM_NUMBER: '+15005550006',
    });
    assert.deepEqual(c.sms, {
      provider: 'twilio',
      accountSid: SID,
      authToken: TOKEN,
      fromNumber: '+15005550006',
      messagingServiceSid: null,
      apiBaseUrl: 'https://api.twilio.com',
    });
    assert.equal(loadConfig({}).sms, null);
  });

  describe('the ledger, on the real database', () => {
    let app: TestApp;
    before(async () => {
      app = await startApp({}, { worker: false });
    });
    after(() => app.running.close());

    test('a key already sent is not sent again; a refused send leaves it to be tried again', async () => {
      const config = loadConfig({
        ...process.env,
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: SID,
        TWILIO_AUTH_TOKEN: TOKEN,
        TWILIO_FROM_NUMBER: '+15005550006',
        TWILIO_API_BASE_URL: receiver.url,
      });
      const sender = smsSender(app.running.orm, config)!;
      assert.equal(sender.name, 'twilio');
      const k = key();
      receiver.behave(() => 503);
      const n = receiver.received.length;
      await assert.rejects(sender.send({ ...MESSAGE, idempotencyKey: k }), SmsSendError);
      receiver.behave(() => ({ status: 201, json: { sid: `SM${'2'.repeat(32)}` } }));
      const first = await sender.send({ ...MESSAGE, idempotencyKey: k });
      const again = await sender.send({ ...MESSAGE, idempotencyKey: k });
      assert.deepEqual(again, first);
      assert.equal(receiver.received.length - n, 2, 'the failed attempt and one send; the retry sent nothing');
      const [row] = await app
        .em()
        .execute('select status, provider, sealed_text from sms_message where idempotency_key = ?', [k]);
      assert.deepEqual(row, { status: 'sent', provider: 'twilio', sealed_text: null });
      assert.equal(smsSender(app.running.orm, loadConfig({ ...process.env, SMS_PROVIDER: '' })), null);
    });
  });
});
