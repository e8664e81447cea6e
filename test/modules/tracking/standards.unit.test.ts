import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { OtepEvent, Timeline } from '../../../src/modules/tracking/model.ts';
import { onerecord } from '../../../src/modules/tracking/formats/onerecord.ts';
import { otlp, unixNanos } from '../../../src/modules/tracking/formats/otlp.ts';
import { sensorthings } from '../../../src/modules/tracking/formats/sensorthings.ts';
import type { Format } from '../../../src/modules/tracking/formats/types.ts';
import { uncefact } from '../../../src/modules/tracking/formats/uncefact.ts';
import { REASON_BY_ID, STATUS_BY_ID } from '../../../src/modules/tracking/vocabulary.ts';
import { JOURNEY } from '../../fixtures/otepJourney.ts';

// No JSON schema for ONE Record, UN/CEFACT, OTLP or SensorThings ships in an installed package, so the
// structure each standard requires is asserted here field by field.

const BASE = 'https://tms.example';
const ctx = { baseUrl: BASE };
const TN = JOURNEY.tracking_number;
const FAILED = JOURNEY.events.find((e) => e.incident_reason)!;
const REASON = REASON_BY_ID.get(FAILED.incident_reason!)!;
const statusOf = (e: OtepEvent) => STATUS_BY_ID.get(e.status_code)!;
const LOCATION_NAMES = new Set(
  JOURNEY.events.flatMap((e) => [e.location?.name, e.location?.city]).filter((v): v is string => Boolean(v)),
);

type Json = any;
const project = (f: Format, t: Timeline = JOURNEY): Json => f.project(t, ctx);
const projectEvents = (f: Format, t: Timeline = JOURNEY): Json => (f.projectEvents ?? f.project)(t, ctx);

/** Every [path, key, value] in a JSON value, to find a key at any depth. */
function entries(value: unknown, path = ''): [string, string, unknown][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => entries(v, path ? `${path}.${i}` : String(i)));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([k, v]) => {
      const p = path ? `${path}.${k}` : k;
      return [[p, k, v] as [string, string, unknown], ...entries(v, p)];
    });
  }
  return [];
}

const PRIVATE_KEY = /(^|_)(name|phone|email|price)$/i;
/** Keys that could carry a person's data, except `name`s the format itself requires and place names. */
function privateFields(doc: unknown, structuralName: (path: string) => boolean = () => false): string[] {
  return entries(doc)
    .filter(
      ([path, key, value]) =>
        PRIVATE_KEY.test(key) &&
        !(key === 'name' && (value === null || LOCATION_NAMES.has(value as string) || structuralName(path))),
    )
    .map(([path]) => path);
}

/** JOURNEY with private data where a careless projection could pick it up. */
function poisoned(): Timeline {
  const secret = { recipient_name: 'Jane Doe', phone: '+33 6 12 34 56 78', email: 'jane@example.com', price: 12.34 };
  const t = structuredClone(JOURNEY) as Timeline & Record<string, unknown>;
  Object.assign(t, { customer_name: 'Jane Doe', shipping_price: 99.99 });
  t.events = t.events.map((e) => ({
    ...e,
    ...secret,
    ...(e.location ? { location: { ...e.location, contact_name: 'Jane Doe', phone: '+33 6 12 34 56 78' } } : {}),
  }));
  return t;
}

const FORMATS: [Format, (doc: Json) => string[], (path: string) => boolean][] = [
  [onerecord, (d) => d.events.map((e: Json) => e.eventDate['@value']), () => false],
  [uncefact, (d) => d.consignment.transportEvents.map((e: Json) => e.occurrenceDateTime), () => false],
  [
    otlp,
    (d) => d.resourceSpans[0].scopeSpans[0].spans.slice(1).map((s: Json) => s.startTimeUnixNano),
    (p) => /^resourceSpans\.0\.scopeSpans\.0\.(scope|spans\.\d+)\.name$/.test(p),
  ],
  [
    sensorthings,
    (d) => d.Datastreams[0].Observations.map((o: Json) => o.phenomenonTime),
    (p) => /^(name|Datastreams\.0\.(name|ObservedProperty\.name|Sensor\.name))$/.test(p),
  ],
];

describe('every projection', () => {
  for (const [format, occurrences, structuralName] of FORMATS) {
    test(`${format.id}: one entry per event, in occurrence order`, () => {
      const expected = JOURNEY.events.map((e) => (format === otlp ? unixNanos(e.occurred_at) : e.occurred_at));
      assert.deepEqual(occurrences(project(format)), expected);
      const instants = JOURNEY.events.map((e) => Date.parse(e.occurred_at));
      assert.deepEqual(
        instants,
        [...instants].sort((a, b) => a - b),
        'the fixture itself is in occurrence order',
      );
    });

    test(`${format.id}: nothing private, even when the timeline carries it`, () => {
      assert.deepEqual(privateFields(project(format), structuralName), []);
      assert.deepEqual(privateFields(projectEvents(format), structuralName), []);
      const leaked = JSON.stringify([project(format, poisoned()), projectEvents(format, poisoned())]);
      for (const secret of ['Jane Doe', '+33 6 12 34 56 78', 'jane@example.com', '12.34', '99.99'])
        assert.ok(!leaked.includes(secret), `${format.id} leaks ${secret}`);
      assert.deepEqual(project(format, poisoned()), project(format));
    });

    test(`${format.id}: a pure function of the timeline`, () => {
      const input = structuredClone(JOURNEY);
      assert.deepEqual(project(format, input), project(format, input));
      assert.deepEqual(input, JOURNEY);
      assert.deepEqual(occurrences(project(format, { ...JOURNEY, events: [], current: null })), []);
    });
  }
});

describe('IATA ONE Record', () => {
  const doc = project(onerecord);
  const shipment = `${BASE}/api/v1/otep/trackings/${TN}`;

  test('a cargo:Shipment at an absolute IRI, with its LogisticsEvents linked back to it', () => {
    assert.equal(doc['@context']['@vocab'], 'https://onerecord.iata.org/ns/cargo#');
    assert.equal(doc['@type'], 'cargo:Shipment');
    assert.equal(doc['@id'], shipment);
    assert.equal(doc.externalReferences[0].documentIdentifier, TN);
    const ids = doc.events.map((e: Json) => e['@id']);
    assert.equal(new Set(ids).size, JOURNEY.events.length);
    for (const e of doc.events) {
      assert.equal(e['@type'], 'cargo:LogisticsEvent');
      assert.ok(e['@id'].startsWith(`${shipment}/logistics-events/`), e['@id']);
      assert.deepEqual(e.eventFor, { '@id': shipment });
      assert.deepEqual(e.eventTimeType, { '@id': 'https://onerecord.iata.org/ns/cargo#ACTUAL' });
    }
    assert.equal((onerecord.project(JOURNEY, { baseUrl: `${BASE}/` }) as Json)['@id'], shipment);
  });

  test('event codes, names and times come from the vocabulary and the events', () => {
    JOURNEY.events.forEach((src, i) => {
      const e = doc.events[i];
      const code = statusOf(src).projection.onerecord;
      // A meaning the IATA list lacks (a failed delivery) is named by its OTEP code instead.
      assert.deepEqual(
        e.eventCode,
        code
          ? { '@type': 'cargo:CodeListElement', code, codeListName: 'IATA cXML Code List 1.18 Status Codes' }
          : { '@type': 'cargo:CodeListElement', code: src.status_code, codeListName: 'OTEP vocabulary status codes' },
      );
      assert.equal(e.eventName, statusOf(src).label);
      assert.deepEqual(e.eventDate, { '@type': 'xsd:dateTime', '@value': src.occurred_at });
      assert.deepEqual(e.creationDate, { '@type': 'xsd:dateTime', '@value': src.recorded_at });
    });
  });

  test('the failed attempt carries its incident reason as the event remark', () => {
    const e = doc.events[JOURNEY.events.indexOf(FAILED)];
    assert.equal(e.description, `${REASON.label} (${FAILED.incident_reason}). ${FAILED.description}`);
    assert.equal(doc.events.filter((x: Json) => x.description).length, 1);
  });

  test('eventLocation is a cargo:Location with address, geolocation and GLN, only when the event has a place', () => {
    const [created, pickedUp, atHub] = doc.events;
    assert.equal(created.eventLocation, undefined);
    assert.deepEqual(pickedUp.eventLocation, {
      '@type': 'cargo:Location',
      locationName: 'Sender dock',
      address: {
        '@type': 'cargo:Address',
        cityName: 'Lyon',
        textualPostCode: '69007',
        country: { '@type': 'cargo:CodeListElement', code: 'FR', codeListName: 'ISO 3166-1 alpha-2' },
      },
      geolocation: {
        '@type': 'cargo:Geolocation',
        latitude: { '@type': 'xsd:double', '@value': 45.7485 },
        longitude: { '@type': 'xsd:double', '@value': 4.8467 },
      },
    });
    assert.deepEqual(atHub.eventLocation.locationCodes, [
      { '@type': 'cargo:CodeListElement', code: 'urn:epc:id:sgln:3012345.00001.0', codeListName: 'GS1 GLN' },
    ]);
    assert.equal(atHub.eventLocation.geolocation, undefined);
  });

  test('uses the 3.x property names, not the 2.x ones', () => {
    const keys = new Set(entries(doc).map(([, k]) => k));
    for (const old of ['linkedObject', 'recordedAtLocation', 'recordedBy']) assert.ok(!keys.has(old), old);
  });

  test('the events endpoint is the event list as a JSON-LD graph', () => {
    const events = projectEvents(onerecord);
    assert.deepEqual(events['@context'], doc['@context']);
    assert.deepEqual(events['@graph'], doc.events);
  });
});

describe('UN/CEFACT transport status', () => {
  const doc = project(uncefact);
  const events = doc.consignment.transportEvents;

  test('the consignment is identified by the tracking number; each status carries its Rec. 24 code and times', () => {
    assert.equal(doc.consignment.id, TN);
    JOURNEY.events.forEach((src, i) => {
      const e = events[i];
      assert.equal(e.id, src.id);
      assert.equal(e.transportEventTypeCode, statusOf(src).projection.uncefact);
      assert.equal(e.otepStatusCode, src.status_code);
      assert.equal(e.description, statusOf(src).label);
      assert.equal(e.occurrenceDateTime, src.occurred_at);
      assert.equal(e.recordedDateTime, src.recorded_at);
    });
  });

  test('the failed attempt carries the status reason code of its incident reason; no other status has one', () => {
    const e = events[JOURNEY.events.indexOf(FAILED)];
    assert.equal(e.statusReasonCode, REASON.uncefact);
    assert.equal(e.statusReasonDescription, REASON.label);
    assert.equal(e.otepIncidentReason, FAILED.incident_reason);
    assert.equal(e.remarks, FAILED.description);
    assert.equal(events.filter((x: Json) => 'statusReasonCode' in x).length, 1);
  });

  test('occurrence location with postal address and coordinates; absent values left out, never null', () => {
    const e = events[JOURNEY.events.indexOf(FAILED)];
    assert.deepEqual(e.occurrenceLocation, {
      postalAddress: { cityName: 'Paris', postcode: '75011', countryCode: 'FR' },
      geographicalCoordinate: { latitudeMeasure: 48.8589, longitudeMeasure: 2.3797 },
    });
    assert.deepEqual(events[2].occurrenceLocation, {
      id: 'urn:epc:id:sgln:3012345.00001.0',
      name: 'Paris Nord hub',
      postalAddress: { cityName: 'Gonesse', postcode: '95500', countryCode: 'FR' },
    });
    assert.equal(events[0].occurrenceLocation, undefined);
    assert.deepEqual(
      entries(doc).filter(([, , v]) => v === null || v === undefined),
      [],
    );
  });
});

describe('OpenTelemetry OTLP/JSON', () => {
  const doc = project(otlp);
  const spans: Json[] = doc.resourceSpans[0].scopeSpans[0].spans;
  const [root, ...children] = spans;

  test('an ExportTraceServiceRequest: resource attributes, an instrumentation scope, spans', () => {
    assert.equal(doc.resourceSpans.length, 1);
    assert.deepEqual(
      doc.resourceSpans[0].resource.attributes.find((a: Json) => a.key === 'service.name'),
      { key: 'service.name', value: { stringValue: 'tms' } },
    );
    assert.equal(doc.resourceSpans[0].scopeSpans[0].scope.name, 'otep');
    assert.equal(spans.length, JOURNEY.events.length + 1);
  });

  test('one trace, hex ids of the right length, every event span a child of the journey root', () => {
    for (const s of spans) {
      assert.match(s.traceId, /^[0-9a-f]{32}$/);
      assert.match(s.spanId, /^[0-9a-f]{16}$/);
      assert.doesNotMatch(s.traceId, /^0+$/);
      assert.doesNotMatch(s.spanId, /^0+$/);
      assert.equal(s.traceId, root.traceId);
      assert.equal(s.kind, 1);
    }
    assert.equal(new Set(spans.map((s) => s.spanId)).size, spans.length);
    assert.equal(root.parentSpanId, undefined);
    assert.equal(root.name, 'otep.journey');
    for (const s of children) assert.equal(s.parentSpanId, root.spanId);
  });

  test('ids are derived from the tracking number and event ids: stable, and different for another shipment', () => {
    assert.deepEqual(project(otlp), doc);
    const other: Json = project(otlp, { ...JOURNEY, tracking_number: 'TMSJOURNEY0002' });
    const otherSpans: Json[] = other.resourceSpans[0].scopeSpans[0].spans;
    assert.notEqual(otherSpans[0].traceId, root.traceId);
    assert.ok(otherSpans.every((s, i) => s.spanId !== spans[i]!.spanId));
  });

  test('times are Unix nanoseconds as decimal strings: each span from its event to the next, the root over all', () => {
    // 2026-11-17T09:00:00Z: 2026-01-01 is 1767225600 s; + 320 days (Jan..Oct 304 + 16) * 86400 + 9 h = 1794906000 s.
    assert.equal(children[0].startTimeUnixNano, '1794906000000000000');
    // 2026-11-17T16:30:00+01:00 is 15:30Z, 6.5 h later.
    assert.equal(children[0].endTimeUnixNano, '1794929400000000000');
    assert.equal(children[1].startTimeUnixNano, '1794929400000000000');
    children.forEach((s, i) => {
      assert.match(s.startTimeUnixNano, /^\d+$/);
      assert.equal(BigInt(s.startTimeUnixNano), BigInt(Date.parse(JOURNEY.events[i]!.occurred_at)) * 1_000_000n);
      assert.equal(s.endTimeUnixNano, (children[i + 1] ?? s).startTimeUnixNano);
    });
    assert.equal(root.startTimeUnixNano, children[0].startTimeUnixNano);
    assert.equal(root.endTimeUnixNano, children.at(-1).startTimeUnixNano);
    assert.equal(unixNanos('2026-11-17T10:00:00.123456789+01:00'), '1794906000123456789');
    assert.equal(unixNanos('2026-11-17T10:00:00.5+0100'), '1794906000500000000');
  });

  test('attributes are typed OTLP key/values with otep.* names and the event facts', () => {
    for (const s of spans) {
      for (const a of s.attributes) {
        assert.equal(typeof a.key, 'string');
        const kinds = Object.keys(a.value);
        assert.equal(kinds.length, 1, a.key);
        assert.ok(['stringValue', 'boolValue', 'intValue', 'doubleValue'].includes(kinds[0]!), a.key);
        if ('intValue' in a.value) assert.match(a.value.intValue, /^-?\d+$/);
        assert.ok(a.key.startsWith('otep.'), a.key);
      }
    }
    const attr = (s: Json, key: string) => s.attributes.find((a: Json) => a.key === key)?.value;
    children.forEach((s, i) => {
      const src = JOURNEY.events[i]!;
      assert.equal(s.name, src.status_code);
      assert.deepEqual(attr(s, 'otep.status_code'), { stringValue: src.status_code });
      assert.deepEqual(attr(s, 'otep.phase'), { stringValue: src.phase });
      assert.deepEqual(attr(s, 'otep.event_id'), { stringValue: src.id });
      assert.deepEqual(attr(s, 'otep.event_index'), { intValue: String(i) });
    });
    assert.deepEqual(attr(children[1], 'otep.location.lat'), { doubleValue: 45.7485 });
    assert.deepEqual(attr(children[1], 'otep.location.name'), { stringValue: 'Sender dock' });
    assert.deepEqual(attr(children[2], 'otep.location.gln'), { stringValue: 'urn:epc:id:sgln:3012345.00001.0' });
    assert.deepEqual(attr(root, 'otep.terminal'), { boolValue: true });
  });

  test('the failed attempt is an ERROR span with its reason as the message; the rest are unset', () => {
    const i = JOURNEY.events.indexOf(FAILED);
    assert.deepEqual(children[i].status, { code: 2, message: REASON.label });
    assert.deepEqual(children[i].attributes.find((a: Json) => a.key === 'otep.incident_reason').value, {
      stringValue: FAILED.incident_reason,
    });
    children.forEach((s, j) => j !== i && assert.deepEqual(s.status, { code: 0 }));
  });

  test('exception codes and the profile codes that refine them are errors too, with the status label when there is no reason', () => {
    const base = JOURNEY.events[3]!;
    const t: Timeline = {
      ...JOURNEY,
      events: [
        { ...base, id: 'x-1', status_code: 'otep:core:exception', phase: 'otep:phase:transit' },
        {
          ...base,
          id: 'x-2',
          status_code: 'otep:parcel:on_hold',
          phase: 'otep:phase:inbound',
          incident_reason: 'otep:reason:customs',
        },
      ],
    };
    const [, first, second] = (project(otlp, t) as Json).resourceSpans[0].scopeSpans[0].spans;
    assert.deepEqual(first.status, { code: 2, message: STATUS_BY_ID.get('otep:core:exception')!.label });
    assert.deepEqual(second.status, { code: 2, message: REASON_BY_ID.get('otep:reason:customs')!.label });
  });

  test('an empty timeline is an empty trace', () => {
    assert.deepEqual(
      (project(otlp, { ...JOURNEY, events: [], current: null }) as Json).resourceSpans[0].scopeSpans[0].spans,
      [],
    );
  });
});

describe('OGC SensorThings', () => {
  const doc = project(sensorthings);
  const stream = doc.Datastreams[0];
  const observations: Json[] = stream.Observations;

  test('a Thing with one status Datastream; ids and absolute links under the base URL', () => {
    assert.equal(doc['@iot.id'], TN);
    assert.equal(doc.name, TN);
    assert.equal(doc.Datastreams.length, 1);
    assert.equal(stream.name, `${TN} status`);
    assert.equal(
      stream.observationType,
      'http://www.opengis.net/def/observationType/OGC-OM/2.0/OM_CategoryObservation',
    );
    assert.deepEqual(stream.unitOfMeasurement, { name: null, symbol: null, definition: null });
    assert.equal(stream['Observations@iot.count'], JOURNEY.events.length);
    const links = entries(doc).filter(([, k]) => k.endsWith('@iot.selfLink') || k.endsWith('@iot.navigationLink'));
    assert.ok(links.length > JOURNEY.events.length);
    for (const [path, , link] of links) {
      assert.ok(String(link).startsWith(`${BASE}/api/v1/otep/`), path);
      assert.doesNotThrow(() => new URL(String(link)));
    }
    assert.equal(
      stream['Observations@iot.navigationLink'],
      `${BASE}/api/v1/otep/trackings/${TN}/events?format=sensorthings`,
    );
    const ids = entries(doc)
      .filter(([, k]) => k === '@iot.id')
      .map(([, , v]) => v);
    assert.equal(new Set(ids).size, ids.length);
  });

  test('observations: times, the status code as result, phase, reason and description as parameters', () => {
    JOURNEY.events.forEach((src, i) => {
      const o = observations[i];
      assert.equal(o.phenomenonTime, src.occurred_at);
      assert.equal(o.resultTime, src.recorded_at);
      assert.equal(o.result, src.status_code);
      assert.ok(STATUS_BY_ID.has(o.result));
      assert.equal(o.parameters.phase, src.phase);
    });
    const failed = observations[JOURNEY.events.indexOf(FAILED)];
    assert.equal(failed.parameters.incident_reason, FAILED.incident_reason);
    assert.equal(failed.parameters.description, FAILED.description);
    assert.equal(observations.filter((o) => o.parameters.incident_reason).length, 1);
  });

  test('a GeoJSON Point FeatureOfInterest, [lng, lat], only for events with coordinates', () => {
    JOURNEY.events.forEach((src, i) => {
      const foi = observations[i].FeatureOfInterest;
      if (typeof src.location?.lat !== 'number') return assert.equal(foi, undefined, src.id);
      assert.equal(foi.encodingType, 'application/geo+json');
      assert.deepEqual(foi.feature, { type: 'Point', coordinates: [src.location.lng, src.location.lat] });
      assert.ok(LOCATION_NAMES.has(foi.name), foi.name);
    });
    assert.equal(observations.filter((o) => o.FeatureOfInterest).length, 3);
  });

  test('the events endpoint is a SensorThings collection of the same observations', () => {
    const events = projectEvents(sensorthings);
    assert.deepEqual(events.value, observations);
    assert.equal(events['@iot.count'], JOURNEY.events.length);
  });
});
