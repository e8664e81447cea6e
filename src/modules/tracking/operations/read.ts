import { z } from 'zod';
import { loadTimelines, packageNumbersOfOrder } from '../repo/timeline.ts';
import { errors } from '../../../platform/errors.ts';
import { translate, type MessageKey } from '../../../platform/i18n/messages.ts';
import type { Language } from '../../../platform/i18n/languages.ts';
import { checkDocument, DocumentError } from '../document.ts';
import { DEFAULT_FORMAT, FORMAT_IDS, FORMATS } from '../formats/index.ts';
import { TIMELINE_REPRESENTATION } from '../representation.ts';
import type { Timeline } from '../model.ts';
import type { Finding } from '../rules.ts';
import { STATUS_BY_ID, vocabularyDocument } from '../vocabulary.ts';
import { defineOperation, type OperationContext } from '../../../platform/catalog/types.ts';

/** Most tracking numbers one batch read resolves. */
export const MAX_BATCH_TRACKINGS = 100;

/** Blanks around a number are dropped; a number of blanks only is none (the published pattern says so too). */
const trackingNumber = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .meta({ examples: ['TMS3F9A1C7B2E04'] });
const format = z.enum(FORMAT_IDS as [string, ...string[]]).default(DEFAULT_FORMAT);
const anyJson = z.unknown();

/** The reference's example of the default (otep) representation: a parcel picked up after its creation. */
const TIMELINE_EXAMPLE = {
  otep_version: '1.0.0',
  tracking_number: 'TMS3F9A1C7B2E04',
  service: 'D',
  current: {
    status_code: 'otep:core:picked_up',
    phase: 'otep:phase:pickup',
    occurred_at: '2025-03-12T16:30:00+01:00',
    terminal: false,
  },
  events: [
    {
      id: 'ev-1',
      otep_version: '1.0.0',
      subject: 'TMS3F9A1C7B2E04',
      occurred_at: '2025-03-12T09:00:00Z',
      recorded_at: '2025-03-12T09:00:01Z',
      status_code: 'otep:core:created',
      phase: 'otep:phase:pre_shipment',
      source: 'merchant',
    },
    {
      id: 'ev-2',
      otep_version: '1.0.0',
      subject: 'TMS3F9A1C7B2E04',
      occurred_at: '2025-03-12T16:30:00+01:00',
      recorded_at: '2025-03-12T15:31:10Z',
      status_code: 'otep:core:picked_up',
      phase: 'otep:phase:pickup',
      location: { name: 'Sender dock', city: 'Praha', postal_code: '110 00', country: 'CZ' },
      source: 'carrier',
    },
  ],
} satisfies Timeline;
/** The examples are the default format's own projection of it, so they follow the format. */
const DEFAULT_PROJECTION = FORMATS.get(DEFAULT_FORMAT)!;
const EXAMPLE_CONTEXT = { baseUrl: 'https://tms.example' };

/** A finding as callers read it: where, what, and a message in their language. */
export function presentFinding(f: Finding, lang: Language) {
  return {
    severity: f.severity,
    pointer: f.pointer,
    code: f.code,
    message: translate(`otep.${f.code}` as MessageKey, lang, f.params),
  };
}

/** A JSON Pointer as the dotted field name of the error body; the whole body is `body`. */
export const fieldOfPointer = (pointer: string) => (pointer === '' ? 'body' : pointer.slice(1).replace(/\//g, '.'));

/** A document that cannot be read as a timeline: 422 naming the pointer, in the caller's language. */
export function documentFailure(e: unknown): never {
  if (!(e instanceof DocumentError)) throw e;
  const { pointer, code, params } = e.finding;
  throw errors.field(fieldOfPointer(pointer), `otep.${code}` as MessageKey, params);
}

async function timelineOf(ctx: OperationContext, tn: string): Promise<Timeline> {
  const timeline = (await loadTimelines(ctx.em, [tn], true)).get(tn);
  if (!timeline) throw errors.notFound();
  return timeline;
}

const projectionContext = (ctx: OperationContext) => ({ baseUrl: ctx.config.publicBaseUrl });

export const otepVocabulary = defineOperation({
  name: 'otep_vocabulary',
  summary:
    'The OTEP vocabulary: status codes with phases and projections to EPCIS, ONE Record and UN/CEFACT, and incident reasons.',
  description:
    'One JSON document: the protocol version, the profiles and whether each is published, the phases, each status code with its phase, the universal code it refines and its EPCIS, ONE Record and UN/CEFACT projections, and the incident reasons. A published code never changes meaning and is never removed, so a client may cache it. Needs no token.',
  tag: 'OTEP',
  roles: 'public',
  limit: 'public_read',
  rest: { method: 'GET', path: '/v1/otep/vocabulary' },
  input: z.object({}).strict(),
  output: anyJson,
  handler: async () => vocabularyDocument(),
});

export const otepTrackingGet = defineOperation({
  name: 'otep_tracking_get',
  summary: 'The unified timeline of a tracking number, in the representation `format` names (default otep).',
  description:
    "Needs no token and shows nothing private: no recipient, order reference or price, only the carrier's scan places. `format` picks the representation (otep, epcis, onerecord, uncefact, otlp, sensorthings and several e-commerce platforms); without it, the `profile` of the Accept header does, and the answer carries the chosen media type. A parcel a carrier carries (a bought label's) is found by the carrier's tracking number too, and answered under it. An unknown number answers NOT_FOUND, an unknown format VALIDATION_FAILED. For many numbers use `otep_trackings_batch`.",
  tag: 'OTEP',
  roles: 'public',
  limit: 'public_read',
  rest: {
    method: 'GET',
    path: '/v1/otep/trackings/{tracking_number}',
    representation: TIMELINE_REPRESENTATION,
  },
  failures: { NOT_FOUND: 'No timeline has this tracking number' },
  graphql: { name: 'otepTracking', kind: 'query' },
  mcp: {
    scope: null,
    risk: 'low',
    tool: { user: 'otep_tracking', developer: 'get_otep_tracking' },
    servers: ['user', 'developer'],
  },
  input: z.object({ tracking_number: trackingNumber, format }).strict(),
  output: anyJson,
  examples: { output: DEFAULT_PROJECTION.project(TIMELINE_EXAMPLE, EXAMPLE_CONTEXT) },
  async handler(input, ctx) {
    return FORMATS.get(input.format)!.project(await timelineOf(ctx, input.tracking_number), projectionContext(ctx));
  },
});

export const otepTrackingEvents = defineOperation({
  name: 'otep_tracking_events',
  summary: "Only the events of a tracking number's timeline, in the representation `format` names.",
  description:
    "Same as `otep_tracking_get` without the timeline's header (service, current status, projections), for a client that merges events into its own records; a format without an events-only form answers its whole timeline. Needs no token. An unknown number answers NOT_FOUND, an unknown format VALIDATION_FAILED.",
  tag: 'OTEP',
  roles: 'public',
  limit: 'public_read',
  rest: {
    method: 'GET',
    path: '/v1/otep/trackings/{tracking_number}/events',
    representation: TIMELINE_REPRESENTATION,
  },
  failures: { NOT_FOUND: 'No timeline has this tracking number' },
  input: z.object({ tracking_number: trackingNumber, format }).strict(),
  output: anyJson,
  examples: {
    output: (DEFAULT_PROJECTION.projectEvents ?? DEFAULT_PROJECTION.project)(TIMELINE_EXAMPLE, EXAMPLE_CONTEXT),
  },
  async handler(input, ctx) {
    const f = FORMATS.get(input.format)!;
    const timeline = await timelineOf(ctx, input.tracking_number);
    return (f.projectEvents ?? f.project)(timeline, projectionContext(ctx));
  },
});

export const otepTrackingBatch = defineOperation({
  name: 'otep_trackings_batch',
  summary: `Timelines of up to ${MAX_BATCH_TRACKINGS} tracking numbers in one call; unknown ones answer found:false.`,
  description:
    'Use it instead of one read per parcel, for example to refresh a list: each number is answered once, in the order first given, with `found` and, when found, its timeline in the chosen `format`. Unknown numbers are not an error, and the call counts once against the public read limit. Needs no token; an empty list or too many numbers answers VALIDATION_FAILED.',
  tag: 'OTEP',
  roles: 'public',
  limit: 'public_read',
  rest: { method: 'POST', path: '/v1/otep/trackings/batch' },
  input: z.object({ tracking_numbers: z.array(trackingNumber).min(1).max(MAX_BATCH_TRACKINGS), format }).strict(),
  output: z.object({
    results: z.array(z.object({ tracking_number: z.string(), found: z.boolean(), timeline: anyJson.optional() })),
  }),
  async handler(input, ctx) {
    const unique = [...new Set(input.tracking_numbers)];
    const timelines = await loadTimelines(ctx.em, unique, true);
    const f = FORMATS.get(input.format)!;
    return {
      results: unique.map((tn) => {
        const t = timelines.get(tn);
        return t
          ? { tracking_number: tn, found: true, timeline: f.project(t, projectionContext(ctx)) }
          : { tracking_number: tn, found: false };
      }),
    };
  },
});

export const publicTracking = defineOperation({
  name: 'public_tracking',
  summary: 'Classic public package tracking, answered from the OTEP timeline.',
  description:
    "Answers the parcel's current status with its label, whether it is delivered, each package of the same order with its own status, and the events newest first with city and country. Needs no token and shows nothing private. Use it for a customer-facing tracking page; `otep_tracking_get` gives the whole timeline in standard formats. A parcel a carrier carries (a bought label's) is found by the carrier's tracking number too. An unknown number answers NOT_FOUND.",
  tag: 'Tracking',
  roles: 'public',
  limit: 'public_read',
  rest: { method: 'GET', path: '/v1/tracking/{number}' },
  failures: { NOT_FOUND: 'No parcel has this tracking number' },
  graphql: { name: 'trackingPublic', kind: 'query' },
  mcp: { scope: null, risk: 'low', tool: 'track_package', servers: ['user', 'developer'] },
  input: z.object({ number: trackingNumber }).strict(),
  output: anyJson,
  async handler(input, ctx) {
    // The parcel asked about, and each package of its order with where it stands.
    const numbers = await packageNumbersOfOrder(ctx.em, input.number);
    // The number asked may be a carried parcel's carrier number: its timeline is read under it.
    const timelines = await loadTimelines(ctx.em, [...new Set([input.number, ...numbers])], true);
    const t = timelines.get(input.number);
    if (!t) throw errors.notFound();
    const statusOf = (current: Timeline['current']) =>
      current && {
        code: current.status_code,
        label: STATUS_BY_ID.get(current.status_code)?.label ?? current.status_code,
        since: current.occurred_at,
      };
    const place = (e: Timeline['events'][number]) =>
      [e.location?.city, e.location?.country].filter(Boolean).join(', ') || null;
    return {
      tracking_number: t.tracking_number,
      status: statusOf(t.current),
      delivered: t.current?.phase === 'otep:phase:delivered',
      // Every package of the order; the order is delivered when each of them is.
      packages: numbers.map((n) => ({
        tracking_number: n,
        status: statusOf(timelines.get(n)?.current ?? null),
        delivered: timelines.get(n)?.current?.phase === 'otep:phase:delivered',
      })),
      events: t.events.toReversed().map((e) => ({
        time: e.occurred_at,
        status: e.status_code,
        label: STATUS_BY_ID.get(e.status_code)?.label ?? e.status_code,
        location: place(e),
        ...(e.after_terminal ? { after_terminal: true } : {}),
      })),
    };
  },
});

export const otepValidate = defineOperation({
  name: 'otep_validate',
  summary:
    'OTEP conformance validator: every error and warning with a JSON Pointer, and the conformance level reached.',
  description:
    "Runs the rules ingest applies on a posted OTEP document and stores nothing: answers `valid`, the conformance level (0 to 2) and each error and warning with its JSON Pointer, code and a message in the caller's language. Use it while building an integration, before pushing with `otep_ingest`. Needs no token; a document that cannot be read at all is answered as one error, not refused.",
  tag: 'OTEP',
  roles: 'public',
  limit: 'public_read',
  rest: { method: 'POST', path: '/v1/otep/validate' },
  mcp: { scope: null, risk: 'low', tool: 'validate_otep_payload', servers: ['developer'] },
  input: anyJson,
  output: anyJson,
  async handler(input, ctx) {
    let findings: Finding[];
    let level = 0;
    try {
      const checked = checkDocument(input);
      findings = [...checked.events.flatMap((e) => e.findings), ...checked.findings];
      level = checked.level;
    } catch (e) {
      if (!(e instanceof DocumentError)) throw e;
      findings = [e.finding];
    }
    const present = (severity: Finding['severity']) =>
      findings.filter((f) => f.severity === severity).map((f) => presentFinding(f, ctx.lang));
    const errorsFound = present('error');
    return { valid: errorsFound.length === 0, level, errors: errorsFound, warnings: present('warning') };
  },
});
