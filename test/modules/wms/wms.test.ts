/**
 * Warehouses and stored packages through the HTTP API (docs/customer-services.md): warehouse CRUD and list, the
 * receiving scan (stored once, again answered as received, wrong warehouse, not receivable with its reason, unknown),
 * the inventory's filters and summary, the package functions storage and ship-outs call, and isolation between
 * businesses and roles.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  declarePackages,
  openForReceiving,
  packagesOf,
  releasePackages,
  reservePackages,
  shipPackages,
  warehouseOf,
} from '../../../src/modules/wms/index.ts';
import { AppError } from '../../../src/platform/errors.ts';
import { executeBound } from '../../../src/platform/db/orm.ts';
import type { TestApp } from '../../helpers/app.ts';
import {
  ADDRESS,
  otherCustomer,
  PACKAGE,
  shipoutRow,
  storageOrderRow,
  twoWorlds,
  wmsWorld,
  type WmsWorld,
} from './world.ts';

describe('wms', () => {
  let app: TestApp;
  let w: WmsWorld;
  let x: WmsWorld;

  before(async () => ({ app, w, x } = await twoWorlds()));
  after(() => app.running.close());

  /** Declares packages of a new storage order of the world's main warehouse, open for receiving when asked. */
  async function packages(world: WmsWorld, n: number, open = true, customerId = world.users.customer.id) {
    const em = app.em();
    const storageOrderId = await storageOrderRow(em, world, customerId);
    const rows = await declarePackages(em, {
      businessId: world.business.id,
      customerId,
      warehouseId: world.warehouse,
      storageOrderId,
      packages: Array.from({ length: n }, (_, i) => ({ ...PACKAGE, reference: `BOX-${i + 1}` })),
    });
    if (open) await openForReceiving(em, { businessId: world.business.id, storageOrderId });
    return { storageOrderId, rows };
  }
  const postWarehouse = (body: Record<string, unknown>, token: string) =>
    app.http.post('/v1/wms/warehouses', body, { token });
  const receive = (world: WmsWorld, body: Record<string, unknown>, token = world.employee) =>
    app.http.post('/v1/wms/receiving', { warehouse_id: world.warehouse, ...body }, { token });

  describe('warehouses', () => {
    test('a client admin creates and changes a warehouse; codes are unique in the business', async () => {
      const created = await postWarehouse(
        { code: 'EXTRA-1', name: 'Extra', address: { ...ADDRESS, state: null }, timezone: 'Europe/Prague' },
        w.admin,
      );
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const wh = created.body.warehouse;
      assert.equal(wh.code, 'EXTRA-1');
      assert.equal(wh.active, true);
      assert.deepEqual(wh.address, { ...ADDRESS, line2: null, state: null });

      const again = await postWarehouse({ code: 'EXTRA-1', name: 'Again', address: ADDRESS, timezone: 'UTC' }, w.admin);
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'WAREHOUSE_CODE_TAKEN');
      // Another business may use the same code.
      const elsewhere = await postWarehouse(
        { code: 'EXTRA-1', name: 'Theirs', address: ADDRESS, timezone: 'UTC' },
        x.admin,
      );
      assert.equal(elsewhere.status, 201);

      const badZone = await postWarehouse(
        { code: 'EXTRA-2', name: 'Extra', address: ADDRESS, timezone: 'Mars/Olympus' },
        w.admin,
      );
      assert.equal(badZone.status, 422);
      assert.equal(badZone.body.errors[0].field, 'timezone');
      const badCode = await postWarehouse({ code: 'lower', name: 'Extra', address: ADDRESS, timezone: 'UTC' }, w.admin);
      assert.equal(badCode.status, 422);

      const changed = await app.http.put(
        `/v1/wms/warehouses/${wh.id}`,
        { name: 'Extra renamed', active: false },
        { token: w.admin },
      );
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.equal(changed.body.warehouse.name, 'Extra renamed');
      assert.equal(changed.body.warehouse.code, 'EXTRA-1');
      assert.equal(changed.body.warehouse.active, false);

      const taken = await app.http.put(`/v1/wms/warehouses/${wh.id}`, { code: 'MAIN' }, { token: w.admin });
      assert.equal(taken.status, 409);
      assert.equal(taken.body.code, 'WAREHOUSE_CODE_TAKEN');
      const theirs = await app.http.put(`/v1/wms/warehouses/${wh.id}`, { name: 'Mine' }, { token: x.admin });
      assert.equal(theirs.status, 404);
      const unknown = await app.http.put('/v1/wms/warehouses/999999999', { name: 'None' }, { token: w.admin });
      assert.equal(unknown.status, 404);

      const row = await warehouseOf(app.em(), w.business.id, wh.id);
      assert.equal(row?.name, 'Extra renamed');
      assert.equal(await warehouseOf(app.em(), x.business.id, wh.id), null);
    });

    test('staff list the business’s warehouses, the closed ones when asked; no other business’s', async () => {
      const list = await app.http.get('/v1/wms/warehouses', { token: w.employee });
      assert.equal(list.status, 200, JSON.stringify(list.body));
      const codes = list.body.warehouses.map((h: { code: string }) => h.code);
      assert.ok(codes.includes('MAIN') && codes.includes('SECOND'));
      assert.ok(!codes.includes('EXTRA-1') || list.body.warehouses.every((h: { active: boolean }) => h.active));
      assert.ok(list.body.warehouses.every((h: { id: number }) => h.id !== x.warehouse));
      const all = await app.http.get('/v1/wms/warehouses?include_inactive=true', { token: w.admin });
      assert.equal(all.status, 200);
      assert.ok(all.body.warehouses.length >= list.body.warehouses.length);
      assert.ok(all.body.warehouses.every((h: { id: number }) => h.id !== x.warehouse));
    });

    test('customers are refused every staff operation; employees may not configure warehouses', async () => {
      const calls = [
        app.http.get('/v1/wms/warehouses', { token: w.customer }),
        postWarehouse({ code: 'C', name: 'C', address: ADDRESS, timezone: 'UTC' }, w.customer),
        app.http.put(`/v1/wms/warehouses/${w.warehouse}`, { name: 'C' }, { token: w.customer }),
        app.http.post(
          '/v1/wms/receiving',
          { warehouse_id: w.warehouse, tracking_number: 'SP0000000000' },
          { token: w.customer },
        ),
        app.http.post('/v1/wms/inventory', {}, { token: w.customer }),
        postWarehouse({ code: 'E', name: 'E', address: ADDRESS, timezone: 'UTC' }, w.employee),
        app.http.put(`/v1/wms/warehouses/${w.warehouse}`, { name: 'E' }, { token: w.employee }),
      ];
      for (const res of await Promise.all(calls)) {
        assert.equal(res.status, 403, JSON.stringify(res.body));
        assert.equal(res.body.code, 'FORBIDDEN');
      }
    });
  });

  describe('receiving', () => {
    test('declared packages get SP numbers, unique, in the order given', async () => {
      const { rows, storageOrderId } = await packages(w, 5, false);
      assert.equal(rows.length, 5);
      assert.deepEqual(
        rows.map((r) => r.reference),
        ['BOX-1', 'BOX-2', 'BOX-3', 'BOX-4', 'BOX-5'],
      );
      for (const r of rows) {
        assert.match(r.tracking_number, /^SP\d{10}$/);
        assert.equal(r.state, 'expected');
        assert.equal(r.receivable, false);
        assert.equal(r.storage_order_id, storageOrderId);
        assert.equal(r.received_at, null);
      }
      assert.equal(new Set(rows.map((r) => r.tracking_number)).size, 5);
      const read = await packagesOf(app.em(), { businessId: w.business.id, storageOrderId });
      assert.deepEqual(
        read.map((r) => r.id),
        rows.map((r) => r.id),
      );
    });

    test('an expected package of a paid order is stored once; scanning it again answers already_received', async () => {
      const { rows } = await packages(w, 1);
      const number = rows[0]!.tracking_number;
      const first = await receive(w, { tracking_number: number.toLowerCase(), location: 'A-01', weight_grams: 1250 });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.body.already_received, false);
      assert.equal(first.body.package.state, 'stored');
      assert.equal(first.body.package.location, 'A-01');
      assert.equal(first.body.package.weight_grams, 1250);
      assert.ok(Math.abs(Date.parse(first.body.package.received_at) - Date.now()) < 60_000);

      const again = await receive(w, { tracking_number: number, location: 'B-02' }, w.admin);
      assert.equal(again.status, 200);
      assert.equal(again.body.already_received, true);
      assert.equal(again.body.package.location, 'A-01');
      assert.equal(again.body.package.received_at, first.body.package.received_at);
    });

    test('two scans of one package at once: one receives it, the other answers already_received', async () => {
      const { rows } = await packages(w, 1);
      const body = { tracking_number: rows[0]!.tracking_number };
      const answers = await Promise.all([receive(w, body), receive(w, body, w.admin)]);
      assert.deepEqual(
        answers.map((a) => a.status),
        [200, 200],
      );
      assert.deepEqual(answers.map((a) => a.body.already_received).sort(), [false, true]);
      assert.equal(answers[0]!.body.package.received_at, answers[1]!.body.package.received_at);
    });

    test('a package of an unpaid order, or released, is not receivable, with the reason', async () => {
      const { rows, storageOrderId } = await packages(w, 1, false);
      const unpaid = await receive(w, { tracking_number: rows[0]!.tracking_number });
      assert.equal(unpaid.status, 409);
      assert.equal(unpaid.body.code, 'PACKAGE_NOT_RECEIVABLE');
      assert.match(unpaid.body.message, /not paid/);

      assert.equal(await releasePackages(app.em(), { businessId: w.business.id, storageOrderId }), 1);
      const released = await receive(w, { tracking_number: rows[0]!.tracking_number });
      assert.equal(released.status, 409);
      assert.equal(released.body.code, 'PACKAGE_NOT_RECEIVABLE');
      assert.match(released.body.message, /released/);
      const fr = await app.http.post(
        '/v1/wms/receiving',
        { warehouse_id: w.warehouse, tracking_number: rows[0]!.tracking_number },
        { token: w.employee, lang: 'fr' },
      );
      assert.match(fr.body.message, /libéré/);
    });

    test('a package of another warehouse is WRONG_WAREHOUSE; an unknown number or another business’s is 404', async () => {
      const { rows } = await packages(w, 1);
      const number = rows[0]!.tracking_number;
      const wrong = await receive(w, { warehouse_id: w.other, tracking_number: number });
      assert.equal(wrong.status, 409);
      assert.equal(wrong.body.code, 'WRONG_WAREHOUSE');
      assert.match(wrong.body.message, /MAIN/);
      const [still] = await packagesOf(app.em(), { businessId: w.business.id, ids: [rows[0]!.id] });
      assert.equal(still!.state, 'expected');

      const unknown = await receive(w, { tracking_number: 'SP0000000001' });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.code, 'NOT_FOUND');
      // Another business scanning our number at its own warehouse, or at ours.
      assert.equal((await receive(x, { tracking_number: number })).status, 404);
      assert.equal((await receive(x, { warehouse_id: w.warehouse, tracking_number: number })).status, 404);
      const [untouched] = await packagesOf(app.em(), { businessId: w.business.id, ids: [rows[0]!.id] });
      assert.equal(untouched!.state, 'expected');
    });
  });

  describe('inventory', () => {
    test('filters by warehouse, customer, state and age, with a summary per warehouse and customer', async () => {
      const world = await wmsWorld(app);
      const em = app.em();
      const second = await otherCustomer(em, world);
      const mine = await packages(world, 3);
      const theirs = await packages(world, 1, true, second);
      const waiting = await packages(world, 1, false);
      for (const p of [...mine.rows, ...theirs.rows])
        assert.equal((await receive(world, { tracking_number: p.tracking_number })).status, 200);
      // The first of mine was received 5 days ago, the second 2 days ago.
      await executeBound(em, `update stored_package set received_at = now() - interval '5 days 1 hour' where id = $1`, [
        mine.rows[0]!.id,
      ]);
      await executeBound(em, `update stored_package set received_at = now() - interval '2 days 1 hour' where id = $1`, [
        mine.rows[1]!.id,
      ]);
      const inventory = (body: Record<string, unknown>) =>
        app.http.post('/v1/wms/inventory', body, { token: world.employee });

      const all = await inventory({});
      assert.equal(all.status, 200, JSON.stringify(all.body));
      assert.equal(all.body.total, 4);
      assert.equal(all.body.packages[0].id, mine.rows[0]!.id, 'oldest received first');
      assert.equal(all.body.packages[0].age_days, 5);
      assert.equal(all.body.packages[0].customer.id, world.users.customer.id);
      assert.equal(all.body.packages[0].warehouse_code, 'MAIN');
      assert.equal(all.body.packages[0].storage_order_id, mine.storageOrderId);
      assert.deepEqual(
        all.body.summary.map((s: { customer_id: number; packages: number }) => [s.customer_id, s.packages]),
        [
          [world.users.customer.id, 3],
          [second, 1],
        ],
      );

      const byCustomer = await inventory({ customer_id: second });
      assert.equal(byCustomer.body.total, 1);
      assert.equal(byCustomer.body.packages[0].id, theirs.rows[0]!.id);

      const old = await inventory({ min_age_days: 3 });
      assert.deepEqual(
        old.body.packages.map((p: { id: number }) => p.id),
        [mine.rows[0]!.id],
      );
      const young = await inventory({ max_age_days: 2 });
      assert.equal(young.body.total, 3);
      assert.ok(young.body.packages.every((p: { id: number }) => p.id !== mine.rows[0]!.id));
      const band = await inventory({ min_age_days: 2, max_age_days: 4 });
      assert.deepEqual(
        band.body.packages.map((p: { id: number }) => p.id),
        [mine.rows[1]!.id],
      );

      const expected = await inventory({ state: ['expected'] });
      assert.deepEqual(
        expected.body.packages.map((p: { id: number }) => p.id),
        [waiting.rows[0]!.id],
      );
      assert.equal(expected.body.packages[0].age_days, null);

      const elsewhere = await inventory({ warehouse_id: world.other });
      assert.equal(elsewhere.body.total, 0);
      assert.deepEqual(elsewhere.body.summary, []);

      const paged = await inventory({ per_page: 2, page: 2 });
      assert.equal(paged.body.total, 4);
      assert.equal(paged.body.packages.length, 2);
      assert.equal(paged.body.summary.length, 2, 'the summary counts every page');

      const backwards = await inventory({ min_age_days: 4, max_age_days: 1 });
      assert.equal(backwards.status, 422);
      assert.equal(backwards.body.errors[0].field, 'min_age_days');

      // Another business sees none of it, even naming this business's warehouse.
      const foreign = await app.http.post('/v1/wms/inventory', { warehouse_id: world.warehouse }, { token: x.admin });
      assert.equal(foreign.status, 200);
      assert.equal(foreign.body.total, 0);
    });
  });

  describe('the package functions of storage and ship-outs', () => {
    test('reserve, release and ship a customer’s stored packages for a ship-out', async () => {
      const world = await wmsWorld(app);
      const em = app.em();
      const stored = await packages(world, 2);
      for (const p of stored.rows) await receive(world, { tracking_number: p.tracking_number });
      const notYet = await packages(world, 1);
      const second = await otherCustomer(em, world);
      const foreign = await packages(world, 1, true, second);
      await receive(world, { tracking_number: foreign.rows[0]!.tracking_number });
      const shipoutId = await shipoutRow(em, world);
      const ids = stored.rows.map((r) => r.id);
      const base = { businessId: world.business.id, customerId: world.users.customer.id, shipoutId };

      const refused = async (packageIds: number[], warehouseId: number, code: string) => {
        await assert.rejects(
          em.transactional((tx) => reservePackages(tx, { ...base, warehouseId, packageIds })),
          (e: unknown) => e instanceof AppError && e.code === code && e.status === 422,
        );
      };
      await refused([...ids, notYet.rows[0]!.id], world.warehouse, 'PACKAGE_NOT_AVAILABLE');
      await refused([...ids, foreign.rows[0]!.id], world.warehouse, 'PACKAGE_NOT_AVAILABLE');
      await refused([...ids, 999_999_999], world.warehouse, 'PACKAGE_NOT_AVAILABLE');
      await refused(ids, world.other, 'PACKAGES_IN_SEVERAL_WAREHOUSES');
      assert.ok((await packagesOf(em, { businessId: world.business.id, ids })).every((p) => p.state === 'stored'));

      await em.transactional((tx) => reservePackages(tx, { ...base, warehouseId: world.warehouse, packageIds: ids }));
      // A retry of the same ship-out passes; another ship-out is refused.
      await em.transactional((tx) => reservePackages(tx, { ...base, warehouseId: world.warehouse, packageIds: ids }));
      const otherShipout = await shipoutRow(em, world);
      await assert.rejects(
        reservePackages(em, { ...base, shipoutId: otherShipout, warehouseId: world.warehouse, packageIds: ids }),
        (e: unknown) => e instanceof AppError && e.code === 'PACKAGE_NOT_AVAILABLE',
      );
      // Two ship-outs racing for one package: one reserves it, the other is refused.
      const race = await packages(world, 1);
      await receive(world, { tracking_number: race.rows[0]!.tracking_number });
      const racers = [await shipoutRow(em, world), await shipoutRow(em, world)];
      const outcomes = await Promise.allSettled(
        racers.map((id) =>
          app.em().transactional((tx) =>
            reservePackages(tx, {
              ...base,
              shipoutId: id,
              warehouseId: world.warehouse,
              packageIds: [race.rows[0]!.id],
            }),
          ),
        ),
      );
      assert.deepEqual(outcomes.map((o) => o.status).sort(), ['fulfilled', 'rejected']);
      const [raced] = await packagesOf(em, { businessId: world.business.id, ids: [race.rows[0]!.id] });
      assert.equal(raced!.shipout_id, racers[outcomes.findIndex((o) => o.status === 'fulfilled')]);

      const reserved = await packagesOf(em, { businessId: world.business.id, shipoutId });
      assert.deepEqual(
        reserved.map((p) => [p.id, p.state]),
        ids.map((id) => [id, 'reserved']),
      );
      // A reserved package scanned again is still received.
      const rescan = await receive(world, { tracking_number: stored.rows[0]!.tracking_number });
      assert.equal(rescan.body.already_received, true);
      assert.equal(rescan.body.package.state, 'reserved');

      assert.equal(await releasePackages(em, { businessId: world.business.id, shipoutId }), 2);
      const back = await packagesOf(em, { businessId: world.business.id, ids });
      assert.ok(back.every((p) => p.state === 'stored' && p.shipout_id === null));

      await reservePackages(em, { ...base, warehouseId: world.warehouse, packageIds: ids });
      assert.equal(await shipPackages(em, { businessId: world.business.id, shipoutId }), 2);
      const shipped = await packagesOf(em, { businessId: world.business.id, customerId: world.users.customer.id, ids });
      assert.ok(shipped.every((p) => p.state === 'shipped' && p.shipout_id === shipoutId));
      const scan = await receive(world, { tracking_number: stored.rows[1]!.tracking_number });
      assert.equal(scan.status, 409);
      assert.match(scan.body.message, /shipped/);
      // Another business's ids name nothing.
      assert.deepEqual(await packagesOf(em, { businessId: x.business.id, ids }), []);
    });
  });
});
