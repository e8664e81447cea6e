/**
 * A posted OTEP timeline document, checked as a whole: each event by the rule set, then the transitions
 * between them, then the conformance level the document reaches. Shared by the validator and native ingest.
 */
import { checkEvent, checkTransitions, type CheckedEvent, type Finding } from './rules.ts';
import { isObject } from '../../platform/json.ts';

/** Most events one document may carry (ingest and validator). */
export const MAX_EVENTS_PER_DOCUMENT = 1000;
/** External standards a document may declare it is published in (level 2 needs one). */
export const PROJECTION_STANDARDS = ['epcis', 'onerecord', 'uncefact'] as const;

export interface CheckedDocument {
  trackingNumber: string | null;
  events: CheckedEvent[];
  /** Document-level findings and transition findings; per-event findings stay on their events. */
  findings: Finding[];
  level: 0 | 1 | 2;
}

export class DocumentError extends Error {
  readonly finding: Finding;
  constructor(finding: Finding) {
    super(finding.code);
    this.finding = finding;
  }
}

/** Throws DocumentError when the document cannot be read as a timeline at all. */
export function checkDocument(raw: unknown, now = Date.now()): CheckedDocument {
  if (!isObject(raw)) throw new DocumentError({ severity: 'error', pointer: '', code: 'not_an_object' });
  if (!Array.isArray(raw.events))
    throw new DocumentError({ severity: 'error', pointer: '/events', code: 'required', params: { field: 'events' } });
  if (raw.events.length > MAX_EVENTS_PER_DOCUMENT)
    throw new DocumentError({
      severity: 'error',
      pointer: '/events',
      code: 'too_long',
      params: { field: 'events', max: MAX_EVENTS_PER_DOCUMENT },
    });
  const findings: Finding[] = [];
  const tn = raw.tracking_number;
  if (tn !== undefined && tn !== null && typeof tn !== 'string')
    findings.push({
      severity: 'error',
      pointer: '/tracking_number',
      code: 'not_a_string',
      params: { field: 'tracking_number' },
    });
  const trackingNumber = typeof tn === 'string' && tn !== '' ? tn : null;

  const events = raw.events.map((e, i) => checkEvent(e, `/events/${i}`, trackingNumber, now));
  const seen = new Map<string, string>();
  for (const c of events) {
    if (!c.event?.id) continue;
    const key = `${c.event.subject}\u0000${c.event.id}`;
    if (seen.has(key))
      c.findings.push({
        severity: 'warning',
        pointer: `${c.pointer}/id`,
        code: 'duplicate_in_document',
        params: { first: seen.get(key)! },
      });
    else seen.set(key, c.pointer);
  }

  // Transitions are judged per shipment, in occurrence order.
  const bySubject = new Map<string, { pointer: string; event: NonNullable<CheckedEvent['event']> }[]>();
  for (const c of events)
    if (c.event)
      bySubject.set(c.event.subject, [
        ...(bySubject.get(c.event.subject) ?? []),
        { pointer: c.pointer, event: c.event },
      ]);
  for (const list of bySubject.values()) findings.push(...checkTransitions(list).findings);

  const projections = Array.isArray(raw.projections) ? raw.projections : [];
  return { trackingNumber, events, findings, level: levelOf(events, findings, projections) };
}

function levelOf(events: CheckedEvent[], findings: Finding[], projections: unknown[]): 0 | 1 | 2 {
  const all = [...findings, ...events.flatMap((e) => e.findings)];
  if (events.length === 0 || all.some((f) => f.severity === 'error')) return 0;
  // Level 1: published codes with their phases, and transitions that break no rule.
  if (
    events.some((e) => e.event!.status === null) ||
    findings.some((f) => f.code === 'after_terminal' || f.code === 'phase_regression')
  )
    return 0;
  const profileCode = events.some((e) => e.event!.status!.profile !== 'core');
  const projected = projections.some((p) => (PROJECTION_STANDARDS as readonly unknown[]).includes(p));
  return profileCode && projected ? 2 : 1;
}
