import { insertOutboxEvents, type NewOutboxEvent } from '../../../platform/db/outbox.ts';
import { createHash } from 'node:crypto';
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import { carrierHeld, changeOrderStatuses, ORDER_OPERATION, orderSummaryOf, type OrderFacts, type OrderStatusMove } from '../../orders/index.ts';
import { FINAL_ORDER_STATUSES, orderStatusOfOtep } from '../orderStatusMap.ts';
import type { NormalizedEvent } from '../rules.ts';
import { isoInOffset } from '../time.ts';
import { phaseId } from '../vocabulary.ts';

export type RejectReason = 'unknown_shipment' | 'not_your_shipment';

export type IngestOutcome =
  | { pointer: string; status: 'accepted'; event_id: string; revision: number }
  | { pointer: string; status: 'duplicate'; event_id: string }
  | { pointer: string; status: 'rejected'; reason: RejectReason };

interface Shipment extends OrderFacts {
  carrierProviderId: number | null;
}

/** What the sender said, in a canonical form: equal content gives an equal hash, whatever the JSON key order. */
function contentOf(e: NormalizedEvent) {
  const l = e.location;
  return JSON.stringify([e.subject, isoInOffset(e.occurredAt, e.offsetMin), e.statusCode, e.phase, e.incidentReason, e.description,
    l ? [l.name ?? null, l.city ?? null, l.postal_code ?? null, l.country ?? null, l.lat ?? null, l.lng ?? null, l.gln ?? null] : null]);
}

/** The event's key: the sender's id, or `h-` and a digest of the content when it sent none. */
const keyOf = (e: NormalizedEvent, hash: string) => e.id ?? `h-${hash.slice(0, 32)}`;

/**
 * Writes a provider's checked events into their shipments' timelines in one transaction: new events and
 * corrections (same key, other content) are accepted and produce tracking.event; the same event again is a
 * duplicate; events of shipments the provider does not carry are rejected. A carried order's status follows
 * its newest event.
 */
export async function ingestTrackingEvents(em: Em, providerId: number, events: readonly { pointer: string; event: NormalizedEvent }[]): Promise<IngestOutcome[]> {
  return em.transactional(async (tx) => {
    const subjects = [...new Set(events.map((e) => e.event.subject))];
    const shipments = new Map<string, Shipment>();
    if (subjects.length) {
      const rows = await tx.execute<{ id: number; business_id: number; order_ref: string | null; tracking_number: string; type: string; status_id: number; carrier_provider_id: number | null }[]>(
        'select id, business_id, order_ref, tracking_number, type, status_id, carrier_provider_id from delivery_order where tracking_number in (?) for update', [subjects]);
      for (const r of rows) {
        shipments.set(r.tracking_number, {
          id: r.id, businessId: r.business_id, orderRef: r.order_ref, trackingNumber: r.tracking_number, type: r.type, statusId: r.status_id, carrierProviderId: r.carrier_provider_id,
        });
      }
    }

    // Our own synthesized events (osc-<history id>) pushed back, as in a timeline read and re-sent, are already here.
    const ownIds = events.map((e) => e.event.id).filter((id): id is string => id !== null && /^osc-\d+$/.test(id)).map((id) => id.slice(4));
    const own = new Set<string>();
    if (ownIds.length) {
      const rows = await tx.execute<{ key: string }[]>("select h.order_id || ':osc-' || h.id as key from order_status_change h where h.id in (?)", [ownIds]);
      for (const r of rows) own.add(r.key);
    }

    const outcomes: IngestOutcome[] = [];
    const firstOfKey = new Map<string, number>();
    const writes: { index: number; shipment: Shipment; key: string; hash: string; event: NormalizedEvent }[] = [];
    for (const { pointer, event } of events) {
      const shipment = shipments.get(event.subject);
      if (!shipment) outcomes.push({ pointer, status: 'rejected', reason: 'unknown_shipment' });
      else if (shipment.carrierProviderId !== providerId) outcomes.push({ pointer, status: 'rejected', reason: 'not_your_shipment' });
      else if (event.id !== null && own.has(`${shipment.id}:${event.id}`)) outcomes.push({ pointer, status: 'duplicate', event_id: event.id });
      else {
        const hash = createHash('sha256').update(contentOf(event)).digest('hex');
        const key = keyOf(event, hash);
        const batchKey = `${shipment.id}\u0000${key}`;
        // The same key twice in one document: the first is written, the others are duplicates of it.
        if (firstOfKey.has(batchKey)) outcomes.push({ pointer, status: 'duplicate', event_id: key });
        else {
          firstOfKey.set(batchKey, outcomes.length);
          writes.push({ index: outcomes.length, shipment, key, hash, event });
          // A duplicate unless the upsert below returns its row (new, or changed content).
          outcomes.push({ pointer, status: 'duplicate', event_id: key });
        }
      }
    }
    if (writes.length === 0) return outcomes;

    const rows = writes.map((w) => ({
      order_id: w.shipment.id, business_id: w.shipment.businessId, event_key: w.key, provider_id: providerId, status_code: w.event.statusCode,
      phase: w.event.phase, occurred_at: w.event.occurredAt.toISOString(), offset_min: w.event.offsetMin, location: w.event.location,
      incident_reason: w.event.incidentReason, description: w.event.description, otep_version: w.event.otepVersion, content_hash: w.hash,
    }));
    // One statement for the batch; a row comes back only when it was inserted or its content changed.
    const written = await executeBound<{ id: string; order_id: number; event_key: string; revision: number }>(tx,
      `insert into tracking_event as t (order_id, business_id, event_key, provider_id, status_code, phase, occurred_at, occurred_offset_min, location,
         incident_reason, description, otep_version, content_hash)
       select order_id, business_id, event_key, provider_id, status_code, phase, occurred_at, offset_min, location, incident_reason, description, otep_version, content_hash
       from jsonb_to_recordset($1::jsonb) as x(order_id int, business_id int, event_key text, provider_id int, status_code text, phase text,
         occurred_at timestamptz, offset_min int, location jsonb, incident_reason text, description text, otep_version text, content_hash text)
       on conflict (order_id, event_key) do update set status_code = excluded.status_code, phase = excluded.phase, occurred_at = excluded.occurred_at,
         occurred_offset_min = excluded.occurred_offset_min, location = excluded.location, incident_reason = excluded.incident_reason,
         description = excluded.description, otep_version = excluded.otep_version, content_hash = excluded.content_hash,
         revision = t.revision + 1, recorded_at = now()
       where t.content_hash <> excluded.content_hash
       returning t.id, t.order_id, t.event_key, t.revision`,
      [JSON.stringify(rows)]);
    const byKey = new Map(written.map((r) => [`${r.order_id}\u0000${r.event_key}`, r]));
    const accepted: { write: (typeof writes)[number]; row: (typeof written)[number] }[] = [];
    for (const w of writes) {
      const row = byKey.get(`${w.shipment.id}\u0000${w.key}`);
      if (!row) continue;
      outcomes[w.index] = { pointer: outcomes[w.index]!.pointer, status: 'accepted', event_id: w.key, revision: row.revision };
      accepted.push({ write: w, row });
    }
    if (accepted.length === 0) return outcomes;

    await followNewestEvents(tx, accepted.map((a) => a.write.shipment));
    await insertOutboxEvents(tx, accepted.map(({ write, row }) => trackingEvent(write.shipment, write.event, row)));
    return outcomes;
  });
}

function trackingEvent(s: Shipment, e: NormalizedEvent, row: { id: string; revision: number }): NewOutboxEvent {
  const eventId = `TRE-${row.id}.${row.revision}`;
  const statusId = orderStatusOfOtep(e.statusCode) ?? s.statusId;
  return {
    businessId: s.businessId, eventId, eventType: 'tracking.event', referenceType: 'order', referenceId: String(s.id), family: 'local_delivery', carrierHeld: carrierHeld(s),
    payload: {
      event_id: eventId, event: 'tracking.event', business_id: s.businessId, occurred_at: new Date().toISOString(),
      data: {
        order: orderSummaryOf(s),
        tracking_event: {
          id: Number(row.id), status_id: statusId, key: e.statusCode, description: e.description ?? '', occurred_at: isoInOffset(e.occurredAt, e.offsetMin),
          phase: phaseId(e.phase), incident_reason: e.incidentReason, location: e.location,
        },
      },
    },
  };
}

/**
 * A carried order takes the status its newest tracking event means, unless it has reached a final status.
 * An event arriving late (older than the newest) changes nothing. The change is recorded with the event
 * that caused it, so the timeline shows the carrier's event and not a synthesized copy.
 */
async function followNewestEvents(tx: Em, touched: Shipment[]): Promise<void> {
  const orders = new Map(touched.map((s) => [s.id, s]));
  // One index probe per order (tracking_event_timeline, read backwards), however long its history is.
  const newest = await tx.execute<{ order_id: number; id: string; status_code: string; occurred_at: Date }[]>(
    `select o.id as order_id, t.id, t.status_code, t.occurred_at from unnest(array[?]::int[]) as o(id)
     cross join lateral (select id, status_code, occurred_at from tracking_event where order_id = o.id order by occurred_at desc, id desc limit 1) t`,
    [[...orders.keys()]]);
  const moves: OrderStatusMove[] = [];
  for (const n of newest) {
    const order = orders.get(n.order_id)!;
    const after = orderStatusOfOtep(n.status_code);
    if (after === null || after === order.statusId || FINAL_ORDER_STATUSES.has(order.statusId)) continue;
    const before = order.statusId;
    order.statusId = after;
    moves.push({ order, change: { before, after, operationType: ORDER_OPERATION.CARRIER_STATUS_PUSH, description: n.status_code, trackingEventId: n.id }, occurredAt: new Date(n.occurred_at) });
  }
  await changeOrderStatuses(tx, moves);
}
