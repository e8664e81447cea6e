// One place for every webhook signature formula. Senders call the sign* functions to build headers;
// verify.ts recomputes with the *Signature functions below, so each formula exists exactly once.
//
// Decisions the product spec leaves open:
// - Timestamps are Unix seconds written as decimal strings.
// - X-Webhook-Content-Digest is `sha-256=` + base64(SHA-256(raw body)) (the RFC 9530 algorithm token).
// - Partner locker and third-party signatures are sent with the `v1=` prefix; one spec passage omits it,
//   so the verifier accepts both.
// - After a key rotation the provider signs with every live key for 24 hours, so those senders take a
//   list of secrets (current first) and emit one signature per key, space-separated.
import { createHmac, hash } from 'node:crypto';

export const SENDERS = [
  'tenant',
  'partner_locker',
  'third_party',
  'loading_plan',
  'open_platform',
  'ohp',
  'dataset',
  'standard_webhooks',
] as const;
export type Sender = (typeof SENDERS)[number];

/** The raw request body exactly as sent; a Buffer is signed byte for byte. */
export type Body = string | Buffer;
export type WebhookHeaders = Record<string, string>;

const JSON_TYPE = 'application/json';
const WHSEC = 'whsec_';

function hmac(key: string | Buffer, parts: readonly Body[], encoding: 'hex' | 'base64'): string {
  const mac = createHmac('sha256', key);
  for (const part of parts) mac.update(part);
  return mac.digest(encoding);
}

/** Unix seconds as the decimal string that goes into both the header and the signed message. */
function unixSeconds(timestamp: number): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0)
    throw new RangeError(`timestamp must be Unix seconds, got ${timestamp}`);
  return String(timestamp);
}

function nonEmpty(list: readonly string[], what: string): readonly string[] {
  if (list.length === 0) throw new RangeError(`at least one ${what} is required`);
  return list;
}

// ---- Signature values (shared with verify.ts) ----

export function sha256(body: Body): Buffer {
  return hash('sha256', body, 'buffer');
}

export function contentDigest(body: Body): string {
  return `sha-256=${sha256(body).toString('base64')}`;
}

/** Tenant `Signature`: hex HMAC of the raw body alone. */
export function tenantSignature(secret: string, body: Body): string {
  return hmac(secret, [body], 'hex');
}

/** Tenant `X-Webhook-Signature-V2`: hex HMAC of `timestamp.body`. */
export function tenantSignatureV2(secret: string, timestamp: number, body: Body): string {
  return hmac(secret, [unixSeconds(timestamp), '.', body], 'hex');
}

/** Partner locker and third-party: `v1=` + base64 HMAC of `timestamp LF delivery_id LF body`, one key. */
export function lockerSignature(secret: string, timestamp: number, deliveryId: string, body: Body): string {
  return `v1=${hmac(secret, [unixSeconds(timestamp), '\n', deliveryId, '\n', body], 'base64')}`;
}

/** Loading plan, open platform and OHP: `v1=` + hex HMAC of `timestamp.body`. */
export function dottedSignature(secret: string, timestamp: number, body: Body): string {
  return `v1=${hmac(secret, [unixSeconds(timestamp), '.', body], 'hex')}`;
}

/** Dataset: hex HMAC of the body alone; its timestamp header is not covered. */
export function datasetSignature(secret: string, body: Body): string {
  return hmac(secret, [body], 'hex');
}

/** A webhook signing secret in Standard Webhooks form: `whsec_` + base64 of its UTF-8 bytes. */
export function standardWebhooksKey(secret: string): string {
  return WHSEC + Buffer.from(secret, 'utf8').toString('base64');
}

function standardWebhooksKeyBytes(key: string): Buffer {
  const bytes = Buffer.from(key.startsWith(WHSEC) ? key.slice(WHSEC.length) : key, 'base64');
  if (bytes.length === 0) throw new RangeError('Standard Webhooks key is empty');
  return bytes;
}

/** Standard Webhooks: `v1,` + base64 HMAC of `id.timestamp.body`, keyed by the decoded `whsec_` key. */
export function standardWebhooksSignature(key: string, id: string, timestamp: number, body: Body): string {
  return `v1,${hmac(standardWebhooksKeyBytes(key), [id, '.', unixSeconds(timestamp), '.', body], 'base64')}`;
}

// ---- Header builders, one per sender ----

interface Signed {
  body: Body;
  /** Unix seconds; take a fresh one for every delivery attempt. */
  timestamp: number;
  /** Defaults to application/json; CloudEvents structured mode passes application/cloudevents+json. */
  contentType?: string;
}

export function signTenant(input: Signed & { secret: string; eventId: string }): WebhookHeaders {
  const { secret, body, timestamp } = input;
  return {
    'Content-Type': input.contentType ?? JSON_TYPE,
    Signature: tenantSignature(secret, body),
    'X-Webhook-Event-Id': input.eventId,
    'X-Webhook-Timestamp': unixSeconds(timestamp),
    'X-Webhook-Signature-V2': tenantSignatureV2(secret, timestamp, body),
  };
}

interface LockerInput extends Signed {
  /** Current secret first; during the 24 hours after a rotation also the previous one. */
  secrets: readonly string[];
  /** Id of the current key. */
  keyId: string;
  webhookId: string;
  deliveryId: string;
}

function lockerHeaders(input: LockerInput): WebhookHeaders {
  const { body, timestamp, deliveryId } = input;
  const signatures = nonEmpty(input.secrets, 'secret').map((secret) =>
    lockerSignature(secret, timestamp, deliveryId, body),
  );
  return {
    'Content-Type': input.contentType ?? JSON_TYPE,
    'X-Webhook-Id': input.webhookId,
    'X-Webhook-Delivery-Id': deliveryId,
    'X-Webhook-Timestamp': unixSeconds(timestamp),
    'X-Webhook-Key-Id': input.keyId,
    'X-Webhook-Content-Digest': contentDigest(body),
    'X-Webhook-Signature': signatures.join(' '),
  };
}

/** `test` marks sandbox deliveries with `X-Webhook-Test: 1`; the header is omitted otherwise. */
export function signPartnerLocker(input: LockerInput & { test: boolean }): WebhookHeaders {
  const headers = lockerHeaders(input);
  return input.test ? { ...headers, 'X-Webhook-Test': '1' } : headers;
}

export function signThirdParty(input: LockerInput): WebhookHeaders {
  return lockerHeaders(input);
}

export function signLoadingPlan(
  input: Signed & { secret: string; eventId: string; eventType: string },
): WebhookHeaders {
  return {
    'Content-Type': input.contentType ?? JSON_TYPE,
    'X-Webhook-Event-Id': input.eventId,
    'X-Webhook-Event-Type': input.eventType,
    'X-Webhook-Timestamp': unixSeconds(input.timestamp),
    'X-Webhook-Signature': dottedSignature(input.secret, input.timestamp, input.body),
  };
}

export function signOpenPlatform(
  input: Signed & { secret: string; event: string; deliveryId: string; jobId: string },
): WebhookHeaders {
  return {
    'Content-Type': input.contentType ?? JSON_TYPE,
    'X-Open-Event': input.event,
    'X-Open-Delivery': input.deliveryId,
    'X-Open-Job': input.jobId,
    'X-Open-Timestamp': unixSeconds(input.timestamp),
    'X-Open-Signature': dottedSignature(input.secret, input.timestamp, input.body),
  };
}

/** `secret` is the subscription secret; the delivery id is the message id, stable across attempts. */
export function signOhp(input: Signed & { secret: string; event: string; messageId: string }): WebhookHeaders {
  return {
    'Content-Type': input.contentType ?? JSON_TYPE,
    'X-Ohp-Event': input.event,
    'X-Ohp-Delivery': input.messageId,
    'X-Ohp-Timestamp': unixSeconds(input.timestamp),
    'X-Ohp-Signature': dottedSignature(input.secret, input.timestamp, input.body),
  };
}

export function signDataset(input: Signed & { secret: string; event: string }): WebhookHeaders {
  return {
    'Content-Type': input.contentType ?? JSON_TYPE,
    'X-Webhook-Event': input.event,
    'X-Webhook-Timestamp': unixSeconds(input.timestamp),
    'X-Webhook-Signature': datasetSignature(input.secret, input.body),
  };
}

/** `keys` are `whsec_` keys, current first; one signature per key, space-separated as the spec requires. */
export function signStandardWebhooks(input: Signed & { keys: readonly string[]; id: string }): WebhookHeaders {
  const { id, timestamp, body } = input;
  const signatures = nonEmpty(input.keys, 'key').map((key) => standardWebhooksSignature(key, id, timestamp, body));
  return {
    'Content-Type': input.contentType ?? JSON_TYPE,
    'webhook-id': id,
    'webhook-timestamp': unixSeconds(timestamp),
    'webhook-signature': signatures.join(' '),
  };
}
