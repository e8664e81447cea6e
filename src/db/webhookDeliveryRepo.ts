import type { Em } from './orm.ts';
import { liveSecrets, type EndpointRow } from './webhookEndpointRepo.ts';
import type { RecipientSettings, UrlFormat, UrlFormatSetting, WebhookSettingsRow } from './webhookSettingsRepo.ts';
import type { SigningKeys } from '../webhooks/request.ts';
import { senderOf, splitUrls, urlFieldFor } from '../webhooks/routing.ts';
import { maxAttempts, type DeliverySender } from '../webhooks/schedule.ts';
import { payloadFor, type PriceFamily } from '../webhooks/transform.ts';

/** How long the relay holds a freshly created delivery for its first attempt. */
export const FIRST_LEASE_SEC = 30;

export interface OutboxRow {
  id: number;
  business_id: number;
  customer_id: number | null;
  event_id: string;
  event_type: string;
  reference_type: string;
  reference_id: string;
  payload: Record<string, unknown>;
  family: PriceFamily | null;
  carrier_held: boolean;
  provider_id: number | null;
  target_settings_id: number | null;
  target_url: string | null;
}

export interface DeliveryRow {
  id: number;
  business_id: number;
  outbox_event_id: number;
  settings_id: number | null;
  endpoint_id: number | null;
  sender: DeliverySender;
  url: string;
  format: UrlFormatSetting['format'];
  standard_webhooks: boolean;
  delivery_key: string;
  event_id: string;
  event_type: string;
  reference_type: string;
  reference_id: string;
  status: 'pending' | 'retrying' | 'delivered' | 'dead';
  attempts: number;
  max_attempts: number;
  round: number;
  round_base: number;
}

/** Claims unpublished outbox rows; other relays skip them until this transaction ends. */
export async function claimOutbox(tx: Em, limit: number): Promise<OutboxRow[]> {
  return tx.execute<OutboxRow[]>(
    `select id, business_id, customer_id, event_id, event_type, reference_type, reference_id, payload, family, carrier_held, provider_id, target_settings_id, target_url
     from outbox_event where published_at is null order by id limit ? for update skip locked`, [limit]);
}

export interface Receivers {
  settings: RecipientSettings[];
  endpoints: EndpointRow[];
}

type NewDelivery = [businessId: number, outboxId: number, settingsId: number | null, endpointId: number | null, sender: DeliverySender, url: string,
  format: UrlFormat, standardWebhooks: boolean, eventId: string, eventType: string, referenceType: string, referenceId: string, maxAttempts: number];

/**
 * One delivery per (event, receiver, URL). Tenant events go to settings rows: merchant-level settings receive
 * every event of the business, a customer override the events that concern that customer. Provider events go
 * to the endpoint of the provider they name, OHP events to the business's subscriptions. Marks the events
 * published; returns the new deliveries (a repeat fan-out of the same event creates nothing), each with its
 * first attempt already claimed for the relay (attempts 1, leased), so the hot path needs no second claim.
 */
export async function fanOut(tx: Em, events: OutboxRow[], receivers: Receivers): Promise<DeliveryRow[]> {
  const values: NewDelivery[] = [];
  for (const e of events) {
    const sender = senderOf(e.event_type);
    const row = (owner: number, settingsId: number | null, endpointId: number | null, url: string, format: UrlFormat, sw: boolean): NewDelivery =>
      [owner, e.id, settingsId, endpointId, sender, url, format, sw, e.event_id, e.event_type, e.reference_type, e.reference_id, maxAttempts(sender)];
    if (sender === 'tenant') {
      for (const s of receivers.settings) {
        if (s.business_id !== e.business_id || !s.sign_secret) continue;
        for (const url of receivingUrls(e, s)) {
          const f = s.url_formats[url] ?? { format: 'native', standard_webhooks: false };
          values.push(row(e.business_id, s.id, null, url, f.format, f.standard_webhooks));
        }
      }
      continue;
    }
    for (const ep of receivers.endpoints) {
      const url = endpointUrl(e, sender, ep);
      if (url) values.push(row(ep.business_id, null, ep.id, url, ep.format, ep.standard_webhooks));
    }
  }
  let created: DeliveryRow[] = [];
  if (values.length) {
    created = await tx.execute<DeliveryRow[]>(
      `insert into webhook_delivery (business_id, outbox_event_id, settings_id, endpoint_id, sender, url, format, standard_webhooks, event_id, event_type, reference_type, reference_id, max_attempts, attempts, locked_until)
       values ${values.map(() => `(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, now() + interval '${FIRST_LEASE_SEC} seconds')`).join(', ')}
       on conflict do nothing returning *`, values.flat());
  }
  if (events.length) await tx.execute('update outbox_event set published_at = now() where id in (?)', [events.map((e) => e.id)]);
  return created;
}

/**
 * Where a provider or OHP endpoint receives an event, or null when it does not. Partner locker sandbox events
 * (livemode false) go to the sandbox URL when there is one, and nowhere when the sandbox switch is off.
 */
function endpointUrl(e: OutboxRow, sender: DeliverySender, ep: EndpointRow): string | null {
  if (ep.kind !== sender) return null;
  const owner = sender === 'ohp' ? e.business_id : e.provider_id;
  if (ep.business_id !== owner || (ep.events.length > 0 && !ep.events.includes(e.event_type))) return null;
  if (sender === 'partner_locker' && e.payload.livemode === false) return ep.sandbox_enabled ? (ep.sandbox_url ?? ep.url) : null;
  return ep.url;
}

/**
 * The URLs a test send of `eventType` reaches: those of the event's settings field (restrictions do not apply
 * to a test), or every configured URL for the generic test event; only `url` when one is named.
 */
export function testTargets(s: WebhookSettingsRow, eventType: string, url: string | null): string[] {
  const field = urlFieldFor(eventType, { device_order_events: null, order_lifecycle_events: null });
  const urls = field ? splitUrls(s.urls[field]) : [...new Set(Object.values(s.urls).flatMap((v) => splitUrls(v)))];
  return url ? urls.filter((u) => u === url) : urls;
}

/** The URLs of a settings row that receive an event. */
function receivingUrls(e: OutboxRow, s: WebhookSettingsRow): string[] {
  if (e.target_settings_id !== null) return e.target_settings_id === s.id ? testTargets(s, e.event_type, e.target_url) : [];
  if (s.customer_id !== null && s.customer_id !== e.customer_id) return [];
  const field = urlFieldFor(e.event_type, s);
  return field ? splitUrls(s.urls[field]) : [];
}

/** What an attempt sends: the payload shaped for its receiver, the merchant it belongs to, the signing keys. */
export interface PreparedEvent {
  payload: Record<string, unknown>;
  eventBusinessId: number;
  keys: SigningKeys | null;
}

export interface ClaimedAttempt extends PreparedEvent {
  delivery: DeliveryRow;
  attempt: number;
}

type EventFacts = Pick<OutboxRow, 'business_id' | 'event_type' | 'payload' | 'family' | 'carrier_held'>;

/** The same preparation for the relay's first attempt and every retry. Endpoints are never customer accounts. */
export function prepare(e: EventFacts, receiver: { settings: RecipientSettings } | { endpoint: EndpointRow }): PreparedEvent {
  if ('endpoint' in receiver) {
    return { payload: e.payload, eventBusinessId: e.business_id, keys: { secrets: liveSecrets(receiver.endpoint), keyId: receiver.endpoint.key_id } };
  }
  const s = receiver.settings;
  return { payload: payloadFor(e, s), eventBusinessId: e.business_id, keys: s.sign_secret ? { secrets: [s.sign_secret], keyId: null } : null };
}

/**
 * Takes the next attempt of an open delivery under a short lease, so the relay and a retry workflow never
 * send the same delivery at once. Null when it is finished or someone else holds it.
 */
export async function claimAttempt(em: Em, deliveryId: number, leaseSec: number): Promise<ClaimedAttempt | null> {
  const [row] = await em.execute<{ delivery: DeliveryRow; event: EventFacts; settings: RecipientSettings | null; endpoint: EndpointRow | null }[]>(
    `with d as (
       update webhook_delivery set attempts = attempts + 1, locked_until = now() + make_interval(secs => ?), updated_at = now()
       where id = ? and status in ('pending', 'retrying') and attempts < max_attempts and (locked_until is null or locked_until < now())
       returning *)
     select to_jsonb(d) as delivery,
       jsonb_build_object('business_id', o.business_id, 'event_type', o.event_type, 'payload', o.payload, 'family', o.family, 'carrier_held', o.carrier_held) as event,
       case when s.id is null then null else to_jsonb(s) || jsonb_build_object('hidden_price_families', coalesce(u.hidden_price_families, '{}')) end as settings,
       to_jsonb(ep) as endpoint
     from d join outbox_event o on o.id = d.outbox_event_id
       left join webhook_settings s on s.id = d.settings_id left join app_user u on u.id = s.customer_id
       left join webhook_endpoint ep on ep.id = d.endpoint_id`,
    [leaseSec, deliveryId]);
  if (!row) return null;
  const prepared = row.endpoint ? prepare(row.event, { endpoint: row.endpoint }) : prepare(row.event, { settings: row.settings! });
  return { ...prepared, delivery: row.delivery, attempt: row.delivery.attempts };
}

export interface AttemptRecord {
  deliveryId: number;
  businessId: number;
  attempt: number;
  url: string;
  requestHeaders: Record<string, string>;
  bodySha256: string;
  bodyBytes: number;
  responseStatus: number | null;
  latencyMs: number;
  /** Epoch ms when the request was sent. */
  attemptedAt: number;
  error: string | null;
  /** delivered on 2xx; dead when this was the last allowed attempt; retrying otherwise. */
  outcome: 'delivered' | 'retrying' | 'dead';
}

/** Writes the delivery log rows and the deliveries' new states in one statement, releasing the leases. */
export async function recordAttempts(em: Em, records: AttemptRecord[]): Promise<void> {
  if (records.length === 0) return;
  const rows = records.map((r) => ({
    delivery_id: r.deliveryId, business_id: r.businessId, attempt: r.attempt, url: r.url, request_headers: r.requestHeaders, body_sha256: r.bodySha256,
    body_bytes: r.bodyBytes, response_status: r.responseStatus, latency_ms: r.latencyMs, error: r.error, outcome: r.outcome,
  }));
  await em.execute(
    `with r as (
       select * from jsonb_to_recordset(?::jsonb) as x(delivery_id bigint, business_id int, attempt int, url text, request_headers jsonb,
         body_sha256 text, body_bytes int, response_status int, latency_ms int, error text, outcome text)),
     a as (
       insert into webhook_attempt (delivery_id, business_id, attempt, url, request_headers, body_sha256, body_bytes, response_status, latency_ms, error)
       select delivery_id, business_id, attempt, url, request_headers, body_sha256, body_bytes, response_status, latency_ms, error from r)
     update webhook_delivery d set status = r.outcome, last_status = r.response_status, last_error = r.error, locked_until = null, updated_at = now(),
       delivered_at = case when r.outcome = 'delivered' then now() else d.delivered_at end
     from r where d.id = r.delivery_id`,
    [JSON.stringify(rows)]);
}

/** Records which workflow drives the deliveries' current round. */
export async function markRetryWorkflowStarted(em: Em, workflowId: string, deliveryIds: number[]): Promise<void> {
  if (deliveryIds.length) await em.execute('update webhook_delivery set retry_workflow_id = ? where id in (?)', [workflowId, deliveryIds]);
}

/** Open deliveries nobody is driving: the first attempt never finished or its retry workflow never started. */
export async function orphanedDeliveries(em: Em, olderThanSec: number, limit: number): Promise<Pick<DeliveryRow, 'id' | 'business_id' | 'sender' | 'attempts' | 'round' | 'round_base'>[]> {
  return em.execute(
    `select id, business_id, sender, attempts, round, round_base from webhook_delivery
     where status in ('pending', 'retrying') and retry_workflow_id is null and updated_at < now() - make_interval(secs => ?)
       and (locked_until is null or locked_until < now())
     order by updated_at limit ?`, [olderThanSec, limit]);
}

export async function markDead(em: Em, deliveryIds: number[]): Promise<void> {
  if (deliveryIds.length === 0) return;
  await em.execute("update webhook_delivery set status = 'dead', locked_until = null, updated_at = now() where id in (?) and status in ('pending', 'retrying')", [deliveryIds]);
}

/** The URL each delivery is sent to. */
export async function deliveryUrls(em: Em, deliveryIds: number[]): Promise<Map<number, string>> {
  if (deliveryIds.length === 0) return new Map();
  const rows = await em.execute<{ id: string | number; url: string }[]>('select id, url from webhook_delivery where id in (?)', [deliveryIds]);
  return new Map(rows.map((r) => [Number(r.id), r.url]));
}

/** Where deliveries stand, and whether a lease is still held on them. */
export async function deliveryStates(em: Em, deliveryIds: number[]): Promise<{ id: number; status: DeliveryRow['status']; attempts: number; leased: boolean }[]> {
  if (deliveryIds.length === 0) return [];
  const rows = await em.execute<{ id: string | number; status: DeliveryRow['status']; attempts: number; leased: boolean }[]>(
    'select id, status, attempts, coalesce(locked_until > now(), false) as leased from webhook_delivery where id in (?)', [deliveryIds]);
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}
