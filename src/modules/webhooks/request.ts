import type { EventSender } from '../../platform/events.ts';
import {
  signOhp,
  signPartnerLocker,
  signStandardWebhooks,
  signTenant,
  signThirdParty,
  standardWebhooksKey,
} from './signing.ts';
import type { UrlFormat } from './repo/settings.ts';

/** CloudEvents attribute values fixed by docs/webhooks.md. */
export const CE_TYPE_PREFIX = 'org.opentms.';
const CE_BUSINESS = 'tmsbusiness';
const CE_ATTEMPT = 'tmsattempt';

export interface OutgoingDelivery {
  sender: EventSender;
  /** Fixed per (event, endpoint): X-Webhook-Event-Id (tenant), X-Webhook-Id (providers). */
  deliveryKey: string;
  /** The business the event belongs to (CloudEvents source). */
  businessId: number;
  eventType: string;
  referenceType: string;
  referenceId: string;
  format: UrlFormat;
  standardWebhooks: boolean;
  /** The event body, already shaped for the receiver. */
  payload: Record<string, unknown>;
}

/** The keys that sign an attempt: current first; a provider's previous key during its grace period. */
export interface SigningKeys {
  secrets: readonly string[];
  keyId: string | null;
}

export interface OutgoingRequest {
  headers: Record<string, string>;
  body: string;
}

const text = (v: unknown) => (typeof v === 'string' && v ? v : null);

/** The id receivers deduplicate on: the body's event_id (or OHP message_id) when it has one, else the delivery key. */
export function stableId(d: OutgoingDelivery): string {
  return text(d.payload.event_id) ?? text(d.payload.message_id) ?? d.deliveryKey;
}

/** The CloudEvents attributes of an event; the attempt number only exists in binary mode (see docs). */
function cloudEventAttributes(d: OutgoingDelivery, publicBaseUrl: string) {
  return {
    specversion: '1.0',
    id: stableId(d),
    source: `${publicBaseUrl}/api/v1/businesses/${d.businessId}`,
    type: `${CE_TYPE_PREFIX}${d.eventType}`,
    subject: `${d.referenceType}/${d.referenceId}`,
    time: text(d.payload.occurred_at) ?? new Date().toISOString(),
    dataschema: `${publicBaseUrl}/api/asyncapi-webhooks.json#/components/schemas/${d.eventType}`,
    [CE_BUSINESS]: String(d.businessId),
  };
}

/** Sandbox and test events: partner locker sandbox has livemode false; third-party tests have data.test. */
export function isTestEvent(payload: Record<string, unknown>): boolean {
  const data = payload.data as Record<string, unknown> | undefined;
  return payload.livemode === false || data?.test === true;
}

/** The sender's own headers and signature, per the specification's table. */
function senderHeaders(
  d: OutgoingDelivery,
  keys: SigningKeys,
  attempt: number,
  body: string,
  timestamp: number,
  contentType: string,
): Record<string, string> {
  switch (d.sender) {
    case 'tenant':
      return signTenant({ secret: keys.secrets[0]!, body, timestamp, eventId: d.deliveryKey, contentType });
    case 'ohp':
      return signOhp({
        secret: keys.secrets[0]!,
        event: d.eventType,
        messageId: stableId(d),
        body,
        timestamp,
        contentType,
      });
    case 'partner_locker':
    case 'third_party': {
      const input = {
        secrets: keys.secrets,
        keyId: keys.keyId ?? '',
        webhookId: d.deliveryKey,
        deliveryId: `${d.deliveryKey}.${attempt}`,
        body,
        timestamp,
        contentType,
      };
      const test = isTestEvent(d.payload);
      if (d.sender === 'partner_locker') return signPartnerLocker({ ...input, test });
      return test ? { ...signThirdParty(input), 'X-Webhook-Test': '1' } : signThirdParty(input);
    }
  }
}

/**
 * Builds one attempt: the body in the endpoint's format, signed now. The native body and the structured
 * CloudEvent are the same bytes on every retry; only timestamps, signatures and the attempt differ.
 */
export function buildRequest(
  d: OutgoingDelivery,
  keys: SigningKeys,
  attempt: number,
  nowSec: number,
  publicBaseUrl: string,
): OutgoingRequest {
  const attrs = cloudEventAttributes(d, publicBaseUrl);
  const structured = d.format === 'ce_structured';
  const body = JSON.stringify(
    structured ? { ...attrs, datacontenttype: 'application/json', data: d.payload } : d.payload,
  );
  const contentType = structured ? 'application/cloudevents+json' : 'application/json';
  const headers = senderHeaders(d, keys, attempt, body, nowSec, contentType);
  if (d.format === 'ce_binary') {
    for (const [k, v] of Object.entries(attrs)) headers[`ce-${k}`] = v;
    headers[`ce-${CE_ATTEMPT}`] = String(attempt);
  }
  if (d.standardWebhooks) {
    const { 'Content-Type': _ct, ...sw } = signStandardWebhooks({
      keys: keys.secrets.map(standardWebhooksKey),
      id: attrs.id,
      timestamp: nowSec,
      body,
    });
    Object.assign(headers, sw);
  }
  return { headers, body };
}
