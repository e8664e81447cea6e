/**
 * The one OTEP rule set: the validator reports what it finds, ingest accepts an event only when it finds no
 * error. Findings point at the offending field with a JSON Pointer (RFC 6901) into the posted document.
 */
import {
  OTEP_VERSION,
  PHASES,
  parseStatusId,
  phaseId,
  PROFILES,
  REASON_BY_ID,
  STATUS_BY_ID,
  type Phase,
  type StatusCode,
} from './vocabulary.ts';
import { isObject } from '../../platform/json.ts';

export type FindingCode =
  | 'not_an_object'
  | 'required'
  | 'not_a_string'
  | 'too_long'
  | 'bad_time'
  | 'time_zone_missing'
  | 'time_zone_invalid'
  | 'absurd_date'
  | 'in_future'
  | 'bad_status_code'
  | 'unknown_profile'
  | 'unknown_status_code'
  | 'experimental_code'
  | 'bad_phase'
  | 'phase_mismatch'
  | 'phase_required'
  | 'unknown_reason'
  | 'reason_missing'
  | 'bad_location'
  | 'unsupported_version'
  | 'version_missing'
  | 'unknown_field'
  | 'subject_mismatch'
  | 'after_terminal'
  | 'phase_regression'
  | 'duplicate_in_document';

export interface Finding {
  severity: 'error' | 'warning';
  pointer: string;
  code: FindingCode;
  /** Values for the message; the message itself is rendered in the caller's language. */
  params?: Record<string, string | number>;
}

export interface NormalizedLocation {
  name?: string | null;
  city?: string | null;
  postal_code?: string | null;
  country?: string | null;
  lat?: number | null;
  lng?: number | null;
  gln?: string | null;
}

/** An event that passed the rules, in the form the store writes. */
export interface NormalizedEvent {
  /** The sender's id, when it sent one. */
  id: string | null;
  subject: string;
  occurredAt: Date;
  /** Minutes east of UTC the sender wrote occurred_at in. */
  offsetMin: number;
  statusCode: string;
  phase: Phase;
  /** The published code, or null for an experimental (`x-`) one. */
  status: StatusCode | null;
  location: NormalizedLocation | null;
  incidentReason: string | null;
  description: string | null;
  otepVersion: string;
}

export interface CheckedEvent {
  pointer: string;
  findings: Finding[];
  /** Present when no finding is an error. */
  event?: NormalizedEvent;
}

/** Limits of one event, also documented in docs/otep.md. */
export const EVENT_LIMITS = { subject: 64, id: 200, description: 1000, locationText: 200 } as const;
/** Events may be reported up to this far ahead of our clock (carrier clocks drift). */
const FUTURE_SKEW_MS = 15 * 60_000;
const EARLIEST = Date.UTC(2000, 0, 1);

/** Fields of our own published events: accepted back on ingest (a timeline read is a valid push) and ignored. */
const OWN_FIELDS = new Set(['recorded_at', 'source', 'after_terminal']);
const EVENT_FIELDS = new Set([
  'id',
  'otep_version',
  'subject',
  'occurred_at',
  'status_code',
  'phase',
  'location',
  'incident_reason',
  'description',
]);
const LOCATION_TEXT = ['name', 'city', 'postal_code', 'gln'] as const;

const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/i;

const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Parses an ISO 8601 time that must carry its offset; reports why it cannot be used. */
export function parseOccurredAt(text: string): { at: Date; offsetMin: number } | { problem: FindingCode } {
  const m = ISO_TIME.exec(text);
  if (!m) return { problem: 'bad_time' };
  const zone = m[7];
  if (!zone) return { problem: 'time_zone_missing' };
  let offsetMin = 0;
  if (zone.toUpperCase() !== 'Z') {
    const hours = Number(zone.slice(1, 3));
    const minutes = Number(zone.slice(4, 6));
    if (hours > 14 || minutes > 59 || (hours === 14 && minutes > 0)) return { problem: 'time_zone_invalid' };
    offsetMin = (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
  }
  const at = new Date(text);
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // Date accepts 2026-02-31 by rolling over; a calendar date that does not exist is not a time.
  const local = new Date(at.getTime() + offsetMin * 60_000);
  if (
    Number.isNaN(at.getTime()) ||
    local.getUTCFullYear() !== year ||
    local.getUTCMonth() + 1 !== month ||
    local.getUTCDate() !== day
  )
    return { problem: 'bad_time' };
  return { at, offsetMin };
}

function checkLocation(raw: unknown, pointer: string, findings: Finding[]): NormalizedLocation | null {
  if (raw === undefined || raw === null) return null;
  if (!isObject(raw)) {
    findings.push({ severity: 'error', pointer, code: 'bad_location', params: { field: 'location' } });
    return null;
  }
  const out: NormalizedLocation = {};
  for (const key of LOCATION_TEXT) {
    const v = raw[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string' || v.length > EVENT_LIMITS.locationText)
      findings.push({ severity: 'error', pointer: `${pointer}/${key}`, code: 'bad_location', params: { field: key } });
    else out[key] = v;
  }
  if (raw.country !== undefined && raw.country !== null) {
    if (typeof raw.country !== 'string' || !/^[A-Za-z]{2}$/.test(raw.country))
      findings.push({
        severity: 'error',
        pointer: `${pointer}/country`,
        code: 'bad_location',
        params: { field: 'country' },
      });
    else out.country = raw.country.toUpperCase();
  }
  for (const [key, limit] of [
    ['lat', 90],
    ['lng', 180],
  ] as const) {
    const v = raw[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > limit)
      findings.push({ severity: 'error', pointer: `${pointer}/${key}`, code: 'bad_location', params: { field: key } });
    else out[key] = v;
  }
  const given = (v: unknown) => v !== undefined && v !== null;
  if (given(raw.lat) !== given(raw.lng))
    findings.push({
      severity: 'error',
      pointer,
      code: 'bad_location',
      params: { field: given(raw.lat) ? 'lng' : 'lat' },
    });
  for (const key of Object.keys(raw)) {
    if (!['country', 'lat', 'lng', ...LOCATION_TEXT].includes(key))
      findings.push({
        severity: 'warning',
        pointer: `${pointer}/${escape(key)}`,
        code: 'unknown_field',
        params: { field: key },
      });
  }
  return out;
}

function text(
  raw: Record<string, unknown>,
  key: string,
  pointer: string,
  max: number,
  findings: Finding[],
  required = false,
): string | null {
  const v = raw[key];
  if (v === undefined || v === null || v === '') {
    if (required)
      findings.push({ severity: 'error', pointer: `${pointer}/${key}`, code: 'required', params: { field: key } });
    return null;
  }
  if (typeof v !== 'string') {
    findings.push({ severity: 'error', pointer: `${pointer}/${key}`, code: 'not_a_string', params: { field: key } });
    return null;
  }
  if (v.length > max) {
    findings.push({ severity: 'error', pointer: `${pointer}/${key}`, code: 'too_long', params: { field: key, max } });
    return null;
  }
  return v;
}

/**
 * Checks one event. `defaultSubject` is the document's tracking number, which events may leave out;
 * `now` is the clock events may not be ahead of.
 */
export function checkEvent(
  raw: unknown,
  pointer: string,
  defaultSubject: string | null,
  now = Date.now(),
): CheckedEvent {
  const findings: Finding[] = [];
  if (!isObject(raw)) return { pointer, findings: [{ severity: 'error', pointer, code: 'not_an_object' }] };

  const id = text(raw, 'id', pointer, EVENT_LIMITS.id, findings);
  let subject = text(raw, 'subject', pointer, EVENT_LIMITS.subject, findings, defaultSubject === null);
  if (subject !== null && defaultSubject !== null && subject !== defaultSubject) {
    findings.push({
      severity: 'error',
      pointer: `${pointer}/subject`,
      code: 'subject_mismatch',
      params: { expected: defaultSubject },
    });
  }
  subject ??= defaultSubject;

  let occurred: { at: Date; offsetMin: number } | null = null;
  const timeText = text(raw, 'occurred_at', pointer, 64, findings, true);
  if (timeText !== null) {
    const parsed = parseOccurredAt(timeText);
    if ('problem' in parsed)
      findings.push({ severity: 'error', pointer: `${pointer}/occurred_at`, code: parsed.problem });
    else if (parsed.at.getTime() < EARLIEST)
      findings.push({ severity: 'error', pointer: `${pointer}/occurred_at`, code: 'absurd_date' });
    else if (parsed.at.getTime() > now + FUTURE_SKEW_MS)
      findings.push({ severity: 'error', pointer: `${pointer}/occurred_at`, code: 'in_future' });
    else occurred = parsed;
  }

  let status: StatusCode | null = null;
  let phase: Phase | null = null;
  const statusCode = text(raw, 'status_code', pointer, 120, findings, true);
  let statusUsable = false;
  if (statusCode !== null) {
    const parsed = parseStatusId(statusCode);
    if (!parsed) findings.push({ severity: 'error', pointer: `${pointer}/status_code`, code: 'bad_status_code' });
    else if (!(parsed.profile in PROFILES))
      findings.push({
        severity: 'error',
        pointer: `${pointer}/status_code`,
        code: 'unknown_profile',
        params: { profile: parsed.profile },
      });
    else if (parsed.experimental) {
      findings.push({ severity: 'warning', pointer: `${pointer}/status_code`, code: 'experimental_code' });
      statusUsable = true;
    } else {
      status = STATUS_BY_ID.get(statusCode) ?? null;
      if (!status) findings.push({ severity: 'error', pointer: `${pointer}/status_code`, code: 'unknown_status_code' });
      else {
        phase = status.phase;
        statusUsable = true;
      }
    }
  }

  const phaseText = text(raw, 'phase', pointer, 40, findings);
  if (phaseText !== null) {
    const name = phaseText.startsWith('otep:phase:') ? phaseText.slice('otep:phase:'.length) : null;
    if (name === null || !(PHASES as readonly string[]).includes(name))
      findings.push({ severity: 'error', pointer: `${pointer}/phase`, code: 'bad_phase' });
    else if (phase !== null && name !== phase)
      findings.push({
        severity: 'error',
        pointer: `${pointer}/phase`,
        code: 'phase_mismatch',
        params: { expected: phaseId(phase) },
      });
    else phase = name as Phase;
  } else if (statusUsable && phase === null) {
    findings.push({ severity: 'error', pointer: `${pointer}/phase`, code: 'phase_required' });
  }

  const reason = text(raw, 'incident_reason', pointer, 120, findings);
  if (reason !== null && !REASON_BY_ID.has(reason)) {
    const experimental = /^otep:reason:x-[a-z][a-z0-9_-]*$/.test(reason);
    findings.push({
      severity: experimental ? 'warning' : 'error',
      pointer: `${pointer}/incident_reason`,
      code: experimental ? 'experimental_code' : 'unknown_reason',
    });
  }
  const needsReason =
    status !== null && ['otep:core:delivery_failed', 'otep:core:exception'].includes(status.refines ?? status.id);
  if (needsReason && reason === null)
    findings.push({ severity: 'warning', pointer: `${pointer}/incident_reason`, code: 'reason_missing' });

  const description = text(raw, 'description', pointer, EVENT_LIMITS.description, findings);
  const location = checkLocation(raw.location, `${pointer}/location`, findings);

  let version = OTEP_VERSION;
  const versionText = text(raw, 'otep_version', pointer, 20, findings);
  if (versionText === null)
    findings.push({
      severity: 'warning',
      pointer: `${pointer}/otep_version`,
      code: 'version_missing',
      params: { version: OTEP_VERSION },
    });
  else if (!/^1\.\d+\.\d+$/.test(versionText))
    findings.push({
      severity: 'error',
      pointer: `${pointer}/otep_version`,
      code: 'unsupported_version',
      params: { version: OTEP_VERSION },
    });
  else version = versionText;

  for (const key of Object.keys(raw)) {
    if (!EVENT_FIELDS.has(key) && !OWN_FIELDS.has(key))
      findings.push({
        severity: 'warning',
        pointer: `${pointer}/${escape(key)}`,
        code: 'unknown_field',
        params: { field: key },
      });
  }

  if (findings.some((f) => f.severity === 'error')) return { pointer, findings };
  return {
    pointer,
    findings,
    event: {
      id,
      subject: subject!,
      occurredAt: occurred!.at,
      offsetMin: occurred!.offsetMin,
      statusCode: statusCode!,
      phase: phase!,
      status,
      location,
      incidentReason: reason,
      description,
      otepVersion: version,
    },
  };
}

const PHASE_RANK: Record<Phase, number> = {
  pre_shipment: 0,
  pickup: 1,
  inbound: 2,
  transit: 2,
  out_for_delivery: 2,
  delivered: 3,
  closed: 3,
};

/**
 * Transition rules over a timeline in occurrence order: an event after a terminal one is kept and flagged;
 * going back to pre-shipment or pickup once the parcel is in the network is a regression. Returns the
 * index of each event that comes after a terminal event.
 */
export function checkTransitions(
  events: readonly { pointer: string; event: Pick<NormalizedEvent, 'occurredAt' | 'phase'> }[],
): { findings: Finding[]; afterTerminal: Set<number> } {
  const order = events
    .map((_, i) => i)
    .sort((a, b) => events[a]!.event.occurredAt.getTime() - events[b]!.event.occurredAt.getTime() || a - b);
  const findings: Finding[] = [];
  const afterTerminal = new Set<number>();
  let ended = false;
  let highest = -1;
  for (const i of order) {
    const { pointer, event } = events[i]!;
    const rank = PHASE_RANK[event.phase];
    if (ended) {
      afterTerminal.add(i);
      findings.push({ severity: 'warning', pointer, code: 'after_terminal' });
    } else if (rank < 2 && highest >= 2) {
      findings.push({ severity: 'warning', pointer: `${pointer}/phase`, code: 'phase_regression' });
    }
    highest = Math.max(highest, rank);
    if (event.phase === 'delivered' || event.phase === 'closed') ended = true;
  }
  return { findings, afterTerminal };
}
