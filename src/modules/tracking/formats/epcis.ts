/**
 * GS1 EPCIS 2.0 JSON-LD, both ways: a timeline as an EPCISDocument of ObjectEvents (one per OTEP event), and
 * an inbound EPCISDocument read back into raw OTEP-shaped events for ingest (POST /v1/otep/ingest/epcis).
 *
 * Projection of one event:
 * - action OBSERVE; eventTime is occurred_at as written, eventTimeZoneOffset its offset; recordTime recorded_at.
 * - eventID: a name-based UUID of the shipment and the event id, so publishing a timeline twice, from any
 *   installation, names each event the same way.
 * - bizStep and disposition: the vocabulary's CBV projection, written in the bare form ("accepting"). The
 *   vocabulary keeps CBV URNs (the XML form); the EPCIS 2.0 JSON schema rejects `urn:epcglobal:cbv:` values and
 *   the JSON-LD context maps the bare words to the CBV terms.
 * - readPoint (and bizLocation, unless the object is in transit) from location.gln, as an SGLN URN or a GS1
 *   Digital Link; the other location fields, and a gln EPCIS cannot carry, go into `otep:location`.
 * - Extension fields (namespace OTEP_NAMESPACE, prefix `otep`): what EPCIS cannot say. otep:statusCode keeps
 *   the exact code where bizStep + disposition are ambiguous (several codes share a pair).
 *
 * Shipment identification: see shipmentUri below.
 */
import { createHash } from 'node:crypto';
import type { OtepEvent, OtepLocation, Timeline } from '../model.ts';
import { STATUS_CODES, STATUS_BY_ID } from '../vocabulary.ts';
import type { Format } from './types.ts';

export const EPCIS_CONTEXT = 'https://ref.gs1.org/standards/epcis/epcis-context.jsonld';
/**
 * IRI behind the `otep:` prefix. A URN rather than an HTTP IRI: it must be the same for every installation,
 * OTEP has no domain of its own, and an installation's base URL would tie the terms to that installation.
 * Status ids such as `otep:core:delivered` read as compact IRIs in the same namespace.
 */
export const OTEP_NAMESPACE = 'urn:otep:';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Shipment identification rule. Each ObjectEvent names its shipment by exactly one epcList entry
 * `urn:otep:tracking:<tracking number, percent-encoded>`.
 *
 * Why this form: a carrier tracking number is not a GS1 key (an SSCC or GSIN needs a GS1 Company Prefix and
 * a fixed number of digits), so no EPC URN or GS1 Digital Link can hold an arbitrary one; an HTTP URI would
 * carry one installation's base URL, which another installation cannot recognise. The URN depends on the
 * tracking number alone, so a document produced anywhere identifies the shipment anywhere. Percent-encoding
 * (encodeURIComponent) makes any tracking number a valid URN; the usual [A-Z0-9] ones read as they are.
 *
 * On ingest the epcList entry wins; a sender whose epcList holds its own product or logistic-unit ids may
 * instead put the same URI in a bizTransactionList entry (any transaction type, desadv being the natural one).
 */
const TRACKING_URN = /^urn:otep:tracking:(.+)$/i;

export const shipmentUri = (trackingNumber: string) => `urn:otep:tracking:${encodeURIComponent(trackingNumber)}`;

/** The tracking number a URI names under the rule above, or null for any other URI. */
export function trackingNumberFromUri(uri: unknown): string | null {
  const m = typeof uri === 'string' ? TRACKING_URN.exec(uri) : null;
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return null;
  }
}

export type ShipmentIdentification =
  { subject: string } | { code: 'missing_subject' | 'ambiguous_subject'; path: string; message: string };

/** Which shipment an EPCIS event is about; `path` is relative to the event. */
export function identifyShipment(event: Record<string, unknown>): ShipmentIdentification {
  const fromList = (field: string, read: (item: unknown) => unknown): ShipmentIdentification | null => {
    const list = event[field];
    if (!Array.isArray(list)) return null;
    const found = new Set(list.map((item) => trackingNumberFromUri(read(item))).filter((n): n is string => n !== null));
    if (found.size === 0) return null;
    if (found.size > 1)
      return {
        code: 'ambiguous_subject',
        path: `/${field}`,
        message: `${field} names ${found.size} different shipments: ${[...found].join(', ')}`,
      };
    return { subject: [...found][0]! };
  };
  return (
    fromList('epcList', (item) => item) ??
    fromList('bizTransactionList', (item) => (isRecord(item) ? item.bizTransaction : null)) ?? {
      code: 'missing_subject',
      path: '',
      message: 'no epcList or bizTransactionList entry of the form urn:otep:tracking:<tracking number>',
    }
  );
}

// --- times -----------------------------------------------------------------------------------------------

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** `Z`, `+hhmm` and `+hh:mm` as EPCIS writes an offset: `+hh:mm`. */
function normalizeOffset(offset: string): string | null {
  if (/^z$/i.test(offset)) return '+00:00';
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(offset);
  return m ? `${m[1]}${m[2]}:${m[3]}` : null;
}

const offsetMinutes = (offset: string) =>
  (offset.startsWith('-') ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));

/** The offset an ISO 8601 time is written in, as `+hh:mm`; `+00:00` when it has none. */
function offsetOf(iso: string): string {
  const zone = DATE_TIME.exec(iso)?.[7];
  return (zone && normalizeOffset(zone)) ?? '+00:00';
}

/**
 * eventTime written in eventTimeZoneOffset, so a timeline's occurred_at comes back as it was written. Offsets
 * are whole minutes, so seconds and their fraction are kept as sent. Null when eventTime is no date-time.
 */
function inOffset(eventTime: string, eventTimeZoneOffset: unknown): string | null {
  const m = DATE_TIME.exec(eventTime);
  if (!m) return null;
  const [, y, mo, d, h, mi, seconds = '', zone] = m;
  const target = typeof eventTimeZoneOffset === 'string' ? normalizeOffset(eventTimeZoneOffset) : null;
  // A time without offset is local time at the event: eventTimeZoneOffset says where.
  if (!zone) return target ? eventTime + target : eventTime;
  const from = normalizeOffset(zone);
  if (!target || !from || target === from) return eventTime;
  const local = new Date(
    Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi)) +
      (offsetMinutes(target) - offsetMinutes(from)) * 60_000,
  );
  const p2 = (n: number) => String(n).padStart(2, '0');
  return `${String(local.getUTCFullYear()).padStart(4, '0')}-${p2(local.getUTCMonth() + 1)}-${p2(local.getUTCDate())}T${p2(local.getUTCHours())}:${p2(local.getUTCMinutes())}${seconds}${target}`;
}

// --- vocabulary ------------------------------------------------------------------------------------------

/** A CBV value in any of its spellings (`shipping`, URN, web URI, `cbv:` compact IRI) as its bare name. */
function cbvName(value: unknown, kind: 'bizstep' | 'disp'): string | null {
  if (typeof value !== 'string') return null;
  const web = kind === 'bizstep' ? 'BizStep-' : 'Disp-';
  const m = new RegExp(
    `^(?:urn:epcglobal:cbv:${kind}:|https?://ref\\.gs1\\.org/cbv/${web}|https?://ns\\.gs1\\.org/cbv/${web}|cbv:${web})?([a-z_]+)$`,
    'i',
  ).exec(value);
  return m ? m[1]!.toLowerCase() : null;
}

const bareBizStep = (urn: string) => cbvName(urn, 'bizstep') ?? urn;
const bareDisposition = (urn: string) => cbvName(urn, 'disp') ?? urn;

// Core codes first, so a pair a profile code shares with its universal code reads as the universal one.
const REVERSE_ORDER = [...STATUS_CODES].sort((a, b) => Number(a.profile !== 'core') - Number(b.profile !== 'core'));

/**
 * What each CBV 2.0 business step means for a parcel, when no status code projects to its exact pair with the
 * disposition: the status a carrier or scanner sending it reports. Steps with no parcel meaning (encoding,
 * assembling, sensor_reporting, ...) are absent, and an event of one is rejected as `unmapped_status`.
 */
const STATUS_OF_STEP: Record<string, string> = {
  accepting: 'otep:core:picked_up',
  arriving: 'otep:core:received_at_facility',
  collecting: 'otep:core:picked_up',
  commissioning: 'otep:core:created',
  consigning: 'otep:core:picked_up',
  cycle_counting: 'otep:parcel:at_warehouse',
  decommissioning: 'otep:core:cancelled',
  departing: 'otep:core:departed_facility',
  destroying: 'otep:core:exception',
  dispensing: 'otep:parcel:collected',
  entering_exiting: 'otep:core:in_transit',
  holding: 'otep:parcel:on_hold',
  inspecting: 'otep:parcel:at_warehouse',
  loading: 'otep:core:out_for_delivery',
  packing: 'otep:parcel:sorted',
  picking: 'otep:parcel:sorted',
  receiving: 'otep:core:received_at_facility',
  removing: 'otep:parcel:at_warehouse',
  repackaging: 'otep:parcel:sorted',
  retail_selling: 'otep:parcel:collected',
  shipping: 'otep:core:departed_facility',
  staging_outbound: 'otep:parcel:sorted',
  stock_taking: 'otep:parcel:at_warehouse',
  stocking: 'otep:parcel:at_pickup_point',
  storing: 'otep:parcel:at_warehouse',
  transporting: 'otep:core:in_transit',
  unloading: 'otep:core:received_at_facility',
  unpacking: 'otep:parcel:at_warehouse',
  void_shipping: 'otep:core:cancelled',
};

/** Dispositions that say more than any step: the parcel came back, or something went wrong with it. */
const STATUS_OF_DISPOSITION: Record<string, string> = {
  returned: 'otep:core:returned',
  damaged: 'otep:core:exception',
  destroyed: 'otep:core:exception',
  stolen: 'otep:core:exception',
  recalled: 'otep:core:exception',
  non_conformant: 'otep:core:exception',
};

/**
 * The status code a bizStep and disposition report: the first code (core before parcel) whose EPCIS projection is
 * exactly this pair, so that a projected timeline reads back as it was; otherwise what the disposition says when
 * it names a return or a fault, otherwise what the step means. Null for a step with no parcel meaning.
 */
export function statusFromCbv(bizStep: unknown, disposition: unknown): string | null {
  const step = cbvName(bizStep, 'bizstep');
  const disp = cbvName(disposition, 'disp');
  if (!step) return null;
  const exact =
    disp &&
    REVERSE_ORDER.find(
      (s) =>
        bareBizStep(s.projection.epcis.bizStep) === step && bareDisposition(s.projection.epcis.disposition) === disp,
    );
  if (exact) return exact.id;
  const meaning = STATUS_OF_STEP[step];
  if (!meaning) return null;
  return (disp && STATUS_OF_DISPOSITION[disp]) ?? meaning;
}

// --- locations -------------------------------------------------------------------------------------------

const GS1_RESOLVER_GLN = 'https://id.gs1.org/414/';
/** A GS1 location (SGLN URN or GLN Digital Link), or a place of a business that has no SGLN (docs/distribution.md). */
const isGs1LocationUri = (s: string) =>
  /^urn:epc:id:sgln:/i.test(s) ||
  /^urn:tms:place:/.test(s) ||
  /^https?:\/\/[^/?#]+\/(?:[^?#]*\/)?414\/\d{13}(?:\/254\/[^/?#]+)?$/.test(s);

/** A gln as an EPCIS location id: a bare GLN becomes a Digital Link, an SGLN URN or Digital Link stays. */
function locationIdFromGln(gln: string): string | null {
  if (/^\d{13}$/.test(gln)) return GS1_RESOLVER_GLN + gln;
  return isGs1LocationUri(gln) ? gln : null;
}

function glnFromLocationId(id: unknown): string | null {
  if (typeof id !== 'string') return null;
  if (id.startsWith(GS1_RESOLVER_GLN) && /^\d{13}$/.test(id.slice(GS1_RESOLVER_GLN.length)))
    return id.slice(GS1_RESOLVER_GLN.length);
  return isGs1LocationUri(id) ? id : null;
}

/** OTEP location field -> name inside `otep:location`. */
const LOCATION_TERMS = [
  ['name', 'name'],
  ['city', 'city'],
  ['postal_code', 'postalCode'],
  ['country', 'country'],
  ['lat', 'latitude'],
  ['lng', 'longitude'],
  ['gln', 'gln'],
] as const;

// --- projection ------------------------------------------------------------------------------------------

export interface EpcisObjectEvent {
  type: 'ObjectEvent';
  eventID: string;
  eventTime: string;
  eventTimeZoneOffset: string;
  recordTime: string;
  action: 'OBSERVE';
  epcList: [string];
  bizStep?: string;
  disposition?: string;
  readPoint?: { id: string };
  bizLocation?: { id: string };
  [extension: `otep:${string}`]: unknown;
}

export interface EpcisDocument {
  '@context': [string, Record<string, string>];
  type: 'EPCISDocument';
  schemaVersion: '2.0';
  creationDate: string;
  epcisBody: { eventList: EpcisObjectEvent[] };
}

/** RFC 9562 name-based (SHA-1) UUID in the URL namespace. */
function uuidV5(name: string): string {
  const URL_NAMESPACE = Buffer.from('6ba7b8119dad11d180b400c04fd430c8', 'hex');
  const b = createHash('sha1').update(URL_NAMESPACE).update(name, 'utf8').digest().subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Event ids are unique per shipment, not worldwide: the eventID names both. */
export const eventUri = (e: Pick<OtepEvent, 'subject' | 'id'>) =>
  `urn:uuid:${uuidV5(`${shipmentUri(e.subject)}:event:${encodeURIComponent(e.id)}`)}`;

const present = <T>(v: T | null | undefined): v is T => v !== null && v !== undefined;

function locationFields(loc: OtepLocation | null | undefined) {
  if (!loc) return {};
  const id = present(loc.gln) ? locationIdFromGln(loc.gln) : null;
  const details = Object.fromEntries(
    LOCATION_TERMS.filter(([field]) => present(loc[field]) && !(field === 'gln' && id)).map(([field, term]) => [
      `otep:${term}`,
      loc[field],
    ]),
  );
  return {
    ...(id ? { readPoint: { id } } : {}),
    ...(Object.keys(details).length ? { 'otep:location': details } : {}),
  };
}

export function epcisEvent(e: OtepEvent): EpcisObjectEvent {
  const cbv = STATUS_BY_ID.get(e.status_code)?.projection.epcis;
  const { readPoint, ...location } = locationFields(e.location);
  // bizLocation is where the object is after the event: none while it is on the road.
  const settled = readPoint && cbv && bareDisposition(cbv.disposition) !== 'in_transit';
  return {
    type: 'ObjectEvent',
    eventID: eventUri(e),
    eventTime: e.occurred_at,
    eventTimeZoneOffset: offsetOf(e.occurred_at),
    recordTime: e.recorded_at,
    action: 'OBSERVE',
    epcList: [shipmentUri(e.subject)],
    ...(cbv ? { bizStep: bareBizStep(cbv.bizStep), disposition: bareDisposition(cbv.disposition) } : {}),
    ...(readPoint ? { readPoint } : {}),
    ...(settled ? { bizLocation: readPoint } : {}),
    'otep:eventId': e.id,
    'otep:statusCode': e.status_code,
    ...(present(e.incident_reason) ? { 'otep:incidentReason': e.incident_reason } : {}),
    ...(present(e.description) ? { 'otep:description': e.description } : {}),
    ...location,
    'otep:version': e.otep_version,
  };
}

export function epcisDocument(t: Timeline): EpcisDocument {
  // The newest record time keeps the projection a function of the timeline (cacheable, comparable).
  const newest = t.events
    .map((e) => e.recorded_at)
    .reduce<string | null>((a, b) => (a === null || Date.parse(b) > Date.parse(a) ? b : a), null);
  return {
    '@context': [EPCIS_CONTEXT, { otep: OTEP_NAMESPACE }],
    type: 'EPCISDocument',
    schemaVersion: '2.0',
    creationDate: newest ?? new Date().toISOString(),
    epcisBody: { eventList: t.events.map(epcisEvent) },
  };
}

export const epcis: Format = {
  id: 'epcis',
  mediaType: 'application/ld+json',
  project: (t) => epcisDocument(t),
  projectEvents: (t) => t.events.map(epcisEvent),
};

// --- ingest ----------------------------------------------------------------------------------------------

/** One inbound event in native OTEP shape, not yet validated: extension values are passed on as sent. */
export interface EpcisInboundEvent {
  id?: unknown;
  subject: string;
  occurred_at: string;
  status_code: unknown;
  location?: Record<string, unknown>;
  incident_reason?: unknown;
  description?: unknown;
}

export interface EpcisEventError {
  /** JSON pointer into the posted document of the field at fault. */
  pointer: string;
  code:
    | 'invalid_event'
    | 'unsupported_event_type'
    | 'error_declaration_unsupported'
    | 'missing_subject'
    | 'ambiguous_subject'
    | 'missing_event_time'
    | 'invalid_event_time'
    | 'unmapped_status';
  message: string;
}

export type ParsedEpcisEvent =
  { pointer: string; event: EpcisInboundEvent } | { pointer: string; error: EpcisEventError };

export interface ParsedEpcis {
  /** One entry per eventList item, in document order. */
  events: ParsedEpcisEvent[];
}

/** The posted body is no EPCIS document at all; parseEpcis throws it, and nothing in the body is read. */
export class EpcisDocumentError extends Error {
  readonly code: 'not_an_object' | 'not_epcis_document' | 'missing_event_list';
  readonly pointer: string;

  constructor(code: EpcisDocumentError['code'], pointer: string, message: string) {
    super(message);
    this.name = 'EpcisDocumentError';
    this.code = code;
    this.pointer = pointer;
  }
}

/** Prefixes a document binds to the OTEP namespace (`otep` always counts, for documents that forgot to). */
function otepPrefixes(...contexts: unknown[]): string[] {
  const prefixes = new Set(['otep']);
  for (const context of contexts) {
    for (const entry of Array.isArray(context) ? context : [context]) {
      if (!isRecord(entry)) continue;
      for (const [term, iri] of Object.entries(entry)) if (iri === OTEP_NAMESPACE) prefixes.add(term);
    }
  }
  return [...prefixes];
}

/** An OTEP extension value under any bound prefix or the full IRI; undefined when absent. */
function extension(obj: Record<string, unknown>, prefixes: string[], term: string): unknown {
  for (const key of [...prefixes.map((p) => `${p}:${term}`), OTEP_NAMESPACE + term])
    if (obj[key] !== undefined) return obj[key];
  return undefined;
}

function inboundLocation(event: Record<string, unknown>, prefixes: string[]): Record<string, unknown> | undefined {
  const details = extension(event, prefixes, 'location');
  const fields: Record<string, unknown> = {};
  if (isRecord(details)) {
    for (const [field, term] of LOCATION_TERMS) {
      const value = extension(details, prefixes, term);
      if (value !== undefined) fields[field] = value;
    }
  }
  const readPoint = event.readPoint;
  const bizLocation = event.bizLocation;
  const gln =
    glnFromLocationId(isRecord(readPoint) ? readPoint.id : null) ??
    glnFromLocationId(isRecord(bizLocation) ? bizLocation.id : null);
  if (gln && fields.gln === undefined) fields.gln = gln;
  return Object.keys(fields).length ? fields : undefined;
}

function parseEvent(raw: unknown, pointer: string, docPrefixes: string[]): ParsedEpcisEvent {
  const fail = (code: EpcisEventError['code'], path: string, message: string): ParsedEpcisEvent => ({
    pointer,
    error: { pointer: pointer + path, code, message },
  });
  if (!isRecord(raw)) return fail('invalid_event', '', 'an event must be a JSON object');
  if (raw.type !== 'ObjectEvent')
    return fail(
      'unsupported_event_type',
      '/type',
      `only ObjectEvents describe a shipment's status; got ${JSON.stringify(raw.type ?? null)}`,
    );
  // A retraction of an earlier event, not a new one: applying it as a status would be wrong.
  if (raw.errorDeclaration !== undefined)
    return fail(
      'error_declaration_unsupported',
      '/errorDeclaration',
      'event corrections (errorDeclaration) are not accepted; correct the event at its source',
    );

  const shipment = identifyShipment(raw);
  if ('code' in shipment) return fail(shipment.code, shipment.path, shipment.message);

  if (raw.eventTime === undefined) return fail('missing_event_time', '/eventTime', 'eventTime is required');
  const occurredAt = typeof raw.eventTime === 'string' ? inOffset(raw.eventTime, raw.eventTimeZoneOffset) : null;
  if (occurredAt === null) return fail('invalid_event_time', '/eventTime', 'eventTime must be an ISO 8601 date-time');

  const prefixes =
    raw['@context'] === undefined ? docPrefixes : [...new Set([...docPrefixes, ...otepPrefixes(raw['@context'])])];
  const statusCode = extension(raw, prefixes, 'statusCode') ?? statusFromCbv(raw.bizStep, raw.disposition);
  if (statusCode === null) {
    return fail(
      'unmapped_status',
      raw.bizStep === undefined ? '' : '/bizStep',
      `no OTEP status code projects to bizStep ${JSON.stringify(raw.bizStep ?? null)} with disposition ${JSON.stringify(raw.disposition ?? null)}; send otep:statusCode`,
    );
  }

  const id = extension(raw, prefixes, 'eventId') ?? raw.eventID;
  const location = inboundLocation(raw, prefixes);
  const incidentReason = extension(raw, prefixes, 'incidentReason');
  const description = extension(raw, prefixes, 'description');
  return {
    pointer,
    event: {
      ...(id !== undefined ? { id } : {}),
      subject: shipment.subject,
      occurred_at: occurredAt,
      status_code: statusCode,
      ...(location ? { location } : {}),
      ...(incidentReason !== undefined ? { incident_reason: incidentReason } : {}),
      ...(description !== undefined ? { description } : {}),
    },
  };
}

/**
 * Reads an EPCIS 2.0 JSON(-LD) EPCISDocument, or an EPCISQueryDocument's query results, into one entry per
 * event: a raw OTEP event (validated by the caller) or the reason it could not be read, each with the JSON
 * pointer of the event. Throws EpcisDocumentError when the body is not an EPCIS document with an event list.
 */
export function parseEpcis(doc: unknown): ParsedEpcis {
  if (!isRecord(doc)) throw new EpcisDocumentError('not_an_object', '', 'the body must be a JSON object');
  if (doc.type !== 'EPCISDocument' && doc.type !== 'EPCISQueryDocument') {
    throw new EpcisDocumentError(
      'not_epcis_document',
      '/type',
      `type must be EPCISDocument or EPCISQueryDocument; got ${JSON.stringify(doc.type ?? null)}`,
    );
  }
  const body = isRecord(doc.epcisBody) ? doc.epcisBody : null;
  const results =
    body && isRecord(body.queryResults) && isRecord(body.queryResults.resultsBody)
      ? body.queryResults.resultsBody
      : null;
  const [list, base] = Array.isArray(body?.eventList)
    ? [body.eventList, '/epcisBody/eventList']
    : Array.isArray(results?.eventList)
      ? [results.eventList, '/epcisBody/queryResults/resultsBody/eventList']
      : [null, ''];
  if (!list)
    throw new EpcisDocumentError(
      'missing_event_list',
      '/epcisBody',
      'epcisBody.eventList (or epcisBody.queryResults.resultsBody.eventList) must be an array',
    );
  const prefixes = otepPrefixes(doc['@context']);
  return { events: list.map((raw: unknown, i) => parseEvent(raw, `${base}/${i}`, prefixes)) };
}
