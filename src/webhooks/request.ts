import { signStandardWebhooks, signTenant, standardWebhooksKey } from './signing.ts';
import type { UrlFormat } from '../db/webhookSettingsRepo.ts';

/** CloudEvents attribute values fixed by docs/webhooks.md. */
export const CE_TYPE_PREFIX = 'org.opentms.';
const CE_BUSINESS = 'tmsbusiness';
const CE_ATTEMPT = 'tmsattempt';

export interface TenantDelivery {
  /** X-Webhook-Event-Id: fixed per (event, endpoint). */
  deliveryKey: string;
  businessId: number;
  eventType: string;
  referenceType: string;
  referenceId: string;
  format: UrlFormat;
  standardWebhooks: boolean;
  /** The native event body as the outbox holds it. */
  payload: Record<string, unknown>;
}

export interface OutgoingRequest {
  headers: Record<string, string>;
  body: string;
}

/** The CloudEvents attributes of an event; the attempt number only exists in binary mode (see docs). */
function cloudEventAttributes(d: TenantDelivery, id: string, publicBaseUrl: string) {
  const time = typeof d.payload.occurred_at === 'string' ? d.payload.occurred_at : new Date().toISOString();
  return {
    specversion: '1.0',
    id,
    source: `${publicBaseUrl}/api/v1/businesses/${d.businessId}`,
    type: `${CE_TYPE_PREFIX}${d.eventType}`,
    subject: `${d.referenceType}/${d.referenceId}`,
    time,
    dataschema: `${publicBaseUrl}/api/asyncapi-webhooks.json#/components/schemas/${d.eventType}`,
    [CE_BUSINESS]: String(d.businessId),
  };
}

/**
 * Builds one attempt of a tenant delivery: the body in its URL's format, signed now. The native body and the
 * structured CloudEvent are the same bytes on every retry; only timestamps, signatures and the attempt differ.
 */
export function buildTenantRequest(d: TenantDelivery, secret: string, attempt: number, nowSec: number, publicBaseUrl: string): OutgoingRequest {
  const id = typeof d.payload.event_id === 'string' ? d.payload.event_id : d.deliveryKey;
  const attrs = cloudEventAttributes(d, id, publicBaseUrl);
  const structured = d.format === 'ce_structured';
  const body = JSON.stringify(structured ? { ...attrs, datacontenttype: 'application/json', data: d.payload } : d.payload);
  const contentType = structured ? 'application/cloudevents+json' : 'application/json';
  const headers: Record<string, string> = signTenant({ secret, body, timestamp: nowSec, eventId: d.deliveryKey, contentType });
  if (d.format === 'ce_binary') {
    for (const [k, v] of Object.entries(attrs)) headers[`ce-${k}`] = v;
    headers[`ce-${CE_ATTEMPT}`] = String(attempt);
  }
  if (d.standardWebhooks) {
    const { 'Content-Type': _ct, ...sw } = signStandardWebhooks({ keys: [standardWebhooksKey(secret)], id, timestamp: nowSec, body });
    Object.assign(headers, sw);
  }
  return { headers, body };
}
