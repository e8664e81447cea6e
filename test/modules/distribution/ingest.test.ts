import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeOrder, makeProvider, PASSWORD } from '../../helpers/factories.ts';

/** A company prefix and location reference no other test run uses, as GS1 makes every GLN unique. */
const gln = () => `0614141.${String(Math.floor(Math.random() * 100_000)).padStart(5, '0')}`;

describe('carrier ingest moves package distribution', () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let carrier: Awaited<ReturnType<typeof makeProvider>>;
  let key: string;
  let staff: string;
  const warehouse = `urn:epc:id:sgln:${gln()}.0`;
  const locker = `urn:epc:id:sgln:${gln()}.0`;
  const compartment = (grid: string) => locker.replace(/\.0$/, `.${grid}`);
  let store: string;

  before(async () => {
    app = await startApp();
    b = await makeBusiness(app.em());
    carrier = await makeProvider(app.em(), 'delivery_provider');
    const admin = await app.login(b.users.admin.email, PASSWORD);
    staff = await app.login(b.users.employee.email, PASSWORD);
    for (const place of [
      { kind: 'warehouse', code: 'WH', sgln: warehouse },
      { kind: 'locker', code: 'L1', device_id: b.device.code, sgln: locker },
      { kind: 'store', code: 'S1' },
    ]) {
      const res = await app.http.post('/v1/places', { name: place.code, ...place }, { token: admin });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      if (place.kind === 'store') store = res.body.place.identifier;
    }
    const carrierToken = await app.login(carrier.user.email, PASSWORD);
    key = (await app.http.post('/v1/otep/credentials', { name: 'hub' }, { token: carrierToken })).body.credential
      .secret;
  });
  after(() => app.running.close());

  const carried = async () =>
    (await makeOrder(app.em(), b.business.id, { carrierProviderId: carrier.business.id, selfDelivery: false }))
      .trackingNumber;
  const time = (m: number) => new Date(Date.UTC(2026, 10, 24, 7, m)).toISOString();
  const distribution = async (number: string) =>
    (await app.http.get(`/v1/distribution/packages/${number}`, { token: staff })).body;

  /** The same journey: received at the warehouse, leaving it, arriving at the locker, ready in compartment A04. */
  const journey = [
    { step: 'receiving', disposition: 'in_progress', code: 'otep:core:received_at_facility', at: warehouse },
    { step: 'departing', disposition: 'in_transit', code: 'otep:core:departed_facility', at: warehouse },
    { step: 'arriving', disposition: 'in_progress', code: 'otep:core:received_at_facility', at: locker },
    {
      step: 'stocking',
      disposition: 'sellable_accessible',
      code: 'otep:parcel:at_pickup_point',
      at: compartment('A04'),
    },
  ];

  test('an EPCIS document and the native OTEP events of the same journey move two packages identically, into a locker compartment', async () => {
    const viaEpcis = await carried();
    const viaOtep = await carried();
    // Sent newest first: each package's events are applied in the order they happened.
    const epcis = {
      '@context': ['https://ref.gs1.org/standards/epcis/epcis-context.jsonld'],
      type: 'EPCISDocument',
      schemaVersion: '2.0',
      creationDate: time(30),
      epcisBody: {
        eventList: journey.toReversed().map((j, i) => ({
          type: 'ObjectEvent',
          eventID: `urn:uuid:00000000-0000-4000-8000-00000000000${i}`,
          eventTime: time(10 * (journey.length - i)),
          eventTimeZoneOffset: '+00:00',
          action: 'OBSERVE',
          epcList: [`urn:otep:tracking:${viaEpcis}`],
          bizStep: j.step,
          disposition: j.disposition,
          readPoint: { id: j.at },
        })),
      },
    };
    const a = await app.http.post('/v1/otep/ingest/epcis', epcis, { token: key });
    assert.equal(a.status, 200, JSON.stringify(a.body));
    assert.equal(a.body.accepted, 4, JSON.stringify(a.body));
    // The other package goes into the next compartment: one parcel per compartment.
    const native = journey.toReversed().map((j, i) => ({
      id: `n-${i}`,
      subject: viaOtep,
      occurred_at: time(10 * (journey.length - i)),
      status_code: j.code,
      otep_version: '1.0.0',
      location: { gln: j.at.replace(/\.A04$/, '.A03') },
    }));
    const n = await app.http.post('/v1/otep/ingest', { events: native }, { token: key });
    assert.equal(n.body.accepted, 4, JSON.stringify(n.body));

    const [x, y] = [await distribution(viaEpcis), await distribution(viaOtep)];
    const shape = (d: {
      distribution: Record<string, any>;
      scans: { action: string; outcome: string; source: string }[];
    }) => ({
      status: d.distribution.status,
      warehouse: d.distribution.warehouse,
      destination: d.distribution.destination,
      grid: d.distribution.location.grid_code,
      steps: d.scans.map((s) => [s.action, s.outcome]),
    });
    assert.deepEqual(shape(x), {
      status: 'shelved',
      warehouse: 'WH',
      destination: 'L1',
      grid: 'A04',
      steps: [
        ['received', 'applied'],
        ['loaded', 'applied'],
        ['delivered', 'applied'],
        ['shelved', 'applied'],
      ],
    });
    assert.deepEqual(shape(y), { ...shape(x), grid: 'A03' });
    assert.deepEqual([...new Set(x.scans.map((s: { source: string }) => s.source))], ['epcis']);
    assert.deepEqual([...new Set(y.scans.map((s: { source: string }) => s.source))], ['otep']);
    const deviceOrder = (await app.http.get(`/v1/device-orders/${x.distribution.device_order_id}`, { token: staff }))
      .body.device_order;
    assert.deepEqual([deviceOrder.status, deviceOrder.grid_code], ['stored', 'A04']);

    // The same document again moves nothing: every event, and so every scan, is a duplicate.
    const again = await app.http.post('/v1/otep/ingest/epcis', epcis, { token: key });
    assert.equal(again.body.duplicates, 4);
    assert.equal((await distribution(viaEpcis)).scans.length, 4);
  });

  test("the carrier's cancellation takes a package off its distribution, back on its warehouse's list; a shelved one keeps its compartment", async () => {
    const moving = await carried();
    const shelved = await carried();
    const event = (id: string, subject: string, m: number, code: string, gln?: string) => ({
      id,
      subject,
      occurred_at: time(m),
      status_code: code,
      otep_version: '1.0.0',
      ...(gln && { location: { gln } }),
    });
    const events = [
      event('c1', moving, 1, 'otep:core:received_at_facility', warehouse),
      event('c2', moving, 2, 'otep:core:departed_facility', warehouse),
      ...journey.map((j, i) => event(`s${i}`, shelved, i + 1, j.code, j.at.replace(/\.A04$/, '.A02'))),
    ];
    assert.equal((await app.http.post('/v1/otep/ingest', { events }, { token: key })).body.accepted, 6);
    const cancels = [event('c3', moving, 10, 'otep:core:cancelled'), event('s9', shelved, 10, 'otep:core:cancelled')];
    assert.equal((await app.http.post('/v1/otep/ingest', { events: cancels }, { token: key })).body.accepted, 2);

    const d = await distribution(moving);
    assert.deepEqual(
      [d.distribution.status, d.distribution.removal_reason, d.scans.at(-1).action, d.scans.at(-1).source],
      ['removed', 'cancelled', 'removed', 'otep'],
    );
    const list = (await app.http.get('/v1/places/WH/distribution-list', { token: staff })).body;
    assert.ok(JSON.stringify(list).includes(moving), 'back on the warehouse list');
    const s = await distribution(shelved);
    assert.deepEqual(
      [s.distribution.status, s.scans.at(-1).outcome, s.scans.at(-1).flag],
      ['shelved', 'flagged', 'process_ended'],
    );
    // Sent again, the cancellation is the same scan.
    await app.http.post('/v1/otep/ingest', { events: cancels }, { token: key });
    assert.equal((await distribution(moving)).scans.length, d.scans.length);
  });

  test("our own place URN with a shelf names a store shelf; events away from the business's places move nothing", async () => {
    const number = await carried();
    const events = [
      {
        id: 'x1',
        subject: number,
        occurred_at: time(1),
        status_code: 'otep:core:picked_up',
        otep_version: '1.0.0',
        location: { city: 'Lyon' },
      },
      {
        id: 'x2',
        subject: number,
        occurred_at: time(2),
        status_code: 'otep:core:received_at_facility',
        otep_version: '1.0.0',
        location: { gln: warehouse },
      },
      {
        id: 'x3',
        subject: number,
        occurred_at: time(3),
        status_code: 'otep:core:in_transit',
        otep_version: '1.0.0',
        location: { gln: 'urn:epc:id:sgln:9999999.99999.0' },
      },
      {
        id: 'x4',
        subject: number,
        occurred_at: time(4),
        status_code: 'otep:core:departed_facility',
        otep_version: '1.0.0',
        location: { gln: warehouse },
      },
      {
        id: 'x5',
        subject: number,
        occurred_at: time(5),
        status_code: 'otep:core:received_at_facility',
        otep_version: '1.0.0',
        location: { gln: store },
      },
      {
        id: 'x6',
        subject: number,
        occurred_at: time(6),
        status_code: 'otep:parcel:at_pickup_point',
        otep_version: '1.0.0',
        location: { gln: `${store}:b-2` },
      },
    ];
    assert.equal((await app.http.post('/v1/otep/ingest', { events }, { token: key })).body.accepted, 6);
    const d = await distribution(number);
    assert.deepEqual(
      [d.distribution.status, d.distribution.destination, d.distribution.location.shelf_code, d.scans.length],
      ['shelved', 'S1', 'B-2', 4],
    );
  });
});
