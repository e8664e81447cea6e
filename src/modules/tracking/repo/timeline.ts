import type { Em } from '../../../platform/db/orm.ts';
import type { OtepEvent, OtepLocation, Timeline } from '../model.ts';
import { OTEP_OF_ORDER_STATUS } from '../orderStatusMap.ts';
import { checkTransitions } from '../rules.ts';
import { isoInOffset } from '../time.ts';
import { OTEP_VERSION, phaseId, STATUS_BY_ID, type Phase } from '../vocabulary.ts';

interface Row {
  tracking_number: string;
  type: 'D' | 'P' | 'P2P';
  id: string | null;
  status_code: string | null;
  after_status: number | null;
  phase: string | null;
  occurred_at: Date | null;
  offset_min: number;
  recorded_at: Date | null;
  location: OtepLocation | null;
  incident_reason: string | null;
  description: string | null;
  otep_version: string | null;
  source: 'merchant' | 'carrier' | null;
}

/**
 * The package a number asked names: its package number, else (when the second parameter is true) the carrier's
 * tracking number of a carried parcel (`carrier_reference`, a label's carrier number; the newest such package when
 * several have it).
 */
const ASKED_PACKAGES_SQL = `
  select distinct on (asked) asked, package_id from (
    select pk.package_number as asked, pk.id as package_id, 0 as rank from order_package pk where pk.package_number in (?)
    union all
    select pk.carrier_reference, pk.id, 1 from order_package pk join delivery_order co on co.id = pk.order_id
    where ?::boolean and pk.carrier_reference in (?) and co.carrier_provider_id is not null
  ) m order by asked, rank, package_id desc`;

/**
 * One statement reads the packages and both event sources: carriers' tracking events of the package, and our own
 * status history of its order (only changes no tracking event caused), which becomes one synthesized event per
 * change. A package number is a tracking number; the order's own is its first package's; a carried parcel's carrier
 * number is one too, answered under the number asked.
 */
const TIMELINE_SQL = `
  select n.asked as tracking_number, o.type, e.*
  from (${ASKED_PACKAGES_SQL}) n join order_package pk on pk.id = n.package_id join delivery_order o on o.id = pk.order_id
  left join lateral (
    select te.event_key as id, te.status_code, null::int as after_status, te.phase, te.occurred_at, te.occurred_offset_min as offset_min,
           te.recorded_at, te.location, te.incident_reason, te.description, te.otep_version, 'carrier' as source, te.id as seq
    from tracking_event te where te.package_id = pk.id
    union all
    select 'osc-' || h.id, null, h.after_status, null, h.occurred_at, 0, h.occurred_at, null, null, null, null, 'merchant', h.id
    from order_status_change h where h.order_id = o.id and h.tracking_event_id is null
  ) e on true
  order by n.asked, e.occurred_at, e.recorded_at, e.seq`;

function eventOf(r: Row): OtepEvent | null {
  if (r.id === null || r.occurred_at === null) return null;
  let statusCode = r.status_code;
  let phase = r.phase;
  let reason = r.incident_reason;
  if (r.source === 'merchant') {
    const mapped = OTEP_OF_ORDER_STATUS.get(r.after_status!);
    if (!mapped) return null;
    statusCode = mapped.code;
    phase = STATUS_BY_ID.get(mapped.code)!.phase;
    reason = mapped.reason ?? null;
  }
  const event: OtepEvent = {
    id: r.id,
    otep_version: r.otep_version ?? OTEP_VERSION,
    subject: r.tracking_number,
    occurred_at: isoInOffset(new Date(r.occurred_at), r.offset_min),
    recorded_at: new Date(r.recorded_at!).toISOString(),
    status_code: statusCode!,
    phase: phaseId(phase as Phase),
    source: r.source!,
  };
  if (r.location) event.location = r.location;
  if (reason) event.incident_reason = reason;
  if (r.description) event.description = r.description;
  return event;
}

function timelineOf(trackingNumber: string, service: Timeline['service'], events: OtepEvent[]): Timeline {
  // Flag, do not drop, what happened after the journey ended; the current state ignores those events.
  const { afterTerminal } = checkTransitions(
    events.map((e) => ({
      pointer: '',
      event: { occurredAt: new Date(e.occurred_at), phase: e.phase.slice('otep:phase:'.length) as Phase },
    })),
  );
  for (const i of afterTerminal) events[i]!.after_terminal = true;
  const last = events.findLast((e) => !e.after_terminal);
  return {
    otep_version: OTEP_VERSION,
    tracking_number: trackingNumber,
    service,
    current: last
      ? {
          status_code: last.status_code,
          phase: last.phase,
          occurred_at: last.occurred_at,
          terminal: last.phase === 'otep:phase:delivered' || last.phase === 'otep:phase:closed',
        }
      : null,
    events,
  };
}

/**
 * The timelines of the given tracking numbers that exist, keyed by tracking number. Public data only. With
 * `byCarrierNumber` (the public reads), a carried parcel's carrier tracking number finds its timeline too.
 */
export async function loadTimelines(
  em: Em,
  trackingNumbers: readonly string[],
  byCarrierNumber = false,
): Promise<Map<string, Timeline>> {
  const out = new Map<string, Timeline>();
  if (trackingNumbers.length === 0) return out;
  const rows = await em.execute<Row[]>(TIMELINE_SQL, [trackingNumbers, byCarrierNumber, trackingNumbers]);
  const grouped = new Map<string, { service: Timeline['service']; events: OtepEvent[] }>();
  for (const r of rows) {
    const entry = grouped.get(r.tracking_number) ?? { service: r.type, events: [] };
    grouped.set(r.tracking_number, entry);
    const event = eventOf(r);
    if (event) entry.events.push(event);
  }
  for (const [tn, { service, events }] of grouped) out.set(tn, timelineOf(tn, service, events));
  return out;
}

/**
 * The package numbers of the order a package number (or a carried parcel's carrier number) belongs to, in position
 * order; empty when none has it.
 */
export async function packageNumbersOfOrder(em: Em, packageNumber: string): Promise<string[]> {
  const rows = await em.execute<{ package_number: string }[]>(
    `select pk.package_number from order_package pk
     where pk.order_id = (
       select p.order_id from order_package p join delivery_order o on o.id = p.order_id
       where p.package_number = ? or (p.carrier_reference = ? and o.carrier_provider_id is not null)
       order by p.package_number = ? desc, p.id desc limit 1)
     order by pk.position`,
    [packageNumber, packageNumber, packageNumber],
  );
  return rows.map((r) => r.package_number);
}
