import type { EventSender } from '../../platform/events.ts';
import { hash } from 'node:crypto';
import type { EndpointRow } from './repo/endpoints.ts';
import type { NewDelivery, OutboxRow, Receivers } from './repo/deliveries.ts';
import type { RecipientSettings, UrlFormat, WebhookSettingsRow } from './repo/settings.ts';
import { splitUrls, type EventRouting, type UrlField } from './routing.ts';
import { maxAttempts } from './domain.ts';

/** A delivery the relay is about to attempt, with the event and the receiver it is prepared from. */
export interface PlannedDelivery {
  delivery: NewDelivery;
  event: OutboxRow;
  receiver: { settings: RecipientSettings } | { endpoint: EndpointRow };
}

/**
 * The delivery key (X-Webhook-Event-Id, X-Webhook-Id, the CloudEvents id where the body has none): a UUID
 * (version 8, RFC 9562) derived from the event's random seed and the receiver. The relay sends a first attempt
 * before its delivery row exists; a relay that dies before writing it leaves the event unpublished, and the
 * next relay sends it again under this same key.
 */
export function deliveryKey(seed: string, settingsId: number | null, endpointId: number | null, url: string): string {
  const h = hash('sha256', `${seed}\n${settingsId ?? ''}\n${endpointId ?? ''}\n${url}`, 'buffer').subarray(0, 16);
  h[6] = (h[6]! & 0x0f) | 0x80;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/**
 * One delivery per (event, receiver, URL). Tenant events go to settings rows: merchant-level settings receive
 * every event of the business, a customer override the events that concern that customer. Provider events go
 * to the endpoint of the provider they name, OHP events to the business's subscriptions.
 */
export function planDeliveries(routing: EventRouting, events: OutboxRow[], receivers: Receivers): PlannedDelivery[] {
  const planned: PlannedDelivery[] = [];
  for (const e of events) {
    const sender = routing.senderOf(e.event_type);
    const add = (receiver: PlannedDelivery['receiver'], owner: number, url: string, format: UrlFormat, sw: boolean) => {
      const settingsId = 'settings' in receiver ? receiver.settings.id : null;
      const endpointId = 'endpoint' in receiver ? receiver.endpoint.id : null;
      planned.push({
        event: e,
        receiver,
        delivery: {
          business_id: owner,
          outbox_event_id: e.id,
          settings_id: settingsId,
          endpoint_id: endpointId,
          sender,
          url,
          format,
          standard_webhooks: sw,
          delivery_key: deliveryKey(e.key_seed, settingsId, endpointId, url),
          event_id: e.event_id,
          event_type: e.event_type,
          reference_type: e.reference_type,
          reference_id: e.reference_id,
          max_attempts: maxAttempts(sender),
        },
      });
    };
    if (sender === 'tenant') {
      for (const s of receivers.settings) {
        if (s.business_id !== e.business_id || !s.sign_secret) continue;
        for (const url of receivingUrls(routing, e, s)) {
          const f = s.url_formats[url] ?? { format: 'native', standard_webhooks: false };
          add({ settings: s }, e.business_id, url, f.format, f.standard_webhooks);
        }
      }
      continue;
    }
    for (const ep of receivers.endpoints) {
      const url = endpointUrl(e, sender, ep);
      if (url) add({ endpoint: ep }, ep.business_id, url, ep.format, ep.standard_webhooks);
    }
  }
  return planned;
}

/**
 * Where a provider or OHP endpoint receives an event, or null when it does not. Partner locker sandbox events
 * (livemode false) go to the sandbox URL when there is one, and nowhere when the sandbox switch is off.
 */
function endpointUrl(e: OutboxRow, sender: EventSender, ep: EndpointRow): string | null {
  if (ep.kind !== sender) return null;
  const owner = sender === 'ohp' ? e.business_id : e.provider_id;
  if (ep.business_id !== owner || (ep.events.length > 0 && !ep.events.includes(e.event_type))) return null;
  if (sender === 'partner_locker' && e.payload.livemode === false)
    return ep.sandbox_enabled ? (ep.sandbox_url ?? ep.url) : null;
  return ep.url;
}

/**
 * The URLs a test send of `eventType` reaches: those of the event's settings field (restrictions do not apply
 * to a test), or every configured URL for the generic test event; only `url` when one is named.
 */
export function testTargets(
  routing: EventRouting,
  s: WebhookSettingsRow,
  eventType: string,
  url: string | null,
): string[] {
  const field = routing.urlFieldFor(eventType, { device_order_events: null, order_lifecycle_events: null });
  const urls = field ? splitUrls(s.urls[field]) : [...new Set(Object.values(s.urls).flatMap((v) => splitUrls(v)))];
  return url ? urls.filter((u) => u === url) : urls;
}

/** The URLs of a settings row that receive an event. */
function receivingUrls(routing: EventRouting, e: OutboxRow, s: WebhookSettingsRow): string[] {
  if (e.target_settings_id !== null)
    return e.target_settings_id === s.id ? testTargets(routing, s, e.event_type, e.target_url) : [];
  if (s.customer_id !== null && s.customer_id !== e.customer_id) return [];
  // An async batch's order.created: a recipient with the postback URL hears of these orders in the batch's postback.
  if (e.skip_if_url_field && splitUrls(s.urls[e.skip_if_url_field as UrlField]).length > 0) return [];
  const field = routing.urlFieldFor(e.event_type, s);
  return field ? splitUrls(s.urls[field]) : [];
}
