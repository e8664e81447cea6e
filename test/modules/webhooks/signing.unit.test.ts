import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import {
  type Sender,
  SENDERS,
  signDataset,
  signLoadingPlan,
  signOhp,
  signOpenPlatform,
  signPartnerLocker,
  signStandardWebhooks,
  signTenant,
  signThirdParty,
  standardWebhooksKey,
} from '../../../src/modules/webhooks/signing.ts';
import { verifyWebhook } from '../../../src/modules/webhooks/verify.ts';

const NOW = 1_700_000_000;
const BODY = '{"orderId":42,"status":"delivered"}';
const SECRET = 'whk-secret-0123456789';
const WHSEC = standardWebhooksKey(SECRET);

interface Case {
  sign(body: string, timestamp: number): Record<string, string>;
  secret: string;
  timestampHeader: string;
  signatureHeader: string;
  /** A body changed after signing is caught by the digest where there is one. */
  tamper: 'signature' | 'content_digest';
  /** Header names exactly as in the specification table. */
  headers: string[];
  /** False for dataset webhooks, whose formula covers only the body. */
  timestampSigned?: false;
}

const locker = { secrets: [SECRET], keyId: 'key-2024', webhookId: 'wh_1', deliveryId: 'dlv_1' };
const lockerHeaders = [
  'Content-Type',
  'X-Webhook-Id',
  'X-Webhook-Delivery-Id',
  'X-Webhook-Timestamp',
  'X-Webhook-Key-Id',
  'X-Webhook-Content-Digest',
  'X-Webhook-Signature',
];

const CASES: Record<Sender, Case> = {
  tenant: {
    sign: (body, timestamp) => signTenant({ secret: SECRET, body, timestamp, eventId: 'evt_1' }),
    secret: SECRET,
    timestampHeader: 'X-Webhook-Timestamp',
    signatureHeader: 'Signature',
    tamper: 'signature',
    headers: ['Content-Type', 'Signature', 'X-Webhook-Event-Id', 'X-Webhook-Timestamp', 'X-Webhook-Signature-V2'],
  },
  partner_locker: {
    sign: (body, timestamp) => signPartnerLocker({ ...locker, body, timestamp, test: true }),
    secret: SECRET,
    timestampHeader: 'X-Webhook-Timestamp',
    signatureHeader: 'X-Webhook-Signature',
    tamper: 'content_digest',
    headers: [...lockerHeaders, 'X-Webhook-Test'],
  },
  third_party: {
    sign: (body, timestamp) => signThirdParty({ ...locker, body, timestamp }),
    secret: SECRET,
    timestampHeader: 'X-Webhook-Timestamp',
    signatureHeader: 'X-Webhook-Signature',
    tamper: 'content_digest',
    headers: lockerHeaders,
  },
  loading_plan: {
    sign: (body, timestamp) =>
      signLoadingPlan({ secret: SECRET, body, timestamp, eventId: 'evt_2', eventType: 'plan.ready' }),
    secret: SECRET,
    timestampHeader: 'X-Webhook-Timestamp',
    signatureHeader: 'X-Webhook-Signature',
    tamper: 'signature',
    headers: [
      'Content-Type',
      'X-Webhook-Event-Id',
      'X-Webhook-Event-Type',
      'X-Webhook-Timestamp',
      'X-Webhook-Signature',
    ],
  },
  open_platform: {
    sign: (body, timestamp) =>
      signOpenPlatform({ secret: SECRET, body, timestamp, event: 'job.done', deliveryId: 'd_1', jobId: 'job_1' }),
    secret: SECRET,
    timestampHeader: 'X-Open-Timestamp',
    signatureHeader: 'X-Open-Signature',
    tamper: 'signature',
    headers: ['Content-Type', 'X-Open-Event', 'X-Open-Delivery', 'X-Open-Job', 'X-Open-Timestamp', 'X-Open-Signature'],
  },
  ohp: {
    sign: (body, timestamp) => signOhp({ secret: SECRET, body, timestamp, event: 'order.updated', messageId: 'msg_1' }),
    secret: SECRET,
    timestampHeader: 'X-Ohp-Timestamp',
    signatureHeader: 'X-Ohp-Signature',
    tamper: 'signature',
    headers: ['Content-Type', 'X-Ohp-Event', 'X-Ohp-Delivery', 'X-Ohp-Timestamp', 'X-Ohp-Signature'],
  },
  dataset: {
    sign: (body, timestamp) => signDataset({ secret: SECRET, body, timestamp, event: 'dataset.published' }),
    secret: SECRET,
    timestampHeader: 'X-Webhook-Timestamp',
    signatureHeader: 'X-Webhook-Signature',
    tamper: 'signature',
    headers: ['Content-Type', 'X-Webhook-Event', 'X-Webhook-Timestamp', 'X-Webhook-Signature'],
    timestampSigned: false,
  },
  standard_webhooks: {
    sign: (body, timestamp) => signStandardWebhooks({ keys: [WHSEC], id: 'msg_1', timestamp, body }),
    secret: WHSEC,
    timestampHeader: 'webhook-timestamp',
    signatureHeader: 'webhook-signature',
    tamper: 'signature',
    headers: ['Content-Type', 'webhook-id', 'webhook-timestamp', 'webhook-signature'],
  },
};

function without(headers: Record<string, string>, name: string): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([key]) => key !== name));
}

/** Flips the last byte of the body: one byte changed, same length. */
function tampered(body: string): string {
  return body.slice(0, -1) + String.fromCharCode(body.charCodeAt(body.length - 1) ^ 1);
}

for (const sender of SENDERS) {
  const c = CASES[sender];
  const verify = (headers: Record<string, string>, rawBody: string | Buffer = BODY, now = NOW) =>
    verifyWebhook({ sender, secret: c.secret, headers, rawBody, now });

  describe(`${sender} webhooks`, () => {
    test('sends exactly the headers of the specification table', () => {
      assert.deepEqual(Object.keys(c.sign(BODY, NOW)).sort(), [...c.headers].sort());
      assert.equal(c.sign(BODY, NOW)['Content-Type'], 'application/json');
      assert.equal(c.sign(BODY, NOW)[c.timestampHeader], String(NOW));
    });

    test('sign then verify passes, from a string or a Buffer body, with any header casing', () => {
      const headers = c.sign(BODY, NOW);
      assert.deepEqual(verify(headers), { valid: true });
      assert.deepEqual(verify(headers, Buffer.from(BODY)), { valid: true });
      const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
      assert.deepEqual(verify(lower), { valid: true });
    });

    test(`a one-byte body change fails with ${c.tamper}`, () => {
      const result = verify(c.sign(BODY, NOW), tampered(BODY));
      assert.equal(result.valid, false);
      assert.equal(!result.valid && result.failed, c.tamper);
    });

    test('another secret fails with signature', () => {
      const result = verifyWebhook({
        sender,
        secret: 'another-secret',
        headers: c.sign(BODY, NOW),
        rawBody: BODY,
        now: NOW,
      });
      assert.deepEqual(result.valid ? null : [result.failed, result.header], ['signature', c.signatureHeader]);
      const headers = c.sign(BODY, NOW);
      const truncated = verify({ ...headers, [c.signatureHeader]: headers[c.signatureHeader]?.slice(0, -4) ?? '' });
      assert.deepEqual(truncated.valid ? null : [truncated.failed, truncated.header], ['signature', c.signatureHeader]);
    });

    test('a timestamp older or newer than the tolerance fails with timestamp', () => {
      const headers = c.sign(BODY, NOW);
      assert.deepEqual(verify(headers, BODY, NOW + 300), { valid: true });
      assert.deepEqual(verify(headers, BODY, NOW - 300), { valid: true });
      for (const now of [NOW + 301, NOW - 301]) {
        const result = verify(headers, BODY, now);
        assert.deepEqual(result.valid ? null : [result.failed, result.header], ['timestamp', c.timestampHeader]);
      }
      const tight = verifyWebhook({
        sender,
        secret: c.secret,
        headers,
        rawBody: BODY,
        now: NOW + 61,
        toleranceSec: 60,
      });
      assert.equal(!tight.valid && tight.failed, 'timestamp');
      const garbled = verify({ ...headers, [c.timestampHeader]: '2023-11-14T22:13:20Z' });
      assert.equal(!garbled.valid && garbled.failed, 'timestamp');
    });

    test(
      c.timestampSigned === false
        ? 'a replaced timestamp is not detected: the formula covers only the body'
        : 'a replaced timestamp within the tolerance fails with signature',
      () => {
        const result = verify({ ...c.sign(BODY, NOW), [c.timestampHeader]: String(NOW + 1) });
        assert.deepEqual(result.valid ? 'valid' : result.failed, c.timestampSigned === false ? 'valid' : 'signature');
      },
    );

    test('a missing signature or timestamp header fails with missing_header naming it', () => {
      for (const name of [c.signatureHeader, c.timestampHeader]) {
        const result = verify(without(c.sign(BODY, NOW), name));
        assert.deepEqual(result.valid ? null : [result.failed, result.header], ['missing_header', name]);
        assert.match(result.valid ? '' : result.message, new RegExp(name));
      }
    });
  });
}

describe('known-answer vectors', () => {
  const body = '{"id":1}';
  const timestamp = 1_700_000_000;

  test('constants computed once with openssl dgst -sha256 -hmac', () => {
    // printf '%s' '{"id":1}' | openssl dgst -sha256 -hmac tenant-secret
    assert.equal(
      signTenant({ secret: 'tenant-secret', body, timestamp, eventId: 'e' }).Signature,
      'bbbcf3bff56e6fdbcc405d3cb76527d247ceef3fccd8975b6a88c13c866c8bd3',
    );
    // printf '1700000000\ndlv_1\n{"id":1}' | openssl dgst -sha256 -hmac locker-secret -binary | base64
    const lockerHeaders = signThirdParty({
      secrets: ['locker-secret'],
      keyId: 'k',
      webhookId: 'w',
      deliveryId: 'dlv_1',
      body,
      timestamp,
    });
    assert.equal(lockerHeaders['X-Webhook-Signature'], 'v1=VxEcqnFYppui4vsaeCq29KJpeQdo2JoqOCAkJx1oY1g=');
    // printf '%s' '{"id":1}' | openssl dgst -sha256 -binary | base64
    assert.equal(lockerHeaders['X-Webhook-Content-Digest'], 'sha-256=A3ySFO73TMOIfzpPCFtOF9digNr9JzsO4WDAnEuhz9Q=');
    // printf '%s' '1700000000.{"id":1}' | openssl dgst -sha256 -hmac ohp-secret
    assert.equal(
      signOhp({ secret: 'ohp-secret', body, timestamp, event: 'e', messageId: 'm' })['X-Ohp-Signature'],
      'v1=7b406b7a297528d605ccd409903a333754c4e125adff12a67f15ea61e0a2b566',
    );
  });

  test('the example from the Standard Webhooks specification', () => {
    const headers = signStandardWebhooks({
      keys: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
      id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestamp: 1614265330,
      body: '{"test": 2432232314}',
    });
    assert.equal(headers['webhook-signature'], 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  test('every formula written out again with node:crypto', () => {
    const mac = (key: string | Buffer, data: string, encoding: 'hex' | 'base64') =>
      createHmac('sha256', key).update(data).digest(encoding);
    const tenant = signTenant({ secret: SECRET, body, timestamp, eventId: 'e' });
    assert.equal(tenant.Signature, mac(SECRET, body, 'hex'));
    assert.equal(tenant['X-Webhook-Signature-V2'], mac(SECRET, `${timestamp}.${body}`, 'hex'));
    assert.equal(
      signPartnerLocker({ ...locker, body, timestamp, test: false })['X-Webhook-Signature'],
      `v1=${mac(SECRET, `${timestamp}\n${locker.deliveryId}\n${body}`, 'base64')}`,
    );
    const dotted = `v1=${mac(SECRET, `${timestamp}.${body}`, 'hex')}`;
    assert.equal(
      signLoadingPlan({ secret: SECRET, body, timestamp, eventId: 'e', eventType: 't' })['X-Webhook-Signature'],
      dotted,
    );
    assert.equal(
      signOpenPlatform({ secret: SECRET, body, timestamp, event: 'e', deliveryId: 'd', jobId: 'j' })[
        'X-Open-Signature'
      ],
      dotted,
    );
    assert.equal(signOhp({ secret: SECRET, body, timestamp, event: 'e', messageId: 'm' })['X-Ohp-Signature'], dotted);
    assert.equal(
      signDataset({ secret: SECRET, body, timestamp, event: 'e' })['X-Webhook-Signature'],
      mac(SECRET, body, 'hex'),
    );
    assert.equal(
      signStandardWebhooks({ keys: [WHSEC], id: 'msg_1', timestamp, body })['webhook-signature'],
      `v1,${mac(Buffer.from(SECRET), `msg_1.${timestamp}.${body}`, 'base64')}`,
    );
    assert.equal(WHSEC, `whsec_${Buffer.from(SECRET).toString('base64')}`);
  });
});

test('tenant webhooks need both signatures, and V2 binds the timestamp', () => {
  const headers = signTenant({ secret: SECRET, body: BODY, timestamp: NOW, eventId: 'e' });
  const missing = verifyWebhook({
    sender: 'tenant',
    secret: SECRET,
    headers: without(headers, 'X-Webhook-Signature-V2'),
    rawBody: BODY,
    now: NOW,
  });
  assert.deepEqual(missing.valid ? null : [missing.failed, missing.header], [
    'missing_header',
    'X-Webhook-Signature-V2',
  ]);
  const moved = verifyWebhook({
    sender: 'tenant',
    secret: SECRET,
    headers: { ...headers, 'X-Webhook-Timestamp': String(NOW + 1) },
    rawBody: BODY,
    now: NOW,
  });
  assert.deepEqual(moved.valid ? null : [moved.failed, moved.header], ['signature', 'X-Webhook-Signature-V2']);
});

describe('partner locker and third-party specifics', () => {
  const sign = (secrets: string[], test = false) =>
    signPartnerLocker({ ...locker, secrets, body: BODY, timestamp: NOW, test });
  const verify = (secret: string, headers: Record<string, string>, sender: Sender = 'partner_locker') =>
    verifyWebhook({ sender, secret, headers, rawBody: BODY, now: NOW });

  test('after a rotation the header carries one signature per key and either key verifies', () => {
    const headers = sign(['new-secret', 'old-secret']);
    assert.match(headers['X-Webhook-Signature'] ?? '', /^v1=\S+ v1=\S+$/);
    assert.equal(
      headers['X-Webhook-Signature']?.split(' ')[0],
      sign(['new-secret'])['X-Webhook-Signature'],
      'current key first',
    );
    assert.deepEqual(verify('new-secret', headers), { valid: true });
    assert.deepEqual(verify('old-secret', headers), { valid: true });
    assert.equal(verify('retired-secret', headers).valid, false);
    assert.throws(() => sign([]), RangeError);
  });

  test('the verifier accepts the signature with and without the v1= prefix', () => {
    const headers = sign(['new-secret', 'old-secret']);
    const bare = { ...headers, 'X-Webhook-Signature': headers['X-Webhook-Signature']?.replaceAll('v1=', '') ?? '' };
    assert.doesNotMatch(bare['X-Webhook-Signature'], /v1=/);
    assert.deepEqual(verify('old-secret', bare), { valid: true });
    assert.deepEqual(verify('old-secret', bare, 'third_party'), { valid: true });
  });

  test('X-Webhook-Test is 1 for sandbox deliveries only', () => {
    assert.equal(sign([SECRET], true)['X-Webhook-Test'], '1');
    assert.equal('X-Webhook-Test' in sign([SECRET], false), false);
  });

  test('the digest is also accepted as bare hex or bare base64, and a wrong one is named', () => {
    const headers = sign([SECRET]);
    const digest = createHash('sha256').update(BODY).digest();
    for (const value of [digest.toString('hex'), digest.toString('base64'), `sha-256=:${digest.toString('base64')}:`]) {
      assert.deepEqual(verify(SECRET, { ...headers, 'X-Webhook-Content-Digest': value }), { valid: true });
    }
    const wrong = verify(SECRET, { ...headers, 'X-Webhook-Content-Digest': 'sha-256=AAAA' });
    assert.deepEqual(wrong.valid ? null : [wrong.failed, wrong.header], ['content_digest', 'X-Webhook-Content-Digest']);
  });

  test('a missing delivery id or digest is reported by name', () => {
    for (const name of ['X-Webhook-Delivery-Id', 'X-Webhook-Content-Digest']) {
      const result = verify(SECRET, without(sign([SECRET]), name), 'third_party');
      assert.deepEqual(result.valid ? null : [result.failed, result.header], ['missing_header', name]);
    }
  });

  test('the delivery id is covered by the signature', () => {
    const result = verify(SECRET, { ...sign([SECRET]), 'X-Webhook-Delivery-Id': 'dlv_2' });
    assert.equal(!result.valid && result.failed, 'signature');
  });
});

test('a caller can override the content type', () => {
  const headers = signTenant({
    secret: SECRET,
    body: BODY,
    timestamp: NOW,
    eventId: 'e',
    contentType: 'application/cloudevents+json',
  });
  assert.equal(headers['Content-Type'], 'application/cloudevents+json');
});

test('signers refuse a timestamp that is not Unix seconds', () => {
  for (const timestamp of [NOW + 0.5, -1, Number.NaN]) {
    assert.throws(() => signDataset({ secret: SECRET, body: BODY, timestamp, event: 'e' }), RangeError);
  }
});

describe('the official standardwebhooks library as an independent verifier', () => {
  // The library checks timestamps against the real clock, so these use the current time.
  const live = () => Math.floor(Date.now() / 1000);

  test('it verifies what signStandardWebhooks produces, with one key or after a rotation', () => {
    const previous = standardWebhooksKey('previous-secret');
    const headers = signStandardWebhooks({ keys: [WHSEC, previous], id: 'msg_live', timestamp: live(), body: BODY });
    assert.deepEqual(new Webhook(WHSEC).verify(BODY, headers), JSON.parse(BODY));
    assert.deepEqual(new Webhook(previous).verify(BODY, headers), JSON.parse(BODY));
    assert.throws(() => new Webhook(standardWebhooksKey('other')).verify(BODY, headers), WebhookVerificationError);
    assert.throws(() => new Webhook(WHSEC).verify(tampered(BODY), headers), WebhookVerificationError);
  });

  test('our verifier accepts what the library signs, given the whsec_ key or the raw secret', () => {
    const timestamp = live();
    const headers = {
      'webhook-id': 'msg_lib',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': new Webhook(WHSEC).sign('msg_lib', new Date(timestamp * 1000), BODY),
    };
    for (const secret of [WHSEC, SECRET]) {
      assert.deepEqual(verifyWebhook({ sender: 'standard_webhooks', secret, headers, rawBody: BODY }), { valid: true });
    }
    const wrong = verifyWebhook({ sender: 'standard_webhooks', secret: 'other', headers, rawBody: BODY });
    assert.equal(!wrong.valid && wrong.failed, 'signature');
  });
});
