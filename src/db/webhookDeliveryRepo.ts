import type { Em } from './orm.ts';
import type { UrlFormatSetting, WebhookSettingsRow } from './webhookSettingsRepo.ts';
import { splitUrls, urlFieldFor } from '../webhooks/routing.ts';
import { maxAttempts, type DeliverySender } from '../webhooks/schedule.ts';
import { payloadFor, type PriceFamily, type RecipientRow } from '../webhooks/transform.ts';

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
  target_settings_id: number | null;
  target_url: string | null;
}

export interface DeliveryRow {
  id: number;
  business_id: number;
  outbox_event_id: number;
  settings_id: number;
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
    `select id, business_id, customer_id, event_id, event_type, reference_type, reference_id, payload, family, carrier_held, target_settings_id, target_url
     from outbox_event where published_at is null order by id limit ? for update skip locked`, [limit]);
}

/**
 * One delivery per (event, settings row, URL): merchant-level settings receive every event of the business,
 * a customer override the events that concern that customer. Marks the events published; returns the new
 * deliveries (a repeat fan-out of the same event creates nothing), each with its first attempt already
 * claimed for the relay (attempts 1, leased), so the hot path needs no second claim.
 */
export async function fanOut(tx: Em, events: OutboxRow[], settings: WebhookSettingsRow[]): Promise<DeliveryRow[]> {
  const values: unknown[][] = [];
  for (const e of events) {
    for (const s of settings) {
      if (s.business_id !== e.business_id || !s.sign_secret) continue;
      for (const url of receivingUrls(e, s)) {
        const f = s.url_formats[url] ?? { format: 'native', standard_webhooks: false };
        values.push([e.business_id, e.id, s.id, 'tenant', url, f.format, f.standard_webhooks, e.event_id, e.event_type, e.reference_type, e.reference_id, maxAttempts('tenant')]);
      }
    }
  }
  let created: DeliveryRow[] = [];
  if (values.length) {
    created = await tx.execute<DeliveryRow[]>(
      `insert into webhook_delivery (business_id, outbox_event_id, settings_id, sender, url, format, standard_webhooks, event_id, event_type, reference_type, reference_id, max_attempts, attempts, locked_until)
       values ${values.map(() => `(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, now() + interval '${FIRST_LEASE_SEC} seconds')`).join(', ')}
       on conflict (outbox_event_id, settings_id, url) do nothing returning *`, values.flat());
  }
  if (events.length) await tx.execute('update outbox_event set published_at = now() where id in (?)', [events.map((e) => e.id)]);
  return created;
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

export interface ClaimedAttempt {
  delivery: DeliveryRow;
  attempt: number;
  /** Already shaped for the receiver. */
  payload: Record<string, unknown>;
  secret: string | null;
}

/**
 * Takes the next attempt of an open delivery under a short lease, so the relay and a retry workflow never
 * send the same delivery at once. Null when it is finished or someone else holds it.
 */
export async function claimAttempt(em: Em, deliveryId: number, leaseSec: number): Promise<ClaimedAttempt | null> {
  const [row] = await em.execute<(DeliveryRow & Pick<OutboxRow, 'payload' | 'family' | 'carrier_held'> & RecipientRow & { sign_secret: string | null })[]>(
    `with d as (
       update webhook_delivery set attempts = attempts + 1, locked_until = now() + make_interval(secs => ?), updated_at = now()
       where id = ? and status in ('pending', 'retrying') and attempts < max_attempts and (locked_until is null or locked_until < now())
       returning *)
     select d.*, o.payload, o.family, o.carrier_held, s.sign_secret, s.customer_id, coalesce(u.hidden_price_families, '{}') as hidden_price_families
     from d join outbox_event o on o.id = d.outbox_event_id join webhook_settings s on s.id = d.settings_id left join app_user u on u.id = s.customer_id`,
    [leaseSec, deliveryId]);
  if (!row) return null;
  const { payload, family, carrier_held, sign_secret, customer_id, hidden_price_families, ...delivery } = row;
  return {
    delivery, attempt: delivery.attempts, secret: sign_secret,
    payload: payloadFor({ event_type: delivery.event_type, payload, family, carrier_held }, { customer_id, hidden_price_families }),
  };
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

export async function markRetryWorkflowStarted(em: Em, deliveryIds: number[]): Promise<void> {
  if (deliveryIds.length) await em.execute('update webhook_delivery set retry_workflow_started = true where id in (?)', [deliveryIds]);
}

/** Open deliveries nobody is driving: the first attempt never finished or its retry workflow never started. */
export async function orphanedDeliveries(em: Em, olderThanSec: number, limit: number): Promise<Pick<DeliveryRow, 'id' | 'business_id' | 'sender' | 'attempts' | 'round' | 'round_base'>[]> {
  return em.execute(
    `select id, business_id, sender, attempts, round, round_base from webhook_delivery
     where status in ('pending', 'retrying') and not retry_workflow_started and updated_at < now() - make_interval(secs => ?)
       and (locked_until is null or locked_until < now())
     order by updated_at limit ?`, [olderThanSec, limit]);
}

export async function markDead(em: Em, deliveryId: number): Promise<void> {
  await em.execute("update webhook_delivery set status = 'dead', locked_until = null, updated_at = now() where id = ? and status in ('pending', 'retrying')", [deliveryId]);
}
