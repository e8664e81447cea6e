import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { epcis } from '../../../src/modules/tracking/formats/epcis.ts';
import { FORMAT_IDS, FORMATS } from '../../../src/modules/tracking/formats/index.ts';
import type { OtepEvent, Timeline } from '../../../src/modules/tracking/model.ts';
import { OTEP_VERSION, STATUS_CODES } from '../../../src/modules/tracking/vocabulary.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeOrder, makeProvider, PASSWORD } from '../../helpers/factories.ts';
import { JOURNEY } from '../../fixtures/otepJourney.ts';

const carrierEvents = (tn: string): OtepEvent[] =>
  JOURNEY.events.filter((e) => e.source === 'carrier').map((e) => ({ ...e, subject: tn }));
/** What must be equal between two timelines of the same journey on two shipments. */
const comparable = (t: Timeline) =>
  t.events.map(({ subject: _s, recorded_at: _r, id, ...e }) => ({ ...e, id: id.startsWith('osc-') ? 'osc' : id }));

describe('OTEP public reads, EPCIS ingest and the validator', () => {
  let app: TestApp;
  let key: string;
  let native: string;
  let viaEpcis: string;

  before(async () => {
    app = await startApp();
    const b = await makeBusiness(app.em());
    const carrier = await makeProvider(app.em(), 'delivery_provider');
    const token = await app.login(carrier.user.email, PASSWORD);
    key = (await app.http.post('/v1/otep/credentials', {}, { token })).body.credential.secret;
    const orders = await Promise.all(
      [0, 1].map(() =>
        makeOrder(app.em(), b.business.id, { carrierProviderId: carrier.business.id, selfDelivery: false }),
      ),
    );
    await app
      .em()
      .execute("update order_status_change set occurred_at = '2026-11-17T09:00:00Z' where order_id in (?)", [
        orders.map((o) => o.id),
      ]);
    [native, viaEpcis] = orders.map((o) => o.trackingNumber) as [string, string];
  });
  after(() => app.running.close());

  test('one journey ingested natively and as EPCIS gives identical timelines', async () => {
    const a = await app.http.post('/v1/otep/ingest', { events: carrierEvents(native) }, { token: key });
    assert.equal(a.body.accepted, 6);
    const document = epcis.project(
      { ...JOURNEY, tracking_number: viaEpcis, events: carrierEvents(viaEpcis) },
      { baseUrl: 'https://elsewhere.example' },
    );
    const b = await app.http.post('/v1/otep/ingest/epcis', document, {
      token: key,
      headers: { 'content-type': 'application/ld+json' },
    });
    assert.equal(b.status, 200);
    assert.equal(
      b.body.accepted,
      6,
      JSON.stringify(b.body.events.filter((e: { status: string }) => e.status !== 'accepted')),
    );
    const [ta, tb] = await Promise.all(
      [native, viaEpcis].map(async (tn) => (await app.http.get(`/v1/otep/trackings/${tn}`)).body as Timeline),
    );
    assert.deepEqual(comparable(tb!), comparable(ta!));
    assert.equal(ta!.events.length, 7, 'the creation and six carrier events');

    // Our own EPCIS projection, read back and pushed in again, is all duplicates.
    const projected = await app.http.get(`/v1/otep/trackings/${viaEpcis}?format=epcis`);
    const again = await app.http.post('/v1/otep/ingest/epcis', projected.body, { token: key });
    assert.deepEqual([again.body.accepted, again.body.duplicates, again.body.rejected], [0, 7, 0]);
  });

  test('EPCIS documents about objects we do not carry get per-event rejections, never a 5xx', async () => {
    const document = epcis.project(
      { ...JOURNEY, tracking_number: 'TMSNOTOURS0001', events: carrierEvents('TMSNOTOURS0001').slice(0, 2) },
      { baseUrl: 'https://x.example' },
    );
    const events = (document as { epcisBody: { eventList: Record<string, unknown>[] } }).epcisBody.eventList;
    events.push({
      type: 'ObjectEvent',
      action: 'OBSERVE',
      eventTime: '2026-11-20T10:00:00Z',
      eventTimeZoneOffset: '+00:00',
      epcList: ['urn:epc:id:sgtin:0614141.107346.2018'],
    });
    events.push({ ...events[0]!, eventTime: '1999-12-31T23:00:00Z', eventTimeZoneOffset: '+00:00' });
    const res = await app.http.post('/v1/otep/ingest/epcis', document, { token: key, lang: 'fr' });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.events.map((e: { reason: string }) => e.reason),
      ['unknown_shipment', 'unknown_shipment', 'invalid', 'invalid'],
    );
    assert.equal(res.body.events[2].findings[0].code, 'missing_subject');
    assert.match(res.body.events[2].message, /envoi/);
    assert.deepEqual(
      res.body.events[3].findings.map((f: { pointer: string; code: string }) => `${f.pointer} ${f.code}`),
      ['/epcisBody/eventList/3/eventTime absurd_date'],
      'a finding points into the EPCIS document',
    );
    const notEpcis = await app.http.post('/v1/otep/ingest/epcis', { type: 'Something' }, { token: key });
    assert.equal(notEpcis.status, 422);
  });

  test('every format answers with its media type; unknown numbers 404; an unknown format 422 lists the valid ones', async () => {
    const base = (await app.http.get(`/v1/otep/trackings/${native}`)).body as Timeline;
    for (const id of FORMAT_IDS) {
      const res = await fetch(`${app.url}/api/v1/otep/trackings/${native}?format=${id}`);
      assert.equal(res.status, 200, id);
      assert.equal(res.headers.get('content-type')?.split(';')[0], FORMATS.get(id)!.mediaType, id);
      const body = await res.json();
      assert.deepEqual(
        body,
        JSON.parse(JSON.stringify(FORMATS.get(id)!.project(base, { baseUrl: app.config.publicBaseUrl }))),
        `${id} is the projection of the timeline`,
      );
      const text = JSON.stringify(body);
      assert.ok(!text.includes('Ada Recipient') && !text.includes('REF-'), `${id} shows nothing private`);
      const events = await fetch(`${app.url}/api/v1/otep/trackings/${native}/events?format=${id}`);
      assert.equal(events.status, 200, `${id} events`);
    }
    const byProfile = await fetch(`${app.url}/api/v1/otep/trackings/${native}`, {
      headers: { accept: 'application/ld+json; profile="https://otep.example/formats/epcis"' },
    });
    assert.equal(byProfile.headers.get('content-type')?.split(';')[0], 'application/ld+json');
    assert.equal(((await byProfile.json()) as { type: string }).type, 'EPCISDocument');

    assert.equal((await app.http.get('/v1/otep/trackings/TMSNOSUCHTHING')).status, 404);
    const badFormat = await app.http.get(`/v1/otep/trackings/${native}?format=xml`);
    assert.equal(badFormat.status, 422);
    for (const id of FORMAT_IDS) assert.ok(badFormat.body.errors[0].message.includes(id), `lists ${id}`);

    const batch = await app.http.post('/v1/otep/trackings/batch', {
      tracking_numbers: [native, 'TMSNOSUCHTHING'],
      format: 'otlp',
    });
    assert.deepEqual(
      batch.body.results.map((r: { found: boolean }) => r.found),
      [true, false],
    );
    assert.ok(batch.body.results[0].timeline.resourceSpans);
    const tooMany = await app.http.post('/v1/otep/trackings/batch', {
      tracking_numbers: Array.from({ length: 101 }, (_, i) => `T${i}`),
    });
    assert.equal(tooMany.status, 422);

    const vocabulary = await app.http.get('/v1/otep/vocabulary');
    assert.deepEqual(
      [vocabulary.body.otep_version, vocabulary.body.status_codes.length],
      [OTEP_VERSION, STATUS_CODES.length],
    );

    const classic = await app.http.get(`/v1/tracking/${native}`);
    assert.equal(classic.body.delivered, true);
    assert.equal(classic.body.events.length, base.events.length);
    assert.equal(classic.body.events[0].status, 'otep:core:delivered', 'newest first');
  });

  test('the validator reports every finding with a pointer and the conformance level', async () => {
    const level2 = await app.http.post('/v1/otep/validate', { ...JOURNEY, projections: ['epcis'] });
    assert.deepEqual([level2.body.valid, level2.body.level, level2.body.errors], [true, 2, []]);
    const level1 = await app.http.post('/v1/otep/validate', {
      tracking_number: JOURNEY.tracking_number,
      events: JOURNEY.events.filter((e) => !e.status_code.startsWith('otep:parcel:')),
    });
    assert.equal(level1.body.level, 1);
    const broken = await app.http.post(
      '/v1/otep/validate',
      {
        events: [
          {
            subject: 'T1',
            occurred_at: '2026-11-18T10:00:00+01:00',
            status_code: 'otep:core:delivered',
            phase: 'otep:phase:transit',
            otep_version: '1.0.0',
          },
          {
            subject: 'T1',
            occurred_at: '2026-11-19T10:00:00+01:00',
            status_code: 'otep:parcel:x-drone_drop',
            otep_version: '1.0.0',
          },
          {
            subject: 'T1',
            occurred_at: '2026-11-19T11:00:00+01:00',
            status_code: 'otep:core:delivery_failed',
            otep_version: '3.0.0',
            colour: 'red',
          },
        ],
      },
      { lang: 'zh-Hans' },
    );
    assert.equal(broken.body.valid, false);
    assert.equal(broken.body.level, 0);
    assert.deepEqual(
      broken.body.errors.map((f: { pointer: string; code: string }) => `${f.pointer} ${f.code}`).sort(),
      [
        '/events/0/phase phase_mismatch',
        '/events/1/phase phase_required',
        '/events/2/otep_version unsupported_version',
      ],
    );
    assert.deepEqual(
      broken.body.warnings.map((f: { pointer: string; code: string }) => `${f.pointer} ${f.code}`).sort(),
      [
        '/events/1/status_code experimental_code',
        '/events/2/colour unknown_field',
        '/events/2/incident_reason reason_missing',
      ],
    );
    assert.match(broken.body.errors[0].message, /[\u4e00-\u9fff]/, "in the caller's language");
    const late = await app.http.post('/v1/otep/validate', {
      tracking_number: JOURNEY.tracking_number,
      events: [...JOURNEY.events, { ...JOURNEY.events[3]!, id: 'late', occurred_at: '2026-11-21T08:00:00+01:00' }],
    });
    assert.deepEqual(
      late.body.warnings.map((f: { code: string }) => f.code),
      ['after_terminal'],
    );
    assert.equal(late.body.level, 0, 'an event after the end breaks the transition rule');
    const notADocument = await app.http.post('/v1/otep/validate', { events: 'x' });
    assert.deepEqual([notADocument.status, notADocument.body.errors[0].pointer], [200, '/events']);
  });
});
