/**
 * OpenTelemetry OTLP/JSON traces (an ExportTraceServiceRequest in the protobuf JSON mapping): the journey is
 * one trace. A root span covers the first to the last event; each event is a child span from its occurrence
 * to the next event's occurrence (the last one has equal start and end). Ids are derived from the tracking
 * number and event id, so the same timeline always gives the same trace and a collector deduplicates a
 * re-export. Per OTLP/JSON, ids are lowercase hex, 64-bit integers and timestamps are decimal strings and
 * enums are their integer values.
 */
import { createHash } from 'node:crypto';
import type { OtepEvent, Timeline } from '../model.ts';
import { OTEP_VERSION, REASON_BY_ID, STATUS_BY_ID } from '../vocabulary.ts';
import type { Format } from './types.ts';

const SPAN_KIND_INTERNAL = 1;
const STATUS_CODE_UNSET = 0;
const STATUS_CODE_ERROR = 2;

/** Codes that mean something went wrong on the way; their spans get status ERROR. */
const EXCEPTION_CODES = new Set(['otep:core:delivery_failed', 'otep:core:exception']);

type AnyValue = { stringValue: string } | { boolValue: boolean } | { intValue: string } | { doubleValue: number };
interface KeyValue {
  key: string;
  value: AnyValue;
}

const str = (key: string, v: string): KeyValue => ({ key, value: { stringValue: v } });
const bool = (key: string, v: boolean): KeyValue => ({ key, value: { boolValue: v } });
const int = (key: string, v: number): KeyValue => ({ key, value: { intValue: String(v) } });
const dbl = (key: string, v: number): KeyValue => ({ key, value: { doubleValue: v } });

/** Hex of sha256(input), cut to `hexChars`; never the all-zero id, which OTLP reserves for "none". */
function deriveId(input: string, hexChars: number): string {
  const id = createHash('sha256').update(input).digest('hex').slice(0, hexChars);
  return /^0+$/.test(id) ? `${id.slice(0, -1)}1` : id;
}
export const traceIdFor = (trackingNumber: string) => deriveId(`otep:trace:${trackingNumber}`, 32);
export const spanIdFor = (trackingNumber: string, eventId: string | null) =>
  deriveId(
    eventId === null ? `otep:span:${trackingNumber}:journey` : `otep:span:${trackingNumber}:event:${eventId}`,
    16,
  );

/**
 * Nanoseconds since the Unix epoch, as a decimal string, keeping sub-millisecond digits that Date drops.
 * Accepts ISO 8601 with `Z` or a `±hh:mm` / `±hhmm` offset.
 */
export function unixNanos(iso: string): string {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:[.,](\d+))?(Z|[+-]\d{2}:?\d{2})$/i.exec(iso.trim());
  if (!m) throw new RangeError(`not an ISO 8601 date-time with an offset: ${iso}`);
  const zone = m[3]!.toUpperCase() === 'Z' ? 'Z' : `${m[3]!.slice(0, 3)}:${m[3]!.slice(-2)}`;
  const ms = Date.parse(`${m[1]}${zone}`);
  if (Number.isNaN(ms)) throw new RangeError(`not a valid date-time: ${iso}`);
  const fraction = (m[2] ?? '').slice(0, 9).padEnd(9, '0');
  return (BigInt(ms) * 1_000_000n + BigInt(fraction)).toString();
}

const maxNanos = (a: string, b: string) => (BigInt(a) >= BigInt(b) ? a : b);

function eventAttributes(t: Timeline, e: OtepEvent, index: number): KeyValue[] {
  const status = STATUS_BY_ID.get(e.status_code);
  const attrs = [
    str('otep.tracking_number', t.tracking_number),
    str('otep.event_id', e.id),
    int('otep.event_index', index),
    str('otep.status_code', e.status_code),
    str('otep.phase', e.phase),
    str('otep.source', e.source),
    str('otep.recorded_at', e.recorded_at),
  ];
  if (status) attrs.push(str('otep.status_label', status.label), bool('otep.terminal', status.terminal));
  if (e.incident_reason) attrs.push(str('otep.incident_reason', e.incident_reason));
  if (e.description) attrs.push(str('otep.description', e.description));
  if (e.after_terminal) attrs.push(bool('otep.after_terminal', true));
  const loc = e.location;
  if (loc) {
    if (loc.name) attrs.push(str('otep.location.name', loc.name));
    if (loc.city) attrs.push(str('otep.location.city', loc.city));
    if (loc.postal_code) attrs.push(str('otep.location.postal_code', loc.postal_code));
    if (loc.country) attrs.push(str('otep.location.country', loc.country));
    if (typeof loc.lat === 'number') attrs.push(dbl('otep.location.lat', loc.lat));
    if (typeof loc.lng === 'number') attrs.push(dbl('otep.location.lng', loc.lng));
    if (loc.gln) attrs.push(str('otep.location.gln', loc.gln));
  }
  return attrs;
}

function isException(statusCode: string): boolean {
  return EXCEPTION_CODES.has(statusCode) || EXCEPTION_CODES.has(STATUS_BY_ID.get(statusCode)?.refines ?? '');
}

function eventStatus(e: OtepEvent) {
  if (!isException(e.status_code)) return { code: STATUS_CODE_UNSET };
  const reason = e.incident_reason ? (REASON_BY_ID.get(e.incident_reason)?.label ?? e.incident_reason) : null;
  return { code: STATUS_CODE_ERROR, message: reason ?? STATUS_BY_ID.get(e.status_code)?.label ?? e.status_code };
}

function spans(t: Timeline) {
  if (t.events.length === 0) return [];
  const traceId = traceIdFor(t.tracking_number);
  const rootId = spanIdFor(t.tracking_number, null);
  const starts = t.events.map((e) => unixNanos(e.occurred_at));
  // Events are ordered by occurrence; max() keeps a span from ending before it starts if they are not.
  const ends = starts.map((s, i) => maxNanos(s, starts[i + 1] ?? s));
  const first = starts.reduce((a, b) => (BigInt(a) <= BigInt(b) ? a : b));
  const last = starts.reduce(maxNanos);
  const root = {
    traceId,
    spanId: rootId,
    name: 'otep.journey',
    kind: SPAN_KIND_INTERNAL,
    startTimeUnixNano: first,
    endTimeUnixNano: last,
    attributes: [
      str('otep.tracking_number', t.tracking_number),
      str('otep.service', t.service),
      int('otep.event_count', t.events.length),
      ...(t.current
        ? [
            str('otep.status_code', t.current.status_code),
            str('otep.phase', t.current.phase),
            bool('otep.terminal', t.current.terminal),
          ]
        : []),
    ],
    status: { code: STATUS_CODE_UNSET },
  };
  const children = t.events.map((e, i) => ({
    traceId,
    spanId: spanIdFor(t.tracking_number, e.id),
    parentSpanId: rootId,
    name: e.status_code,
    kind: SPAN_KIND_INTERNAL,
    startTimeUnixNano: starts[i]!,
    endTimeUnixNano: ends[i]!,
    attributes: eventAttributes(t, e, i),
    status: eventStatus(e),
  }));
  return [root, ...children];
}

export const otlp: Format = {
  id: 'otlp',
  mediaType: 'application/json',
  project: (t) => ({
    resourceSpans: [
      {
        resource: { attributes: [str('service.name', 'tms'), str('otep.version', t.otep_version || OTEP_VERSION)] },
        scopeSpans: [{ scope: { name: 'otep', version: OTEP_VERSION }, spans: spans(t) }],
      },
    ],
  }),
};
