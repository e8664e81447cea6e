// Receiver-side check for every sender in signing.ts. Signatures are recomputed with the functions of
// signing.ts over the raw body as received, never over re-serialized JSON.
//
// Checks run in the order: missing header -> content digest -> timestamp -> signature. The digest and the
// timestamp are cheap and their failures tell an integration engineer more (a proxy rewrote the body, a
// clock is off) than a bare signature mismatch would.
import { timingSafeEqual } from 'node:crypto';
import {
  type Body,
  type Sender,
  datasetSignature,
  dottedSignature,
  lockerSignature,
  sha256,
  standardWebhooksKey,
  standardWebhooksSignature,
  tenantSignature,
  tenantSignatureV2,
} from './signing.ts';

/** The Standard Webhooks tolerance, used for every sender. */
export const DEFAULT_TOLERANCE_SEC = 5 * 60;

export type VerifyFailure = 'missing_header' | 'signature' | 'content_digest' | 'timestamp';
export type VerifyResult = { valid: true } | { valid: false; failed: VerifyFailure; header?: string; message: string };

export interface VerifyInput {
  sender: Sender;
  /** For standard_webhooks: the `whsec_` key, or the raw secret it was made from. */
  secret: string;
  /** Looked up case-insensitively; a repeated header is joined with spaces. */
  headers: Record<string, string | string[] | undefined>;
  rawBody: Body;
  /** Unix seconds; defaults to the clock. */
  now?: number;
  toleranceSec?: number;
}

interface SignatureCheck {
  header: string;
  expected: string;
  /** The header may carry several space-separated signatures (one per key after a rotation). */
  list?: boolean;
  /** A prefix some senders omit; compared without it. */
  optionalPrefix?: string;
}

type Read = (name: string) => string;

interface Recipe {
  /** Every header the check reads, in the order a missing one is reported. */
  required: readonly string[];
  timestamp: string;
  digest?: string;
  signatures(secret: string, read: Read, timestamp: number, body: Body): SignatureCheck[];
}

const locker: Recipe = {
  required: ['X-Webhook-Delivery-Id', 'X-Webhook-Timestamp', 'X-Webhook-Content-Digest', 'X-Webhook-Signature'],
  timestamp: 'X-Webhook-Timestamp',
  digest: 'X-Webhook-Content-Digest',
  signatures: (secret, read, timestamp, body) => [
    {
      header: 'X-Webhook-Signature',
      expected: lockerSignature(secret, timestamp, read('X-Webhook-Delivery-Id'), body),
      list: true,
      optionalPrefix: 'v1=',
    },
  ],
};

function dotted(prefix: 'X-Webhook' | 'X-Open' | 'X-Ohp'): Recipe {
  const [timestamp, signature] = [`${prefix}-Timestamp`, `${prefix}-Signature`];
  return {
    required: [timestamp, signature],
    timestamp,
    signatures: (secret, _read, ts, body) => [{ header: signature, expected: dottedSignature(secret, ts, body) }],
  };
}

const RECIPES: Record<Sender, Recipe> = {
  tenant: {
    required: ['X-Webhook-Timestamp', 'Signature', 'X-Webhook-Signature-V2'],
    timestamp: 'X-Webhook-Timestamp',
    signatures: (secret, _read, timestamp, body) => [
      { header: 'Signature', expected: tenantSignature(secret, body) },
      { header: 'X-Webhook-Signature-V2', expected: tenantSignatureV2(secret, timestamp, body) },
    ],
  },
  partner_locker: locker,
  third_party: locker,
  loading_plan: dotted('X-Webhook'),
  open_platform: dotted('X-Open'),
  ohp: dotted('X-Ohp'),
  dataset: {
    required: ['X-Webhook-Timestamp', 'X-Webhook-Signature'],
    timestamp: 'X-Webhook-Timestamp',
    signatures: (secret, _read, _timestamp, body) => [
      { header: 'X-Webhook-Signature', expected: datasetSignature(secret, body) },
    ],
  },
  standard_webhooks: {
    required: ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
    timestamp: 'webhook-timestamp',
    signatures: (secret, read, timestamp, body) => [
      {
        header: 'webhook-signature',
        expected: standardWebhooksSignature(asWhsec(secret), read('webhook-id'), timestamp, body),
        list: true,
      },
    ],
  },
};

function asWhsec(secret: string): string {
  return secret.startsWith('whsec_') ? secret : standardWebhooksKey(secret);
}

function fail(failed: VerifyFailure, header: string, message: string): VerifyResult {
  return { valid: false, failed, header, message };
}

function headerLookup(headers: VerifyInput['headers']): (name: string) => string | undefined {
  const byName = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) byName.set(name.toLowerCase(), (Array.isArray(value) ? value.join(' ') : value).trim());
  }
  return (name) => byName.get(name.toLowerCase()) || undefined;
}

/** Equal-length buffers for timingSafeEqual; a different length is simply a mismatch. */
function constantTimeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Accepts `sha-256=<base64>` (also RFC 9530's `sha-256=:<base64>:`), bare hex, or bare base64. */
function digestBytes(value: string): Buffer {
  const prefixed = /^sha-256=:?([^:]*):?$/i.exec(value);
  if (prefixed) return Buffer.from(prefixed[1] ?? '', 'base64');
  if (/^[0-9a-f]{64}$/i.test(value)) return Buffer.from(value, 'hex');
  return Buffer.from(value, 'base64');
}

function parseUnixSeconds(value: string): number | null {
  const seconds = /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(seconds) ? seconds : null;
}

function signatureMatches(check: SignatureCheck, received: string): boolean {
  const strip = (value: string) =>
    check.optionalPrefix && value.startsWith(check.optionalPrefix) ? value.slice(check.optionalPrefix.length) : value;
  const expected = Buffer.from(strip(check.expected));
  const candidates = check.list ? received.split(/\s+/) : [received];
  // Compare every candidate, without stopping at the first match.
  return candidates.reduce(
    (found, candidate) => constantTimeEqual(Buffer.from(strip(candidate)), expected) || found,
    false,
  );
}

export function verifyWebhook(input: VerifyInput): VerifyResult {
  const recipe = RECIPES[input.sender];
  const lookup = headerLookup(input.headers);
  const missing = recipe.required.find((name) => lookup(name) === undefined);
  if (missing) return fail('missing_header', missing, `${missing} header is missing`);
  const read: Read = (name) => lookup(name) ?? '';

  if (recipe.digest && !constantTimeEqual(digestBytes(read(recipe.digest)), sha256(input.rawBody))) {
    return fail('content_digest', recipe.digest, 'body does not match the content digest');
  }

  const timestamp = parseUnixSeconds(read(recipe.timestamp));
  if (timestamp === null) return fail('timestamp', recipe.timestamp, `${recipe.timestamp} is not Unix seconds`);
  const now = input.now ?? Math.floor(Date.now() / 1000);
  const tolerance = input.toleranceSec ?? DEFAULT_TOLERANCE_SEC;
  if (Math.abs(now - timestamp) > tolerance) {
    return fail(
      'timestamp',
      recipe.timestamp,
      `timestamp is more than ${tolerance}s ${timestamp < now ? 'old' : 'in the future'}`,
    );
  }

  for (const check of recipe.signatures(input.secret, read, timestamp, input.rawBody)) {
    if (!signatureMatches(check, read(check.header)))
      return fail('signature', check.header, `${check.header} does not match`);
  }
  return { valid: true };
}
