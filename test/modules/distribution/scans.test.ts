import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { eventDefinition } from '../../helpers/events.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeOrder, makeProvider, PASSWORD } from '../../helpers/factories.ts';
import { startReceiver } from '../../helpers/receiver.ts';
import { waitFor } from '../../helpers/wait.ts';

const ajv = new Ajv({ strict: false });
formats.default(ajv);

describe('package distribution moved by scans', () => {
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let carrier: Awaited<ReturnType<typeof makeProvider>>;
  let staff: string;
  let minute = 0;
  /** Scan times a minute apart, in the order the test makes them. */
  const at = (m = ++minute) => new Date(Date.UTC(2026, 10, 24, 8, m)).toISOString();

  before(async () => {
    app = await startApp();
    receiver = await startReceiver();
    b = await makeBusiness(app.em());
    carrier = await makeProvider(app.em(), 'delivery_provider');
    const admin = await app.login(b.users.admin.email, PASSWORD);
    staff = await app.login(b.users.employee.email, PASSWORD);
    for (const place of [
      { kind: 'warehouse', code: 'WH' },
      { kind: 'warehouse', code: 'WH2' },
      { kind: 'locker', code: 'L1', device_id: b.device.code },
      { kind: 'store', code: 'S1' },
    ]) {
      assert.equal((await app.http.post('/v1/places', { name: place.code, ...place }, { token: admin })).status, 201);
    }
    assert.equal(
      (
        await app.http.post(
          '/v1/carrier-supplier-accounts',
          { carrier_code: carrier.business.code, member_number: 'M-7' },
          { token: admin },
        )
      ).status,
      201,
    );
    const carrierToken = await app.login(carrier.user.email, PASSWORD);
    assert.equal(
      (await app.http.put('/v1/provider/webhook-settings', { url: `${receiver.url}/carrier` }, { token: carrierToken }))
        .status,
      200,
    );
  });
  after(async () => {
    await app.running.close();
    await receiver.close();
  });

  const carriedPackage = async (carrierId: number | null = carrier.business.id) => {
    const order = await makeOrder(app.em(), b.business.id, { carrierProviderId: carrierId });
    await app
      .em()
      .execute('update order_package set carrier_reference = ? where order_id = ?', [`CR-${order.id}`, order.id]);
    return { order, number: order.trackingNumber };
  };
  const scan = (body: Record<string, unknown>, token = staff) =>
    app.http.post('/v1/distribution/scans', body, { token });
  const expect = async (
    body: Record<string, unknown>,
    outcome: string,
    status: string | null,
    flag: string | null = null,
  ) => {
    const res = await scan(body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      [res.body.scan.outcome, res.body.package.status, res.body.scan.flag],
      [outcome, status, flag],
      JSON.stringify(body),
    );
    return res.body;
  };
  const carrierEvents = (number: string): any[] =>
    receiver.received.map((r) => JSON.parse(r.body)).filter((e) => e.data?.package_number === number);
  const carrierEvent = async (number: string, name: string): Promise<any> => {
    const found = await waitFor(async () => carrierEvents(number).find((e) => e.event === name));
    const validate = ajv.compile(eventDefinition(name)!.payload);
    assert.ok(validate(found), `${name} matches its schema: ${ajv.errorsText(validate.errors)}`);
    return found;
  };

  test('received, loaded, delivered and shelved into a locker: each step applied once, out-of-order and misplaced scans flagged', async () => {
    const { order, number } = await carriedPackage();
    const received = await expect(
      {
        scan_id: 'r-1',
        package_number: number,
        action: 'received',
        location: 'wh',
        destination: 'L1',
        scanned_at: at(),
      },
      'applied',
      'created',
    );
    // The same scan again, by id: nothing moves.
    const again = await expect(
      {
        scan_id: 'r-1',
        package_number: number,
        action: 'received',
        location: 'WH',
        destination: 'L1',
        scanned_at: at(),
      },
      'duplicate',
      'created',
    );
    assert.equal(again.scan.id, received.scan.id);
    const created = await carrierEvent(number, 'carrier_package.distribution.created');
    assert.deepEqual(created.data.distribution, { order_id: order.id, order_ref: order.orderRef, status: 'created' });
    assert.equal(created.data.member_number, 'M-7');
    assert.equal(created.data.carrier_reference, `CR-${order.id}`);
    assert.equal(created.data.origin.code, 'WH');
    assert.equal(created.data.destination.code, 'L1');

    const list = await app.http.get('/v1/places/wh/distribution-list', { token: staff });
    assert.ok(list.body.packages.some((p: { package_number: string }) => p.package_number === number));

    await expect(
      { package_number: number, action: 'delivered', location: 'L1', scanned_at: at() },
      'flagged',
      'created',
      'does_not_fit',
    );
    await expect(
      { package_number: number, action: 'loaded', location: 'WH2', scanned_at: at() },
      'flagged',
      'created',
      'wrong_place',
    );
    const loadedAt = at();
    await expect(
      { package_number: number, action: 'loaded', location: 'WH', scanned_at: loadedAt },
      'applied',
      'in_transit',
    );
    // Without an id, the same content is the same scan.
    await expect(
      { package_number: number, action: 'loaded', location: 'WH', scanned_at: loadedAt },
      'duplicate',
      'in_transit',
    );
    // Removed at a time before the load: applying it would move the package backwards.
    await expect(
      { package_number: number, action: 'removed', location: 'WH', scanned_at: at(minute - 2) },
      'flagged',
      'in_transit',
      'out_of_order',
    );
    const loaded = await carrierEvent(number, 'carrier_package.distribution.loaded');
    assert.equal(loaded.data.loaded_at, loadedAt);
    assert.equal(loaded.data.distribution.status, 'in_transit');

    await expect(
      { package_number: number, action: 'delivered', location: 'S1', scanned_at: at() },
      'flagged',
      'in_transit',
      'wrong_place',
    );
    await expect(
      { package_number: number, action: 'delivered', location: 'L1', scanned_at: at() },
      'applied',
      'delivered',
    );
    await expect(
      { package_number: number, action: 'shelved', location: 'L1', grid_code: 'A02', scanned_at: at() },
      'applied',
      'shelved',
    );
    const shelved = await carrierEvent(number, 'carrier_package.distribution.shelved');
    assert.equal(shelved.data.location.grid_code, 'A02');
    assert.equal(typeof shelved.data.location.grid_id, 'number');
    assert.equal(JSON.stringify(shelved).includes('pickup_code'), false);

    // The locker's device order holds the parcel, its own process runs, and the recipient's notice was owed.
    const read = await app.http.get(`/v1/distribution/packages/${number}`, { token: staff });
    assert.equal(read.status, 200);
    const d = read.body.distribution;
    assert.deepEqual(
      [d.status, d.warehouse, d.destination, d.location.grid_code, d.flagged_scans, d.workflow_id],
      ['shelved', 'WH', 'L1', 'A02', 4, `distribution-${number}`],
    );
    assert.equal(read.body.scans.length, 8);
    const deviceOrder = await app.http.get(`/v1/device-orders/${d.device_order_id}`, { token: staff });
    assert.deepEqual(
      [
        deviceOrder.body.device_order.status,
        deviceOrder.body.device_order.grid_code,
        deviceOrder.body.device_order.reference_number,
        deviceOrder.body.device_order.order_id,
      ],
      ['stored', 'A02', number, order.id],
    );
    const handle = app.running.temporal.workflow.getHandle(`device-order-${d.device_order_id}`);
    assert.equal((await handle.describe()).status.name, 'RUNNING');
    await app.running.temporal.workflow.getHandle(`distribution-${number}`).result();
    const notices = await app.http.get(
      `/v1/notifications?reference_type=package&reference_id=${await packageId(number)}`,
      { token: await app.login(b.users.admin.email, PASSWORD) },
    );
    assert.equal(notices.body.notifications.length, 1);

    // A late scan resumes the ended process only to be flagged.
    await expect(
      { package_number: number, action: 'loaded', location: 'WH', scanned_at: at() },
      'flagged',
      'shelved',
      'process_ended',
    );
    const flagged = await app.http.get('/v1/distribution/flagged-scans', { token: staff });
    assert.deepEqual(
      flagged.body.scans
        .filter((s: { package_number: string }) => s.package_number === number)
        .map((s: { flag: string }) => s.flag),
      ['process_ended', 'wrong_place', 'out_of_order', 'wrong_place', 'does_not_fit'],
    );

    // Operators find the process by number, warehouse, destination and status.
    const query = `PackageNumber = "${number}" AND DistributionWarehouse = "WH" AND DistributionDestination = "L1" AND DistributionStatus = "shelved" AND DistributionFlagged = true`;
    await waitFor(async () => {
      for await (const w of app.running.temporal.workflow.list({ query })) return w;
      return null;
    });
  });

  const packageId = async (number: string) =>
    (await app.em().execute<{ id: number }[]>('select id from order_package where package_number = ?', [number]))[0]!
      .id;

  test('a removed package is back on its warehouse list; shelved at a store; a carrier without a supplier account hears nothing', async () => {
    const { number } = await carriedPackage(null);
    await expect(
      { package_number: number, action: 'received', location: 'WH', scanned_at: at() },
      'applied',
      'created',
    );
    await expect(
      { package_number: number, action: 'loaded', location: 'WH', scanned_at: at() },
      'applied',
      'in_transit',
    );
    await expect({ package_number: number, action: 'removed', location: 'WH', scanned_at: at() }, 'applied', 'removed');
    const list = await app.http.get('/v1/places/WH/distribution-list', { token: staff });
    const listed = list.body.packages.find((p: { package_number: string }) => p.package_number === number);
    assert.deepEqual(
      [listed.status, listed.removal_reason, listed.loaded_at],
      ['removed', 'removed', listed.loaded_at],
    );
    await expect(
      { package_number: number, action: 'loaded', location: 'WH', scanned_at: at() },
      'applied',
      'in_transit',
    );
    // Without a destination named on receipt, the place it is delivered to becomes it.
    await expect(
      { package_number: number, action: 'delivered', location: 'S1', scanned_at: at() },
      'applied',
      'delivered',
    );
    await expect(
      { package_number: number, action: 'shelved', location: 'S1', shelf_code: 'b-3', scanned_at: at() },
      'applied',
      'shelved',
    );
    const read = await app.http.get(`/v1/distribution/packages/${number}`, { token: staff });
    assert.deepEqual(
      [
        read.body.distribution.destination,
        read.body.distribution.location.shelf_code,
        read.body.distribution.device_order_id,
      ],
      ['S1', 'B-3', null],
    );
    await app.running.temporal.workflow.getHandle(`distribution-${number}`).result();
    assert.deepEqual(carrierEvents(number), []);
  });

  test("bad scans answer 422 naming the field, in the caller's language, and write nothing; another business sees nothing", async () => {
    const { number } = await carriedPackage();
    const count = async () =>
      (await app.em().execute<{ n: number }[]>('select count(*)::int as n from distribution_scan'))[0]!.n;
    const before = await count();
    const ok = { package_number: number, action: 'received', location: 'WH', scanned_at: at() };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ok, package_number: 'NOPE' }, 'package_number'],
      [{ ...ok, location: 'NOWHERE' }, 'location'],
      [{ ...ok, location: 'L1' }, 'location'],
      [{ ...ok, action: 'delivered', location: 'WH' }, 'location'],
      [{ ...ok, action: 'teleported' }, 'action'],
      [{ ...ok, scanned_at: '2026-11-24' }, 'scanned_at'],
      [{ ...ok, scanned_at: new Date(Date.now() + 3_600_000).toISOString() }, 'scanned_at'],
      [{ ...ok, destination: 'WH2' }, 'destination'],
      [{ ...ok, destination: 'NOWHERE' }, 'destination'],
      [{ ...ok, action: 'loaded', destination: 'L1' }, 'destination'],
      [{ ...ok, grid_code: 'A01' }, 'grid_code'],
      [{ ...ok, action: 'shelved', location: 'L1' }, 'grid_code'],
      [{ ...ok, action: 'shelved', location: 'L1', grid_code: 'Z99' }, 'grid_code'],
      [{ ...ok, action: 'shelved', location: 'S1' }, 'shelf_code'],
      [{ ...ok, action: 'shelved', location: 'L1', grid_code: 'A01', shelf_code: 'X' }, 'shelf_code'],
      [{ ...ok, scan_id: 'has space' }, 'scan_id'],
      [{ ...ok, location: 'W\u0000H' }, 'location'],
      [{ ...ok, extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await scan(body);
      assert.equal(res.status, 422, `${field}: ${JSON.stringify(res.body)}`);
      assert.ok(
        res.body.errors.some((e: { field: string }) => e.field === field),
        `${field}: ${JSON.stringify(res.body.errors)}`,
      );
    }
    const de = await app.http.post(
      '/v1/distribution/scans',
      { ...ok, package_number: 'NOPE' },
      { token: staff, lang: 'de' },
    );
    assert.equal(de.body.errors[0].message, 'Kein Paket des Unternehmens hat diese Nummer.');
    assert.equal(await count(), before);

    const other = await makeBusiness(app.em());
    const otherStaff = await app.login(other.users.employee.email, PASSWORD);
    const res = await scan(ok, otherStaff);
    assert.equal(res.status, 422);
    assert.equal(res.body.errors[0].field, 'package_number');
    assert.equal((await app.http.get(`/v1/distribution/packages/${number}`, { token: otherStaff })).status, 404);
    assert.equal((await app.http.get('/v1/places/WH/distribution-list', { token: otherStaff })).status, 404);
    assert.equal((await scan(ok, await app.login(b.users.driver.email, PASSWORD))).status, 403);
  });
});
