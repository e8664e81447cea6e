import { insertOutboxEvents, type NewOutboxEvent, type PriceFamily } from '../../../platform/db/outbox.ts';
import { createHash } from 'node:crypto';
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import {
  carrierHeld,
  priceFamilyOf,
  changeOrderStatuses,
  ORDER_OPERATION,
  orderSummaryOf,
  type OrderActor,
  type OrderFacts,
  type OrderStatusMove,
} from '../../orders/index.ts';
import { CARRIER_KEEPS_STATUS, FINAL_ORDER_STATUSES, orderStatusOfOtep } from '../orderStatusMap.ts';
import type { NormalizedEvent } from '../rules.ts';
import { isoInOffset } from '../time.ts';
import { phaseId } from '../vocabulary.ts';

export type RejectReason = 'unknown_shipment' | 'not_your_shipment';

export type IngestOutcome =
  | { pointer: string; status: 'accepted'; event_id: string; revision: number }
  | { pointer: string; status: 'duplicate'; event_id: string }
  | { pointer: string; status: 'rejected'; reason: RejectReason };

/** customerId: the customer account the order is for, whose webhook override receives its tracking events. */
type CarriedOrder = OrderFacts & { carrierProviderId: number | null; customerId: number | null };

/** A package and the order it belongs to (shared by the order's packages): an event names a package by its number. */
interface Shipment {
  order: CarriedOrder;
  packageId: number;
  packageNumber: string;
}

/** What the sender said, in a canonical form: equal content gives an equal hash, whatever the JSON key order. */
function contentOf(e: NormalizedEvent) {
  const l = e.location;
  return JSON.stringify([
    e.subject,
    isoInOffset(e.occurredAt, e.offsetMin),
    e.statusCode,
    e.phase,
    e.incidentReason,
    e.description,
    l
      ? [
          l.name ?? null,
          l.city ?? null,
          l.postal_code ?? null,
          l.country ?? null,
          l.lat ?? null,
          l.lng ?? null,
          l.gln ?? null,
        ]
      : null,
  ]);
}

/** The event's key: the sender's id, or `h-` and a digest of the content when it sent none. */
const keyOf = (e: NormalizedEvent, hash: string) => e.id ?? `h-${hash.slice(0, 32)}`;

/**
 * Writes a provider's checked events into their packages' timelines in one transaction: new events and
 * corrections (same key, other content) are accepted and produce tracking.event; the same event again is a
 * duplicate; events of packages the provider does not carry are rejected. A carried order's status follows
 * its packages' newest events (followNewestEvents).
 */
export async function ingestTrackingEvents(
  em: Em,
  providerId: number,
  events: readonly { pointer: string; event: NormalizedEvent }[],
  actor: OrderActor,
): Promise<IngestOutcome[]> {
  return em.transactional(async (tx) => {
    const subjects = [...new Set(events.map((e) => e.event.subject))];
    const shipments = new Map<string, Shipment>();
    if (subjects.length) {
      const rows = await tx.execute<
        {
          id: number;
          business_id: number;
          order_ref: string | null;
          tracking_number: string;
          type: string;
          status_id: number;
          carrier_provider_id: number | null;
          customer_id: number | null;
          price_family: PriceFamily;
          package_id: number;
          package_number: string;
        }[]
      >(
        `select o.id, o.business_id, o.order_ref, o.tracking_number, o.type, o.status_id, o.carrier_provider_id, o.customer_id, o.price_family, pk.id as package_id, pk.package_number
         from order_package pk join delivery_order o on o.id = pk.order_id where pk.package_number in (?) order by o.id for update of o`,
        [subjects],
      );
      const orders = new Map<number, CarriedOrder>();
      for (const r of rows) {
        const order = orders.get(r.id) ?? {
          id: r.id,
          businessId: r.business_id,
          orderRef: r.order_ref,
          trackingNumber: r.tracking_number,
          type: r.type,
          statusId: r.status_id,
          carrierProviderId: r.carrier_provider_id,
          customerId: r.customer_id,
          priceFamily: r.price_family,
        };
        orders.set(r.id, order);
        shipments.set(r.package_number, { order, packageId: r.package_id, packageNumber: r.package_number });
      }
    }

    // Our own synthesized events (osc-<history id>) pushed back, as in a timeline read and re-sent, are already here.
    const ownIds = events
      .map((e) => e.event.id)
      .filter((id): id is string => id !== null && /^osc-\d+$/.test(id))
      .map((id) => id.slice(4));
    const own = new Set<string>();
    if (ownIds.length) {
      const rows = await tx.execute<{ key: string }[]>(
        "select h.order_id || ':osc-' || h.id as key from order_status_change h where h.id in (?)",
        [ownIds],
      );
      for (const r of rows) own.add(r.key);
    }

    const outcomes: IngestOutcome[] = [];
    const firstOfKey = new Map<string, number>();
    const writes: { index: number; shipment: Shipment; key: string; hash: string; event: NormalizedEvent }[] = [];
    for (const { pointer, event } of events) {
      const shipment = shipments.get(event.subject);
      if (!shipment) outcomes.push({ pointer, status: 'rejected', reason: 'unknown_shipment' });
      else if (shipment.order.carrierProviderId !== providerId)
        outcomes.push({ pointer, status: 'rejected', reason: 'not_your_shipment' });
      else if (event.id !== null && own.has(`${shipment.order.id}:${event.id}`))
        outcomes.push({ pointer, status: 'duplicate', event_id: event.id });
      else {
        const hash = createHash('sha256').update(contentOf(event)).digest('hex');
        const key = keyOf(event, hash);
        const batchKey = `${shipment.packageId}\u0000${key}`;
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
      order_id: w.shipment.order.id,
      package_id: w.shipment.packageId,
      business_id: w.shipment.order.businessId,
      event_key: w.key,
      provider_id: providerId,
      status_code: w.event.statusCode,
      phase: w.event.phase,
      occurred_at: w.event.occurredAt.toISOString(),
      offset_min: w.event.offsetMin,
      location: w.event.location,
      incident_reason: w.event.incidentReason,
      description: w.event.description,
      otep_version: w.event.otepVersion,
      content_hash: w.hash,
    }));
    // One statement for the batch; a row comes back only when it was inserted or its content changed.
    const written = await executeBound<{ id: string; package_id: number; event_key: string; revision: number }>(
      tx,
      `insert into tracking_event as t (order_id, package_id, business_id, event_key, provider_id, status_code, phase, occurred_at, occurred_offset_min, location,
         incident_reason, description, otep_version, content_hash)
       select order_id, package_id, business_id, event_key, provider_id, status_code, phase, occurred_at, offset_min, location, incident_reason, description, otep_version, content_hash
       from jsonb_to_recordset($1::jsonb) as x(order_id int, package_id int, business_id int, event_key text, provider_id int, status_code text, phase text,
         occurred_at timestamptz, offset_min int, location jsonb, incident_reason text, description text, otep_version text, content_hash text)
       on conflict (package_id, event_key) do update set status_code = excluded.status_code, phase = excluded.phase, occurred_at = excluded.occurred_at,
         occurred_offset_min = excluded.occurred_offset_min, location = excluded.location, incident_reason = excluded.incident_reason,
         description = excluded.description, otep_version = excluded.otep_version, content_hash = excluded.content_hash,
         revision = t.revision + 1, recorded_at = now()
       where t.content_hash <> excluded.content_hash
       returning t.id, t.package_id, t.event_key, t.revision`,
      [JSON.stringify(rows)],
    );
    const byKey = new Map(written.map((r) => [`${r.package_id}\u0000${r.event_key}`, r]));
    const accepted: { write: (typeof writes)[number]; row: (typeof written)[number] }[] = [];
    for (const w of writes) {
      const row = byKey.get(`${w.shipment.packageId}\u0000${w.key}`);
      if (!row) continue;
      outcomes[w.index] = {
        pointer: outcomes[w.index]!.pointer,
        status: 'accepted',
        event_id: w.key,
        revision: row.revision,
      };
      accepted.push({ write: w, row });
    }
    if (accepted.length === 0) return outcomes;

    await followNewestEvents(
      tx,
      accepted.map((a) => a.write.shipment.order),
      actor,
    );
    await insertOutboxEvents(
      tx,
      accepted.map(({ write, row }) => trackingEvent(write.shipment, write.event, row)),
    );
    return outcomes;
  });
}

function trackingEvent(
  { order: s, packageNumber }: Shipment,
  e: NormalizedEvent,
  row: { id: string; revision: number },
): NewOutboxEvent {
  const eventId = `TRE-${row.id}.${row.revision}`;
  const statusId = orderStatusOfOtep(e.statusCode) ?? s.statusId;
  return {
    businessId: s.businessId,
    customerId: s.customerId,
    eventId,
    eventType: 'tracking.event',
    referenceType: 'order',
    referenceId: String(s.id),
    family: priceFamilyOf(s),
    carrierHeld: carrierHeld(s),
    payload: {
      event_id: eventId,
      event: 'tracking.event',
      business_id: s.businessId,
      occurred_at: new Date().toISOString(),
      data: {
        order: orderSummaryOf(s),
        tracking_event: {
          id: Number(row.id),
          status_id: statusId,
          key: e.statusCode,
          description: e.description ?? '',
          occurred_at: isoInOffset(e.occurredAt, e.offsetMin),
          phase: phaseId(e.phase),
          incident_reason: e.incidentReason,
          location: e.location,
          package_number: packageNumber,
        },
      },
    },
  };
}

/**
 * A carried order takes the status its packages' newest tracking events mean, unless it has reached a final
 * status. Each package counts by its newest event; the order follows the newest of those, except that a final
 * status (delivered, returned, ...) is taken only once every package's newest event means one: until then the
 * order follows its newest package still under way. An event arriving late (older than its package's newest)
 * changes nothing. The change is recorded with the event that caused it, so the timeline shows the carrier's
 * event and not a synthesized copy. The interception runs it too when an order leaves 48 (docs/orders.md,
 * "Interception"): the events recorded meanwhile moved nothing.
 */
export async function followNewestEvents(tx: Em, touched: OrderFacts[], actor: OrderActor): Promise<void> {
  const orders = new Map(touched.map((o) => [o.id, o]));
  // One index probe per package (tracking_event_package_timeline, read backwards), however long its history is.
  const newest = await tx.execute<
    { order_id: number; id: string | null; status_code: string | null; occurred_at: Date | null }[]
  >(
    `select pk.order_id, t.id, t.status_code, t.occurred_at from order_package pk
     left join lateral (select id, status_code, occurred_at from tracking_event where package_id = pk.id order by occurred_at desc, id desc limit 1) t on true
     where pk.order_id in (?) order by pk.order_id, t.occurred_at desc nulls last, t.id desc`,
    [[...orders.keys()]],
  );
  const final = (code: string | null) => {
    const status = code === null ? null : orderStatusOfOtep(code);
    return status !== null && FINAL_ORDER_STATUSES.has(status);
  };
  const moves: OrderStatusMove[] = [];
  for (const [orderId, order] of orders) {
    const packages = newest.filter((n) => n.order_id === orderId);
    const allFinal = packages.every((n) => final(n.status_code));
    const n = packages.find((p) => p.id !== null && (allFinal || !final(p.status_code)));
    const after = n ? orderStatusOfOtep(n.status_code!) : null;
    if (
      !n ||
      after === null ||
      after === order.statusId ||
      FINAL_ORDER_STATUSES.has(order.statusId) ||
      CARRIER_KEEPS_STATUS.has(order.statusId)
    )
      continue;
    const before = order.statusId;
    order.statusId = after;
    moves.push({
      order,
      change: {
        before,
        after,
        operationType: ORDER_OPERATION.CARRIER_STATUS_PUSH,
        description: n.status_code!,
        trackingEventId: n.id!,
        actor,
      },
      occurredAt: new Date(n.occurred_at!),
    });
  }
  await changeOrderStatuses(tx, moves);
}
