import { executeBound, type Em } from './orm.ts';
import { currentTraceParent } from '../telemetry/tracing.ts';

/** The price families an event can belong to; a receiver whose account hides a family gets its events without prices. */
export const PRICE_FAMILIES = [
  'local_delivery',
  'label_service',
  'shipping_service',
  'ltl_service',
  'storage_services',
  'moving_services',
  'device_orders',
] as const;
export type PriceFamily = (typeof PRICE_FAMILIES)[number];

export interface NewOutboxEvent {
  businessId: number;
  /** The customer account the event concerns, so its webhook override receives it. */
  customerId?: number | null;
  eventId: string;
  eventType: string;
  referenceType: string;
  referenceId: string;
  /** The native body; it names its event in `event`. */
  payload: Record<string, unknown>;
  family?: PriceFamily | null;
  carrierHeld?: boolean;
  /** The provider business a partner locker or third-party event is addressed to. */
  providerId?: number | null;
  /** A test send: only this settings row (and this URL of it) receives the event. */
  targetSettingsId?: number | null;
  targetUrl?: string | null;
  /**
   * A settings URL field: a settings row with a URL in it does not receive this event (an async batch's
   * order.created, when the recipient hears of the batch's orders in its order_create_async_postback_url).
   */
  skipIfUrlField?: string | null;
}

/**
 * The one writer of the outbox: writes events in the caller's transaction, in one statement however many (the
 * insert trigger wakes the relay), with the active trace's `traceparent` for their POSTs. Every module that publishes an event calls it in the transaction of the
 * change that caused the event; the columns it leaves out (id, key_seed, created_at, published_at) take their defaults.
 *
 * An event nobody can receive is not written: its business has no webhook settings and neither it nor the
 * provider it names has a live endpoint (`webhook_audience`, which first takes those owners' receiver locks in
 * share mode, so a receiver added meanwhile waits for this transaction, and one added before it is seen).
 */
export async function insertOutboxEvents(em: Em, events: readonly NewOutboxEvent[]): Promise<void> {
  if (events.length === 0) return;
  if (!em.isInTransaction()) return em.transactional((tx) => insertOutboxEvents(tx, events));
  const audience = await executeBound<{ business_id: number; provider_id: number | null; reached: boolean }>(
    em,
    'select * from webhook_audience($1::int[], $2::int[])',
    [events.map((e) => e.businessId), events.map((e) => e.providerId ?? null)],
  );
  const reached = new Set(audience.filter((a) => a.reached).map((a) => `${a.business_id}:${a.provider_id}`));
  const written = events.filter((e) => reached.has(`${e.businessId}:${e.providerId ?? null}`));
  if (written.length === 0) return;
  const trace_parent = currentTraceParent();
  const rows = written.map((e) => ({
    business_id: e.businessId,
    customer_id: e.customerId ?? null,
    event_id: e.eventId,
    event_type: e.eventType,
    reference_type: e.referenceType,
    reference_id: e.referenceId,
    payload: e.payload,
    family: e.family ?? null,
    carrier_held: e.carrierHeld ?? false,
    provider_id: e.providerId ?? null,
    target_settings_id: e.targetSettingsId ?? null,
    target_url: e.targetUrl ?? null,
    skip_if_url_field: e.skipIfUrlField ?? null,
    trace_parent,
  }));
  // Bound, not written into the SQL text: a batch is one large JSON value.
  await executeBound(
    em,
    `insert into outbox_event (business_id, customer_id, event_id, event_type, reference_type, reference_id, payload, family, carrier_held, provider_id, target_settings_id, target_url, skip_if_url_field, trace_parent)
     select business_id, customer_id, event_id, event_type, reference_type, reference_id, payload, family, carrier_held, provider_id, target_settings_id, target_url, skip_if_url_field, trace_parent
     from jsonb_to_recordset($1::jsonb) as e(business_id int, customer_id int, event_id text, event_type text, reference_type text, reference_id text,
       payload jsonb, family text, carrier_held boolean, provider_id int, target_settings_id int, target_url text, skip_if_url_field text, trace_parent text)`,
    [JSON.stringify(rows)],
  );
}

export const insertOutboxEvent = (em: Em, e: NewOutboxEvent): Promise<void> => insertOutboxEvents(em, [e]);
