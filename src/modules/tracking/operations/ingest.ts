import { z } from 'zod';
import { createCredential, listCredentials, MAX_ACTIVE_KEYS, revokeCredential } from '../repo/credentials.ts';
import { ingestTrackingEvents, type IngestOutcome } from '../repo/ingest.ts';
import { errors } from '../../../platform/errors.ts';
import { fail } from '../../../platform/errorCodes.ts';
import { translate, type MessageKey } from '../../../platform/i18n/messages.ts';
import { PROVIDERS } from '../../../platform/roles.ts';
import { checkDocument, MAX_EVENTS_PER_DOCUMENT } from '../document.ts';
import { EpcisDocumentError, parseEpcis } from '../formats/epcis.ts';
import { checkEvent } from '../rules.ts';
import { OTEP_VERSION } from '../vocabulary.ts';
import type { CheckedEvent, Finding } from '../rules.ts';
import { documentFailure, fieldOfPointer, presentFinding } from './read.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { keyView, pathCode } from '../../../platform/catalog/schemas.ts';
import { moveByTrackedEvents, removeCancelledPackages, type TrackedMove } from '../../distribution/index.ts';
import { tellAssignmentsOfProgress } from '../../third-party-deliveries/index.ts';
import { actorOf, runOrderAtWarehouseHooks } from '../../orders/index.ts';
import { atWarehouseCode } from '../orderStatusMap.ts';

const EventOutcome = z.object({
  pointer: z.string(),
  status: z.enum(['accepted', 'duplicate', 'rejected']),
  event_id: z.string().optional(),
  revision: z.number().int().optional(),
  reason: z.enum(['invalid', 'unknown_shipment', 'not_your_shipment']).optional(),
  message: z.string().optional(),
  findings: z
    .array(z.object({ severity: z.string(), pointer: z.string(), code: z.string(), message: z.string() }))
    .optional(),
});
/** A carrier's cancellation of a package: it leaves the package's distribution. */
const CANCELLED_STATUS = 'otep:core:cancelled';

export const IngestAnswer = z.object({
  result: z.literal(true),
  accepted: z.number().int(),
  duplicates: z.number().int(),
  rejected: z.number().int(),
  events: z.array(EventOutcome),
});

/**
 * Ingests checked events for the calling provider and answers per event, in document order. Invalid events
 * are rejected with their findings; warnings of accepted events are reported too.
 */
export async function ingestChecked(
  ctx: BusinessContext,
  source: TrackedMove['source'],
  checked: readonly CheckedEvent[],
  extra: readonly Finding[] = [],
): Promise<z.input<typeof IngestAnswer>> {
  const valid = checked.filter((c) => c.event).map((c) => ({ pointer: c.pointer, event: c.event! }));
  const outcomes = new Map<string, IngestOutcome>();
  for (const o of await ingestTrackingEvents(ctx.em, ctx.caller.businessId, valid, actorOf(ctx)))
    outcomes.set(o.pointer, o);
  // Events at a place of the package's business move its distribution; a duplicate too, in case its first send was lost.
  await moveByTrackedEvents(
    ctx,
    valid.flatMap(({ pointer, event }) => {
      const o = outcomes.get(pointer);
      const locationId = event.location?.gln;
      if (!o || o.status === 'rejected' || !locationId) return [];
      return [
        {
          packageNumber: event.subject,
          statusCode: event.statusCode,
          locationId,
          occurredAt: event.occurredAt,
          key: o.event_id,
          source,
        },
      ];
    }),
  );
  // A package the carrier cancelled leaves its distribution; a duplicate too, in case its first send was lost.
  await removeCancelledPackages(
    ctx,
    valid.flatMap(({ pointer, event }) => {
      const o = outcomes.get(pointer);
      if (!o || o.status === 'rejected' || event.statusCode !== CANCELLED_STATUS) return [];
      return [{ packageNumber: event.subject, occurredAt: event.occurredAt, key: o.event_id, source }];
    }),
  );
  // The provider's assignments of these packages look at their news (a partial or whole delivery).
  await tellAssignmentsOfProgress(
    ctx,
    ctx.caller.businessId,
    valid.filter(({ pointer }) => outcomes.get(pointer)?.status === 'accepted').map(({ event }) => event.subject),
  );
  // A parcel its carrier received at a facility is held there: an interception waiting for it hears so.
  await runOrderAtWarehouseHooks(
    ctx,
    valid
      .filter(({ pointer, event }) => outcomes.get(pointer)?.status === 'accepted' && atWarehouseCode(event.statusCode))
      .map(({ event }) => ({
        packageNumber: event.subject,
        place: null,
        source: 'carrier' as const,
        reportedBy: ctx.caller.businessId,
        occurredAt: event.occurredAt.toISOString(),
      })),
  );
  const findingsAt = (c: CheckedEvent) =>
    [...c.findings, ...extra.filter((f) => f.pointer === c.pointer || f.pointer.startsWith(`${c.pointer}/`))].map((f) =>
      presentFinding(f, ctx.lang),
    );
  const events = checked.map((c) => {
    const findings = findingsAt(c);
    const outcome = outcomes.get(c.pointer);
    if (!outcome)
      return {
        pointer: c.pointer,
        status: 'rejected' as const,
        reason: 'invalid' as const,
        message: translate('otep.invalid', ctx.lang),
        findings,
      };
    const base = { ...outcome, ...(findings.length ? { findings } : {}) };
    return outcome.status === 'rejected' ? { ...base, message: translate(`otep.${outcome.reason}`, ctx.lang) } : base;
  });
  const count = (s: string) => events.filter((e) => e.status === s).length;
  return {
    result: true,
    accepted: count('accepted'),
    duplicates: count('duplicate'),
    rejected: count('rejected'),
    events,
  };
}

const eventList = { type: 'array', maxItems: MAX_EVENTS_PER_DOCUMENT };

/**
 * What the published document says of the bodies, exactly the document-level rules the handlers apply (checkDocument,
 * parseEpcis); each event is judged on its own and answered in the result, so the schema leaves events open.
 */
const OTEP_DOCUMENT = z.unknown().meta({ type: 'object', required: ['events'], properties: { events: eventList } });
const EPCIS_DOCUMENT = z.unknown().meta({
  type: 'object',
  required: ['type', 'epcisBody'],
  properties: {
    type: { enum: ['EPCISDocument', 'EPCISQueryDocument'] },
    epcisBody: {
      type: 'object',
      anyOf: [
        { required: ['eventList'], properties: { eventList } },
        {
          required: ['queryResults'],
          properties: {
            queryResults: {
              type: 'object',
              required: ['resultsBody'],
              properties: { resultsBody: { type: 'object', required: ['eventList'], properties: { eventList } } },
            },
          },
        },
      ],
    },
  },
});

export const otepIngest = defineOperation({
  name: 'otep_ingest',
  summary:
    'Push tracking events as a native OTEP timeline (an ingest key is required); answers accepted, duplicate or rejected per event.',
  description: `Takes a document of up to ${MAX_EVENTS_PER_DOCUMENT} events and 1 MiB, such as the timeline a read answers. Each event is judged alone: an invalid one, or one for a shipment unknown or carried by another provider, is rejected with its reason and findings; the rest are stored in one transaction. A repeat is a duplicate, the same id with other content a correction (\`revision\` goes up). Accepted events emit \`tracking.event\` and may move the order's status. A malformed document answers VALIDATION_FAILED, a session token FORBIDDEN.`,
  tag: 'OTEP',
  roles: PROVIDERS,
  business: true,
  auth: 'otep_key',
  limit: 'ingest',
  rest: { method: 'POST', path: '/v1/otep/ingest' },
  input: OTEP_DOCUMENT,
  output: IngestAnswer,
  async handler(input, ctx) {
    let document;
    try {
      document = checkDocument(input);
    } catch (e) {
      documentFailure(e);
    }
    return ingestChecked(ctx, 'otep', document.events, document.findings);
  },
});

/** An EPCIS event that cannot be read as an OTEP event at all, as a rejection with its reason in the caller's language. */
function unreadable(pointer: string, error: { pointer: string; code: string }, lang: BusinessContext['lang']) {
  const message = translate(`otep.epcis.${error.code}` as MessageKey, lang);
  return {
    pointer,
    status: 'rejected' as const,
    reason: 'invalid' as const,
    message,
    findings: [{ severity: 'error', pointer: error.pointer, code: error.code, message }],
  };
}

/** Where each native field of a read EPCIS event came from, so findings point into the posted EPCIS document. */
const EPCIS_FIELD: Record<string, string> = {
  id: 'otep:eventId',
  subject: 'epcList',
  occurred_at: 'eventTime',
  status_code: 'otep:statusCode',
  location: 'otep:location',
  incident_reason: 'otep:incidentReason',
  description: 'otep:description',
  otep_version: 'otep:version',
};

function inEpcisTerms(c: CheckedEvent): CheckedEvent {
  const findings = c.findings.map((f) => {
    const [field, ...rest] = f.pointer.slice(c.pointer.length + 1).split('/');
    const epcisField = field === undefined ? undefined : EPCIS_FIELD[field];
    return epcisField ? { ...f, pointer: [c.pointer, epcisField, ...rest].join('/') } : f;
  });
  return { ...c, findings };
}

export const otepIngestEpcis = defineOperation({
  name: 'otep_ingest_epcis',
  summary:
    'Push tracking events as a GS1 EPCIS 2.0 JSON document of ObjectEvents (an ingest key is required); each event is normalised to OTEP.',
  description:
    "Use it when the carrier's systems speak EPCIS: an ObjectEvent names its parcel by `urn:otep:tracking:<number>` in `epcList` (or `bizTransactionList`), and its status comes from `otep:statusCode`, else from `bizStep` and `disposition`. Answered and stored as by `otep_ingest` (same limits, duplicates, webhooks); another event type, an `errorDeclaration` or an unreadable event is rejected alone. A document that is not EPCIS answers VALIDATION_FAILED.",
  tag: 'OTEP',
  roles: PROVIDERS,
  business: true,
  auth: 'otep_key',
  limit: 'ingest',
  rest: { method: 'POST', path: '/v1/otep/ingest/epcis' },
  input: EPCIS_DOCUMENT,
  output: IngestAnswer,
  async handler(input, ctx) {
    let parsed;
    try {
      parsed = parseEpcis(input);
    } catch (e) {
      if (!(e instanceof EpcisDocumentError)) throw e;
      throw errors.field(fieldOfPointer(e.pointer), `otep.epcis.${e.code}` as MessageKey);
    }
    if (parsed.events.length > MAX_EVENTS_PER_DOCUMENT)
      throw errors.field('epcisBody.eventList', 'otep.too_long', { field: 'eventList', max: MAX_EVENTS_PER_DOCUMENT });
    // Read events go through the same rule set as native ones; EPCIS 2.0 is read as the current OTEP version.
    const checked = parsed.events.flatMap((p) =>
      'event' in p ? [inEpcisTerms(checkEvent({ otep_version: OTEP_VERSION, ...p.event }, p.pointer, null))] : [],
    );
    const answer = await ingestChecked(ctx, 'epcis', checked);
    const byPointer = new Map(answer.events.map((e) => [e.pointer, e]));
    const events = parsed.events.map((p) =>
      'error' in p ? unreadable(p.pointer, p.error, ctx.lang) : byPointer.get(p.pointer)!,
    );
    return { ...answer, rejected: events.filter((e) => e.status === 'rejected').length, events };
  },
});

const keyName = z.string().trim().min(1).max(100);
export const otepCredentialCreate = defineOperation({
  name: 'otep_credential_create',
  summary: `Create an OTEP ingest key for this provider account; the secret is shown once (at most ${MAX_ACTIVE_KEYS} unrevoked keys).`,
  description: `The key (\`otep_sk_...\`) opens only the two ingest operations, for the shipments this provider carries; store it now, as only its SHA-256 is kept and no read shows it again. Create one key per system that pushes, so that each can be revoked alone. Refuses when the account already holds ${MAX_ACTIVE_KEYS} unrevoked keys (TOO_MANY_KEYS): revoke one first.`,
  tag: 'OTEP',
  roles: PROVIDERS,
  business: true,
  rest: { method: 'POST', path: '/v1/otep/credentials', status: 201 },
  failures: { TOO_MANY_KEYS: 'The account already holds its most active keys' },
  input: z.object({ name: keyName.default('ingest key') }).strict(),
  output: z.object({ result: z.literal(true), credential: keyView.extend({ secret: z.string() }) }),
  async handler(input, ctx) {
    const { caller } = ctx;
    const credential = await createCredential(ctx.em, caller.businessId, caller.id, input.name);
    if (!credential) throw fail('TOO_MANY_KEYS', 'otep.too_many_keys', { max: MAX_ACTIVE_KEYS });
    return { result: true as const, credential };
  },
});

export const otepCredentialList = defineOperation({
  name: 'otep_credential_list',
  summary: "List this provider account's OTEP ingest keys (never their secrets).",
  description:
    'Answers every key of the provider account, revoked ones included, with its `key_id`, name, creation time, last use (written at most once a minute) and revocation time. Use it to find a key that is unused or leaked before revoking it with `otep_credential_revoke`. A secret is shown only in the answer that created it.',
  tag: 'OTEP',
  roles: PROVIDERS,
  business: true,
  rest: { method: 'GET', path: '/v1/otep/credentials' },
  input: z.object({}).strict(),
  output: z.object({ credentials: z.array(keyView) }),
  async handler(_input, ctx) {
    return { credentials: await listCredentials(ctx.em, ctx.caller.businessId) };
  },
});

export const otepCredentialRevoke = defineOperation({
  name: 'otep_credential_revoke',
  summary: 'Revoke an OTEP ingest key; it stops working at once.',
  description:
    "Takes the `key_id` the list shows. Ingest calls with that key answer UNAUTHENTICATED from then on, and it no longer counts against the account's limit of keys; revoking a key already revoked succeeds and changes nothing. An id that is not a key of this account answers NOT_FOUND.",
  tag: 'OTEP',
  roles: PROVIDERS,
  business: true,
  rest: { method: 'DELETE', path: '/v1/otep/credentials/{key_id}' },
  failures: { NOT_FOUND: 'No such key of the business' },
  input: z.object({ key_id: pathCode(40) }).strict(),
  output: z.object({ result: z.literal(true) }),
  async handler(input, ctx) {
    if (!(await revokeCredential(ctx.em, ctx.caller.businessId, input.key_id))) throw errors.notFound();
    return { result: true as const };
  },
});
