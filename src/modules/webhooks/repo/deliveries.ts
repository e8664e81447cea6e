import type { EventSender } from '../../../platform/events.ts';
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import { liveSecrets, openEndpoint, type EndpointRow } from './endpoints.ts';
import { openSettings, type RecipientSettings, type UrlFormatSetting } from './settings.ts';
import type { SigningKeys } from '../request.ts';
import { payloadFor, type PriceFamily } from '../transform.ts';

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
  /** A settings URL field: a settings row with a URL in it does not receive this event (NewOutboxEvent.skipIfUrlField). */
  skip_if_url_field: string | null;
  /** Random per event (none on events published before it existed); delivery keys derive from it (fanOut.ts). */
  key_seed: string;
  /** The trace the event's POSTs continue (null with tracing off). */
  trace_parent: string | null;
}

export interface DeliveryRow {
  id: number;
  business_id: number;
  outbox_event_id: number;
  settings_id: number | null;
  endpoint_id: number | null;
  sender: EventSender;
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

/** A delivery before its row exists: the relay writes it with its first attempt. */
export type NewDelivery = Omit<DeliveryRow, 'id' | 'status' | 'attempts' | 'round' | 'round_base'>;

/**
 * How long a claim may sit idle while its first attempts are under way: 60 s, which covers 200 deliveries (32
 * at a time, 3 s each at worst: 21 s) with room to spare; a batch that fans out to more extends it
 * (extendClaimIdleLimit). Past it the server ends the session and releases the claim (claim_outbox).
 */
export const CLAIM_IDLE_LIMIT_SEC = 60;

export interface Receivers {
  settings: RecipientSettings[];
  endpoints: EndpointRow[];
}

/**
 * Claims up to `limit` unpublished outbox rows, which other relays skip until this transaction ends, with the
 * receivers they may go to: every settings row of their businesses (merchant level and customer overrides),
 * the OHP subscriptions of their businesses and the endpoints of the providers they name. One round trip.
 *
 * An event whose business has no settings row and whose business and provider have no live endpoint has nobody
 * to go to (planDeliveries would plan nothing for it): the same statement marks it published, and only the
 * others come back. Such events are mostly not written at all (insertOutboxEvents); these are the ones whose
 * last receiver went away after they were written. `claimed` counts both kinds.
 */
export async function claimOutbox(
  tx: Em,
  limit: number,
): Promise<{ claimed: number; events: OutboxRow[]; receivers: Receivers; lagSeconds: number[] }> {
  const [row] = await tx.execute<
    { claimed: number; events: OutboxRow[]; settings: RecipientSettings[]; endpoints: EndpointRow[]; lags: number[] }[]
  >(
    `with e as (select * from claim_outbox(?, ?)),
     reached as (
       select e.* from e where webhook_receiver_exists(e.business_id, e.provider_id)),
     unreached as (update outbox_event o set published_at = now() from e where o.id = e.id and e.id not in (select id from reached))
     select (select count(*) from e)::int as claimed,
       coalesce((select json_agg(r order by r.id) from reached r), '[]') as events,
       coalesce((select json_agg(extract(epoch from clock_timestamp() - e.created_at)::float8) from e), '[]') as lags,
       coalesce((select json_agg(to_jsonb(s) || jsonb_build_object('hidden_price_families', coalesce(u.hidden_price_families, '{}')))
         from webhook_settings s left join app_user u on u.id = s.customer_id where s.business_id in (select business_id from reached)), '[]') as settings,
       coalesce((select json_agg(ep) from webhook_endpoint ep where ep.revoked_at is null and
         ((ep.kind = 'ohp' and ep.business_id in (select business_id from reached)) or (ep.kind <> 'ohp' and ep.business_id in (select provider_id from reached)))), '[]') as endpoints`,
    [limit, `${CLAIM_IDLE_LIMIT_SEC}s`],
  );
  return {
    claimed: row!.claimed,
    events: row!.events,
    receivers: { settings: row!.settings.map(openSettings), endpoints: row!.endpoints.map(openEndpoint) },
    lagSeconds: row!.lags,
  };
}

/** Lets this claim sit idle for `seconds` before the server ends it. */
export async function extendClaimIdleLimit(tx: Em, seconds: number): Promise<void> {
  await executeBound(tx, "select set_config('idle_in_transaction_session_timeout', $1, true)", [
    `${Math.ceil(seconds)}s`,
  ]);
}

/** What an attempt sends: the payload shaped for its receiver, the merchant it belongs to, the signing keys. */
export interface PreparedEvent {
  payload: Record<string, unknown>;
  eventBusinessId: number;
  keys: SigningKeys | null;
  /** The trace the attempt's span joins. */
  traceParent: string | null;
}

export interface ClaimedAttempt extends PreparedEvent {
  delivery: DeliveryRow;
  attempt: number;
}

type EventFacts = Pick<
  OutboxRow,
  'business_id' | 'event_type' | 'payload' | 'family' | 'carrier_held' | 'trace_parent'
>;

/** The same preparation for the relay's first attempt and every retry. Endpoints are never customer accounts. */
export function prepare(
  e: EventFacts,
  receiver: { settings: RecipientSettings } | { endpoint: EndpointRow },
): PreparedEvent {
  if ('endpoint' in receiver) {
    return {
      payload: e.payload,
      eventBusinessId: e.business_id,
      keys: { secrets: liveSecrets(receiver.endpoint), keyId: receiver.endpoint.key_id },
      traceParent: e.trace_parent,
    };
  }
  const s = receiver.settings;
  return {
    payload: payloadFor(e, s),
    eventBusinessId: e.business_id,
    keys: s.sign_secret ? { secrets: [s.sign_secret], keyId: null } : null,
    traceParent: e.trace_parent,
  };
}

/**
 * Takes the next attempt of an open delivery under a short lease, so the relay and a retry workflow never
 * send the same delivery at once. Null when it is finished or someone else holds it.
 */
export async function claimAttempt(em: Em, deliveryId: number, leaseSec: number): Promise<ClaimedAttempt | null> {
  const [row] = await em.execute<
    { delivery: DeliveryRow; event: EventFacts; settings: RecipientSettings | null; endpoint: EndpointRow | null }[]
  >(
    `with d as (
       update webhook_delivery set attempts = attempts + 1, locked_until = now() + make_interval(secs => ?), updated_at = now()
       where id = ? and status in ('pending', 'retrying') and attempts < max_attempts and (locked_until is null or locked_until < now())
       returning *)
     select to_jsonb(d) as delivery,
       jsonb_build_object('business_id', o.business_id, 'event_type', o.event_type, 'payload', o.payload, 'family', o.family, 'carrier_held', o.carrier_held, 'trace_parent', o.trace_parent) as event,
       case when s.id is null then null else to_jsonb(s) || jsonb_build_object('hidden_price_families', coalesce(u.hidden_price_families, '{}')) end as settings,
       to_jsonb(ep) as endpoint
     from d join outbox_event o on o.id = d.outbox_event_id
       left join webhook_settings s on s.id = d.settings_id left join app_user u on u.id = s.customer_id
       left join webhook_endpoint ep on ep.id = d.endpoint_id`,
    [leaseSec, deliveryId],
  );
  if (!row) return null;
  const prepared = row.endpoint
    ? prepare(row.event, { endpoint: openEndpoint(row.endpoint) })
    : prepare(row.event, { settings: openSettings(row.settings!) });
  return { ...prepared, delivery: row.delivery, attempt: row.delivery.attempts };
}

/** What one attempt did, as the delivery log keeps it. */
export interface AttemptOutcome {
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

export interface AttemptRecord extends AttemptOutcome {
  deliveryId: number;
}

/** The columns of a delivery log row, as one JSON object per attempt for jsonb_to_recordset. */
const logColumns = (a: AttemptOutcome) => ({
  attempt: a.attempt,
  url: a.url,
  request_headers: a.requestHeaders,
  body_sha256: a.bodySha256,
  body_bytes: a.bodyBytes,
  response_status: a.responseStatus,
  latency_ms: a.latencyMs,
  attempted_at: a.attemptedAt / 1000,
  error: a.error,
  outcome: a.outcome,
});
const LOG_RECORD = `attempt int, url text, request_headers jsonb, body_sha256 text, body_bytes int, response_status int,
  latency_ms int, attempted_at float8, error text, outcome text`;
const LOG_INSERT = `insert into webhook_attempt (delivery_id, attempt, url, request_headers, body_sha256, body_bytes, response_status, latency_ms, error, attempted_at)`;
const LOG_VALUES =
  'r.attempt, r.url, r.request_headers, r.body_sha256, r.body_bytes, r.response_status, r.latency_ms, r.error, to_timestamp(r.attempted_at)';

/** The columns of a new delivery, as jsonb_to_recordset reads them. */
const DELIVERY_RECORD = `business_id int, outbox_event_id bigint, settings_id int, endpoint_id int, sender text, format text,
  standard_webhooks boolean, delivery_key uuid, event_id text, event_type text, reference_type text, reference_id text, max_attempts int`;
/** The same columns (and url) as both relay writes insert them, in this order on both sides. */
const DELIVERY_COLUMNS = `business_id, outbox_event_id, settings_id, endpoint_id, sender, url, format, standard_webhooks, delivery_key, event_id,
  event_type, reference_type, reference_id, max_attempts`;

/**
 * Writes the delivery log rows and the deliveries' new states in one statement, releasing the leases. The time
 * is the statement's: in the relay's careful write the transaction began before the attempts.
 */
export async function recordAttempts(em: Em, records: AttemptRecord[]): Promise<void> {
  if (records.length === 0) return;
  await executeBound(
    em,
    `with r as (select * from jsonb_to_recordset($1::jsonb) as x(delivery_id bigint, ${LOG_RECORD})),
     a as (${LOG_INSERT} select r.delivery_id, ${LOG_VALUES} from r)
     update webhook_delivery d set status = r.outcome, last_status = r.response_status, last_error = r.error, locked_until = null,
       updated_at = statement_timestamp(), delivered_at = case when r.outcome = 'delivered' then statement_timestamp() else d.delivered_at end
     from r where d.id = r.delivery_id`,
    [JSON.stringify(records.map((r) => ({ delivery_id: r.deliveryId, ...logColumns(r) })))],
  );
}

/**
 * The relay's write for a claimed batch, after its first attempts: each delivery row with its state after
 * attempt 1, that attempt's log row, and the events marked published, in one statement. Returns the deliveries
 * written (a delivery that already exists is left as it is and not returned).
 */
export async function recordFirstAttempts(
  tx: Em,
  sent: { delivery: NewDelivery; attempt: AttemptOutcome }[],
  eventIds: number[],
): Promise<Pick<DeliveryRow, 'id' | 'delivery_key'>[]> {
  const rows = sent.map(({ delivery, attempt }) => ({ ...delivery, ...logColumns(attempt) }));
  const written = await executeBound<Pick<DeliveryRow, 'id' | 'delivery_key'>>(
    tx,
    `with r as (select * from jsonb_to_recordset($1::jsonb) as x(${DELIVERY_RECORD}, ${LOG_RECORD})),
     d as (
       insert into webhook_delivery (${DELIVERY_COLUMNS}, attempts, status, last_status, last_error, updated_at, delivered_at)
       select ${DELIVERY_COLUMNS}, 1, outcome, response_status, error, statement_timestamp(),
         case when outcome = 'delivered' then statement_timestamp() end
       from r on conflict do nothing returning id, delivery_key),
     a as (${LOG_INSERT} select d.id, ${LOG_VALUES} from d join r using (delivery_key)),
     p as (update outbox_event set published_at = now() where id = any($2::bigint[]))
     select id, delivery_key from d`,
    [JSON.stringify(rows), eventIds],
  );
  return written.map((w) => ({ ...w, id: Number(w.id) }));
}

/**
 * The careful form of the relay's write: the deliveries, pending with attempt 1 under way and leased for
 * `leaseSec` (after which the relay's sweep adopts one left so), committed with the events' published mark
 * before anything is sent; `recordAttempts` completes them. Returns the deliveries written.
 */
export async function insertPendingDeliveries(
  tx: Em,
  deliveries: NewDelivery[],
  leaseSec: number,
): Promise<Pick<DeliveryRow, 'id' | 'delivery_key'>[]> {
  const written = await executeBound<Pick<DeliveryRow, 'id' | 'delivery_key'>>(
    tx,
    `insert into webhook_delivery (${DELIVERY_COLUMNS}, attempts, locked_until)
     select ${DELIVERY_COLUMNS}, 1, now() + make_interval(secs => $2)
     from jsonb_to_recordset($1::jsonb) as x(${DELIVERY_RECORD}, url text)
     on conflict do nothing returning id, delivery_key`,
    [JSON.stringify(deliveries), leaseSec],
  );
  return written.map((w) => ({ ...w, id: Number(w.id) }));
}

export async function markPublished(tx: Em, eventIds: number[]): Promise<void> {
  await executeBound(tx, 'update outbox_event set published_at = now() where id = any($1::bigint[])', [eventIds]);
}

/** Records which workflow drives the deliveries' current round. */
export async function markRetryWorkflowStarted(em: Em, workflowId: string, deliveryIds: number[]): Promise<void> {
  if (deliveryIds.length)
    await em.execute('update webhook_delivery set retry_workflow_id = ? where id in (?)', [workflowId, deliveryIds]);
}

/** Open deliveries nobody is driving: the first attempt never finished or its retry workflow never started. */
export async function orphanedDeliveries(
  em: Em,
  olderThanSec: number,
  limit: number,
): Promise<Pick<DeliveryRow, 'id' | 'business_id' | 'sender' | 'attempts' | 'round' | 'round_base'>[]> {
  return em.execute(
    `select id, business_id, sender, attempts, round, round_base from webhook_delivery
     where status in ('pending', 'retrying') and retry_workflow_id is null and updated_at < now() - make_interval(secs => ?)
       and (locked_until is null or locked_until < now())
     order by updated_at limit ?`,
    [olderThanSec, limit],
  );
}

export async function markDead(em: Em, deliveryIds: number[]): Promise<void> {
  if (deliveryIds.length === 0) return;
  await em.execute(
    "update webhook_delivery set status = 'dead', locked_until = null, updated_at = now() where id in (?) and status in ('pending', 'retrying')",
    [deliveryIds],
  );
}

/** The URL each delivery is sent to. */
export async function deliveryUrls(em: Em, deliveryIds: number[]): Promise<Map<number, string>> {
  if (deliveryIds.length === 0) return new Map();
  const rows = await em.execute<{ id: string | number; url: string }[]>(
    'select id, url from webhook_delivery where id in (?)',
    [deliveryIds],
  );
  return new Map(rows.map((r) => [Number(r.id), r.url]));
}

/** Where deliveries stand, and whether a lease is still held on them. */
export async function deliveryStates(
  em: Em,
  deliveryIds: number[],
): Promise<{ id: number; status: DeliveryRow['status']; attempts: number; leased: boolean }[]> {
  if (deliveryIds.length === 0) return [];
  const rows = await em.execute<
    { id: string | number; status: DeliveryRow['status']; attempts: number; leased: boolean }[]
  >(
    'select id, status, attempts, coalesce(locked_until > now(), false) as leased from webhook_delivery where id in (?)',
    [deliveryIds],
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}
