/**
 * Route builds' guards (docs/routes.md, Building routes, Re-optimising): a contractor sees and cancels only its own
 * builds and re-optimises only days holding nothing but its orders; a driver given a route while a build solves keeps
 * it whole; a cancel the process accepts writes nothing, even when the solve had just finished; a re-optimised day
 * left with done stops only is completed. Real HTTP API, worker, solver and PostgreSQL locks.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { driverRouteOf, finishStop, putOrderOnRoute } from '../../../src/modules/routes/index.ts';
import { SYSTEM_ACTOR } from '../../../src/modules/orders/index.ts';
import type { Em } from '../../../src/platform/db/orm.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, PASSWORD } from '../../helpers/factories.ts';
import { midMorningBusiness } from '../../helpers/localDay.ts';
import { waitFor } from '../../helpers/wait.ts';
import { assertCancelledWroteNothing, buildEnded, makeDriver, makePlanOrder, manyOrders, near } from './fixtures.ts';

const DATE = '2026-12-16';

describe('route build guards', () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let admin: string;
  let contractor: string;
  /** Today in the business's timezone, one in which it is mid-morning now whatever the hour: a day under way. */
  let today: string;

  before(async () => {
    app = await startApp();
    b = await makeBusiness(app.em());
    ({ today } = await midMorningBusiness(app.em(), b.business.id));
    admin = await app.login(b.users.admin.email, PASSWORD);
    contractor = await app.login(b.users.broker.email, PASSWORD);
  });
  after(async () => {
    await app?.running.close();
  });

  const build = (body: Record<string, unknown>, token = admin) =>
    app.http.post('/v3/client/build-route', body, { token });
  const assign = (orderId: number, brokerId: number) =>
    app
      .em()
      .execute(
        `insert into broker_order_assignment (business_id, order_id, broker_id, status) values (?, ?, ?, 'active')`,
        [b.business.id, orderId, brokerId],
      );
  /** Puts the order on the driver's route of `date` (a delivery stop, a pickup for a P order); answers the route id and the stop id. */
  const onRoute = async (tx: Em, driver: number, date: string, orderId: number, type: 'D' | 'P' = 'D') => {
    const r = await driverRouteOf(tx, b.business.id, driver, date);
    const [stop] = await putOrderOnRoute(
      tx,
      r,
      { id: orderId, businessId: b.business.id, type, statusId: 1, pickupAt: null, deliverAt: near(1) },
      SYSTEM_ACTOR,
    );
    return { routeId: r.id, stopId: stop!.id };
  };

  test('an id given twice is refused before anything is written, as the published uniqueItems says', async () => {
    const doc = (await app.http.get('/openapi.json')).body;
    const schemaOf = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema;
    assert.equal(schemaOf('/v3/client/build-route').properties.order_ids.uniqueItems, true);
    assert.equal(schemaOf('/v1/routes/{id}/remove-orders').properties.order_ids.uniqueItems, true);
    const order = await makePlanOrder(app.em(), b.business.id);
    const driver = await makeDriver(app.em(), b.business.id);
    const twice = await build({ date: DATE, order_ids: [order, order], driver_ids: [driver] });
    assert.deepEqual([twice.status, twice.body.errors?.[0]?.field], [422, 'order_ids'], JSON.stringify(twice.body));
    const builds = await app.em().execute('select id from route_build where business_id = ?', [b.business.id]);
    assert.equal(builds.length, 0);
  });

  test("a contractor reads and cancels only its own builds: the staff's are unknown to it", async () => {
    const biz = b.business.id;
    const staffBuild = await build({
      date: DATE,
      order_ids: [await makePlanOrder(app.em(), biz, { at: near(2) })],
      driver_ids: [await makeDriver(app.em(), biz)],
      options: { time_limit_seconds: 1 },
    });
    assert.equal(staffBuild.status, 202, JSON.stringify(staffBuild.body));
    const staffDone = await buildEnded(app.http, admin, staffBuild.body.id);
    assert.equal(staffDone.status, 'done', JSON.stringify(staffDone));
    assert.equal(staffDone.routes.length, 1);

    const read = await app.http.get(`/v3/client/build-route/${staffBuild.body.id}`, { token: contractor });
    assert.equal(read.status, 404, JSON.stringify(read.body));
    assert.equal(read.body.routes, undefined);
    const cancel = await app.http.post(
      `/v3/client/build-route/${staffBuild.body.id}/cancel`,
      {},
      { token: contractor },
    );
    assert.equal(cancel.status, 404, JSON.stringify(cancel.body));

    const own = await makePlanOrder(app.em(), biz, { at: near(3) });
    await assign(own, b.users.broker.id);
    const mine = await build(
      {
        date: DATE,
        order_ids: [own],
        driver_ids: [await makeDriver(app.em(), biz)],
        options: { time_limit_seconds: 1 },
      },
      contractor,
    );
    assert.equal(mine.status, 202, JSON.stringify(mine.body));
    const mineDone = await buildEnded(app.http, contractor, mine.body.id);
    assert.equal(mineDone.status, 'done', JSON.stringify(mineDone));
    assert.equal((await app.http.get(`/v3/client/build-route/${mine.body.id}`, { token: admin })).status, 200);
  });

  test("a contractor may not re-optimise a day holding the staff's or another contractor's orders", async () => {
    const em = app.em();
    const biz = b.business.id;
    const theirs = await makePlanOrder(em, biz, { at: near(2) });
    await assign(theirs, b.users.broker2.id);
    const staffs = await makePlanOrder(em, biz, { at: near(3) });
    const own = await makePlanOrder(em, biz, { at: near(4) });
    await assign(own, b.users.broker.id);
    const withTheirs = await makeDriver(em, biz, { shift: null });
    const withStaffs = await makeDriver(em, biz, { shift: null });
    const routes = await em.transactional(async (tx) => [
      await onRoute(tx, withTheirs, today, theirs),
      await onRoute(tx, withStaffs, today, staffs),
    ]);

    const res = await build(
      {
        date: today,
        order_ids: [own],
        driver_ids: [withTheirs, withStaffs],
        options: { reoptimize: true, time_limit_seconds: 1 },
      },
      contractor,
    );
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.equal(res.body.code, 'NOTHING_TO_PLAN');
    assert.deepEqual(
      res.body.skipped.map((s: { driver_id?: number; code: string }) => [s.driver_id, s.code]),
      [
        [withTheirs, 'DRIVER_DAY_NOT_YOURS'],
        [withStaffs, 'DRIVER_DAY_NOT_YOURS'],
      ],
    );
    const stops = await em.execute<{ id: number; status: string }[]>(
      'select id, status from route_stop where id in (?, ?) order by id',
      routes.map((r) => r.stopId),
    );
    assert.deepEqual(
      stops.map((s) => s.status),
      ['pending', 'pending'],
    );
  });

  test('a driver given a route while the build solves keeps it: the build writes nothing for that driver', async () => {
    const biz = b.business.id;
    const driver = await makeDriver(app.em(), biz);
    const asked = await makePlanOrder(app.em(), biz, { at: near(2) });
    const other = await makePlanOrder(app.em(), biz, { at: near(5) });
    const res = await build({
      date: DATE,
      order_ids: [asked],
      driver_ids: [driver],
      options: { time_limit_seconds: 1 },
    });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    // With the build's row locked (its store waits for it), another writer gives the driver a route of that date.
    const routeId = await app.em().transactional(async (tx) => {
      const [row] = await tx.execute<{ status: string }[]>('select status from route_build where id = ? for update', [
        res.body.id,
      ]);
      assert.ok(['queued', 'solving'].includes(row!.status), `the build has not stored yet: ${row!.status}`);
      return (await onRoute(tx, driver, DATE, other)).routeId;
    });

    const done = await buildEnded(app.http, admin, res.body.id);
    assert.equal(done.status, 'done', JSON.stringify(done));
    assert.deepEqual(done.routes, []);
    assert.equal(done.summary.routes, 0);
    assert.deepEqual(
      done.skipped.map((s: { order_id?: number; driver_id?: number; code: string }) => [
        s.order_id ?? s.driver_id,
        s.code,
      ]),
      [
        [driver, 'DRIVER_HAS_ROUTE'],
        [asked, 'UNASSIGNED'],
      ],
    );
    const stops = await app
      .em()
      .execute<{ order_id: number }[]>('select order_id from route_stop where route_id = ? order by seq', [routeId]);
    assert.deepEqual(
      stops.map((s) => s.order_id),
      [other],
    );
    const [order] = await app
      .em()
      .execute<{ route_id: number | null }[]>('select route_id from delivery_order where id = ?', [asked]);
    assert.equal(order!.route_id, null);
  });

  test('a cancel accepted while solving writes nothing, even when the solve has just finished', async () => {
    const em = app.em();
    const biz = b.business.id;
    const drivers = [];
    for (let i = 0; i < 4; i++) drivers.push(await makeDriver(em, biz, { parcels: 80 }));
    const orders = await manyOrders(em, biz, DATE, 120);
    const res = await build({ date: DATE, order_ids: orders, driver_ids: drivers, options: { time_limit_seconds: 1 } });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const id = res.body.id;
    const statusOf = async () =>
      (await app.em().execute<{ status: string }[]>('select status from route_build where id = ?', [id]))[0]!.status;
    await waitFor(async () => (await statusOf()) === 'solving', 30_000, 10);

    await app.em().transactional(async (tx) => {
      // The solve can keep its plan only once this lock goes: the process is solving, its plan unsaved.
      const [row] = await tx.execute<{ saved: boolean }[]>(
        'select plan is not null as saved from route_build where id = ? for update',
        [id],
      );
      assert.equal(row!.saved, false);
      // The solver has finished: its activity waits to save the plan.
      await waitFor(
        async () => {
          const [w] = await app
            .em()
            .execute<{ n: number }[]>(
              `select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like 'update route_build set plan%'`,
            );
          return w!.n > 0;
        },
        30_000,
        50,
      );
      const cancel = await app.http.post(`/v3/client/build-route/${id}/cancel`, {}, { token: admin });
      assert.equal(cancel.status, 202, JSON.stringify(cancel.body));
    });

    await assertCancelledWroteNothing(app, admin, id, orders);
  });

  test('a re-optimised day left with only done stops is completed', async () => {
    const em = app.em();
    const biz = b.business.id;
    const driver = await makeDriver(em, biz, { shift: null });
    const doneOrder = await makePlanOrder(em, biz, { at: near(1) });
    // A collection no driver has the skill for: the plan leaves it out, and it leaves the route (a D order would
    // stay: on a day under way it is in the van).
    const pending = await makePlanOrder(em, biz, { type: 'P', at: near(2), skills: ['adr'] });
    const routeId = await em.transactional(async (tx) => {
      const first = await onRoute(tx, driver, today, doneOrder);
      await onRoute(tx, driver, today, pending, 'P');
      await finishStop(tx, biz, first.stopId, 'done', new Date());
      return first.routeId;
    });
    assert.equal((await app.http.get(`/v1/routes/${routeId}`, { token: admin })).body.route.status, 'in_progress');

    const res = await build({
      date: today,
      order_ids: [pending],
      driver_ids: [driver],
      options: { reoptimize: true, time_limit_seconds: 1 },
    });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const done = await buildEnded(app.http, admin, res.body.id);
    assert.equal(done.status, 'done', JSON.stringify(done));
    assert.deepEqual(
      done.skipped.map((s: { order_id?: number; code: string }) => [s.order_id, s.code]),
      [[pending, 'UNASSIGNED']],
    );
    const detail = await app.http.get(`/v1/routes/${routeId}`, { token: admin });
    assert.deepEqual(
      detail.body.route.stops.filter((s: any) => s.kind !== 'break').map((s: any) => [s.order_id, s.status]),
      [[doneOrder, 'done']],
    );
    assert.equal(detail.body.route.status, 'completed');
  });
});
