/**
 * Route builds (docs/routes.md, Building routes, Re-optimising, Routes) through the real HTTP API, the worker on the
 * tms-routes queue and the real solver (VROOM in its child process): what is left out before the solve and why, a
 * stored plan that keeps time windows, capacities, skills and P2P pairs, order.assigned with source route_planning,
 * a cancel while solving that writes nothing, a re-optimisation of a day under way, taking orders off a route, the
 * route reads, another business seeing nothing, and bad input refused before anything is written.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { driverRouteOf, finishStop, putOrderOnRoute } from '../../../src/modules/routes/index.ts';
import { ORDER_STATUS, SYSTEM_ACTOR } from '../../../src/modules/orders/index.ts';
import type { Em } from '../../../src/platform/db/orm.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { keepEvents, makeBusiness, PASSWORD } from '../../helpers/factories.ts';
import { midMorningBusiness } from '../../helpers/localDay.ts';
import { callTool } from '../../helpers/mcp.ts';
import { waitFor } from '../../helpers/wait.ts';
import {
  assertCancelledWroteNothing,
  buildEnded,
  DEPOT,
  makeDriver,
  makePlanOrder,
  manyOrders,
  near,
  solverChildrenOf,
} from './fixtures.ts';

const DATE = '2026-12-15';
/** The one package of each order of the shared plan, in grams. */
const WEIGHTS = { windowed: 1000, fridge: 2000, adr: 500, heavy: 6000, p2p: 700, a: 100, b: 100, c: 100, d: 100 };
const at = (hhmm: string) => `${DATE}T${hhmm}:00.000Z`;

describe('route builds', () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let other: Awaited<ReturnType<typeof makeBusiness>>;
  let admin: string;
  let otherAdmin: string;
  /** The business of the days under way, where it is mid-morning now whatever the hour, and its today. */
  let day: Awaited<ReturnType<typeof makeBusiness>>;
  let dayAdmin: string;
  let today: string;

  before(async () => {
    app = await startApp();
    b = await makeBusiness(app.em());
    other = await makeBusiness(app.em());
    day = await makeBusiness(app.em());
    await keepEvents(app.em(), b.business.id);
    await keepEvents(app.em(), day.business.id);
    ({ today } = await midMorningBusiness(app.em(), day.business.id));
    admin = await app.login(b.users.admin.email, PASSWORD);
    otherAdmin = await app.login(other.users.admin.email, PASSWORD);
    dayAdmin = await app.login(day.users.admin.email, PASSWORD);
  });
  after(async () => {
    await app?.running.close();
  });

  const build = (body: Record<string, unknown>, token = admin, lang?: string) =>
    app.http.post('/v3/client/build-route', body, { token, lang });
  /** Puts a D order on the route of a day under way (a pending delivery stop); answers its stop. */
  const putD = async (tx: Em, route: Awaited<ReturnType<typeof driverRouteOf>>, id: number) =>
    (
      await putOrderOnRoute(
        tx,
        route,
        { id, businessId: day.business.id, type: 'D', statusId: 1, pickupAt: null, deliverAt: near(1) },
        SYSTEM_ACTOR,
      )
    )[0]!;
  /** Re-optimises today's day of the driver with `orderIds` added; answers the build once done. */
  const reoptimiseToday = async (driver: number, orderIds: number[]) => {
    const res = await build(
      {
        date: today,
        order_ids: orderIds,
        driver_ids: [driver],
        options: { reoptimize: true, time_limit_seconds: 1 },
      },
      dayAdmin,
    );
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const done = await buildEnded(app.http, dayAdmin, res.body.id);
    assert.equal(done.status, 'done', JSON.stringify(done));
    return done;
  };

  test('leaves out what cannot be planned, each with its code and message, and plans the rest', async () => {
    const em = app.em();
    const biz = b.business.id;
    const ok1 = await makePlanOrder(em, biz, { at: near(2) });
    const ok2 = await makePlanOrder(em, biz, { at: near(4, 1) });
    const held = await makePlanOrder(em, biz, { statusId: ORDER_STATUS.HOLD });
    const provider = await makePlanOrder(em, biz, { selfDelivery: false });
    const contractor = await makePlanOrder(em, biz);
    await em.execute(
      `insert into broker_order_assignment (business_id, order_id, broker_id, status) values (?, ?, ?, 'active')`,
      [biz, contractor, b.users.broker.id],
    );
    const noCoords = await makePlanOrder(em, biz, { at: null });
    const noPickup = await makePlanOrder(em, biz, { type: 'P2P' });
    // Another driver's route of that day, its stop done: the order is that driver's, and the driver has a route.
    const busy = await makeDriver(em, biz);
    const started = await makePlanOrder(em, biz);
    const route = await em.transactional(async (tx) => {
      const r = await driverRouteOf(tx, biz, busy, DATE);
      const [stop] = await putOrderOnRoute(
        tx,
        r,
        { id: started, businessId: biz, type: 'D', statusId: 1, pickupAt: null, deliverAt: DEPOT },
        SYSTEM_ACTOR,
      );
      await finishStop(tx, biz, stop!.id, 'done', new Date());
      return r;
    });
    const driver = await makeDriver(em, biz);
    const suspended = await makeDriver(em, biz, { status: 'suspended' });

    const res = await build(
      {
        date: DATE,
        order_ids: [ok1, ok2, held, provider, contractor, noCoords, noPickup, started],
        driver_ids: [driver, suspended, busy],
        options: { time_limit_seconds: 1 },
      },
      admin,
      'fr',
    );
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.workflow_id, `build-route-${res.body.id}`);
    const codes = Object.fromEntries(
      res.body.skipped.map((s: { order_id?: number; driver_id?: number; code: string }) => [
        s.order_id ? `o${s.order_id}` : `d${s.driver_id}`,
        s.code,
      ]),
    );
    assert.deepEqual(codes, {
      [`o${held}`]: 'NOT_DISPATCHABLE',
      [`o${provider}`]: 'PROVIDER_HELD',
      [`o${contractor}`]: 'CONTRACTOR_HELD',
      [`o${noCoords}`]: 'NO_COORDINATES',
      [`o${noPickup}`]: 'NO_PICKUP',
      [`o${started}`]: 'ALREADY_ON_ROUTE',
      [`d${suspended}`]: 'DRIVER_NOT_ACTIVE',
      [`d${busy}`]: 'DRIVER_HAS_ROUTE',
    });
    const noCoordsSkip = res.body.skipped.find((s: { order_id?: number }) => s.order_id === noCoords);
    assert.match(noCoordsSkip.message, /coordonnées/);

    const done = await buildEnded(app.http, admin, res.body.id);
    assert.equal(done.status, 'done', JSON.stringify(done));
    assert.equal(done.summary.distances, 'great_circle');
    assert.equal(done.summary.routes, 1);
    assert.equal(done.routes.length, 1);
    assert.equal(done.routes[0].driver_id, driver);
    assert.deepEqual(done.routes[0].stops.map((s: { order_id: number }) => s.order_id).sort(), [ok1, ok2].sort());
    const rows = await app
      .em()
      .execute<{ id: number; route_id: number; driver_id: number }[]>(
        'select id, route_id, driver_id from delivery_order where id in (?, ?, ?) order by id',
        [ok1, ok2, held],
      );
    for (const r of rows.filter((r) => r.id !== held)) {
      assert.equal(r.route_id, done.routes[0].id);
      assert.equal(r.driver_id, driver);
    }
    assert.equal(rows.find((r) => r.id === held)!.route_id, null);
    assert.equal(route.driverId, busy);

    const events = await app
      .em()
      .execute<{ event_id: string; payload: { data: { driver_id: number; source: string } } }[]>(
        `select event_id, payload from outbox_event where event_type = 'order.assigned' and reference_id in (?, ?)`,
        [String(ok1), String(ok2)],
      );
    assert.equal(events.length, 2);
    for (const e of events) {
      assert.match(e.event_id, /^OLC-\d+\.assigned$/);
      assert.equal(e.payload.data.source, 'route_planning');
      assert.equal(e.payload.data.driver_id, driver);
    }
    const trail = await app
      .em()
      .execute<{ operation_type: number }[]>(
        'select operation_type from order_operation_event where order_id = ? and operation_type in (3081, 3083) order by operation_type',
        [ok1],
      );
    assert.deepEqual(
      trail.map((t) => t.operation_type),
      [3081, 3083],
    );

    // The driver has a route now: building for it again is DRIVER_HAS_ROUTE, and with nothing else left, 422.
    const again = await build({ date: DATE, order_ids: [ok1], driver_ids: [driver] });
    assert.equal(again.status, 422, JSON.stringify(again.body));
    assert.equal(again.body.code, 'NOTHING_TO_PLAN');
    assert.deepEqual(
      again.body.skipped.map((s: { code: string }) => s.code),
      ['DRIVER_HAS_ROUTE'],
    );
  });

  describe('one plan with windows, capacities, skills and a P2P pair', () => {
    let done: any;
    let ids: Record<'windowed' | 'fridge' | 'adr' | 'heavy' | 'p2p' | 'a' | 'b' | 'c' | 'd', number>;
    let cold: number;
    let plain: number;

    before(async () => {
      const em = app.em();
      const biz = b.business.id;
      cold = await makeDriver(em, biz, {
        parcels: 4,
        weightKg: 5,
        skills: ['refrigerated'],
        breaks: [{ start: '11:00', end: '14:00', minutes: 30 }],
      });
      plain = await makeDriver(em, biz, { parcels: 4, weightKg: 5 });
      ids = {
        windowed: await makePlanOrder(em, biz, {
          at: near(6),
          window: [at('10:00'), at('10:30')],
          packages: [WEIGHTS.windowed],
        }),
        fridge: await makePlanOrder(em, biz, { at: near(3, 2), skills: ['refrigerated'], packages: [WEIGHTS.fridge] }),
        adr: await makePlanOrder(em, biz, { at: near(1), skills: ['adr'], packages: [WEIGHTS.adr] }),
        heavy: await makePlanOrder(em, biz, { at: near(1, 1), packages: [WEIGHTS.heavy] }),
        p2p: await makePlanOrder(em, biz, {
          type: 'P2P',
          at: near(8, -2),
          pickup: near(-3, 1),
          packages: [WEIGHTS.p2p],
          serviceMinutes: 10,
        }),
        a: await makePlanOrder(em, biz, { at: near(-2), packages: [WEIGHTS.a] }),
        b: await makePlanOrder(em, biz, { at: near(-4, -1), packages: [WEIGHTS.b] }),
        c: await makePlanOrder(em, biz, { at: near(5, 3), packages: [WEIGHTS.c] }),
        d: await makePlanOrder(em, biz, { at: near(2, -3), packages: [WEIGHTS.d] }),
      };
      const res = await build({
        date: DATE,
        order_ids: Object.values(ids),
        driver_ids: [cold, plain],
        options: { time_limit_seconds: 2 },
      });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      assert.deepEqual(res.body.skipped, []);
      done = await buildEnded(app.http, admin, res.body.id);
      assert.equal(done.status, 'done', JSON.stringify(done));
    });

    const stopsOf = (orderId: number) =>
      done.routes.flatMap((r: any) =>
        r.stops.filter((s: any) => s.order_id === orderId).map((s: any) => ({ ...s, driver_id: r.driver_id })),
      );

    test('no driver carries more than its capacity; an order no one may take is UNASSIGNED', () => {
      assert.equal(done.routes.length, 2, 'four parcels a driver: both drivers are needed');
      const grams = new Map(Object.entries(ids).map(([k, id]) => [id, WEIGHTS[k as keyof typeof WEIGHTS]]));
      for (const r of done.routes) {
        // Deliveries are loaded at the start; a P2P order is carried from its pickup to its delivery.
        const stops = r.stops.filter((s: any) => s.kind !== 'break');
        const picked = new Set(stops.filter((s: any) => s.kind === 'pickup').map((s: any) => s.order_id));
        const loaded = stops.filter((s: any) => s.kind === 'delivery' && !picked.has(s.order_id));
        let load = {
          parcels: loaded.length,
          grams: loaded.reduce((t: number, s: any) => t + grams.get(s.order_id)!, 0),
        };
        let most = { ...load };
        for (const s of stops) {
          const sign = s.kind === 'pickup' ? 1 : -1;
          load = { parcels: load.parcels + sign, grams: load.grams + sign * grams.get(s.order_id)! };
          most = { parcels: Math.max(most.parcels, load.parcels), grams: Math.max(most.grams, load.grams) };
        }
        assert.ok(most.parcels <= 4, `route of ${r.driver_id} carries ${most.parcels} parcels at once`);
        assert.ok(most.grams <= 5000, `route of ${r.driver_id} carries ${most.grams} g at once`);
      }
      const unassigned = done.skipped.filter((s: any) => s.code === 'UNASSIGNED').map((s: any) => s.order_id);
      assert.deepEqual(unassigned.sort(), [ids.adr, ids.heavy].sort(), JSON.stringify(done.skipped));
      assert.equal(done.summary.unassigned, 2);
    });

    test('the windowed order is served within its window', () => {
      const [stop] = stopsOf(ids.windowed);
      assert.ok(stop, JSON.stringify(done));
      const serviceStart = Date.parse(stop.planned_departure) - 5 * 60_000;
      assert.ok(serviceStart >= Date.parse(at('10:00')), stop.planned_departure);
      assert.ok(serviceStart <= Date.parse(at('10:30')), stop.planned_departure);
    });

    test('the refrigerated order goes to the driver with the skill', () => {
      const [stop] = stopsOf(ids.fridge);
      assert.ok(stop, JSON.stringify(done));
      assert.equal(stop.driver_id, cold);
    });

    test("the P2P order's pickup comes before its delivery, on the same route", () => {
      const stops = stopsOf(ids.p2p);
      assert.equal(stops.length, 2, JSON.stringify(done));
      const [first, second] = stops.sort((x: any, y: any) => x.seq - y.seq);
      assert.equal(first.kind, 'pickup');
      assert.equal(second.kind, 'delivery');
      assert.equal(first.driver_id, second.driver_id);
      assert.ok(Date.parse(first.planned_departure) <= Date.parse(second.planned_arrival));
    });

    test('the stored route reads back with its stops, breaks and planned figures', async () => {
      const route = done.routes.find((r: any) => r.driver_id === cold);
      const res = await app.http.get(`/v1/routes/${route.id}`, { token: admin });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.route.status, 'planned');
      assert.ok(res.body.route.planned_start && res.body.route.planned_end);
      assert.ok(res.body.route.distance_m > 0);
      const seqs = res.body.route.stops.map((s: any) => s.seq);
      assert.deepEqual(
        seqs,
        seqs.map((_: number, i: number) => i + 1),
      );
      assert.ok(
        res.body.route.stops.some((s: any) => s.kind === 'break'),
        'the break is a stop',
      );
      const order = res.body.route.stops.find((s: any) => s.order_id !== null).order;
      assert.match(order.tracking_number, /\S/);
      const list = await app.http.get(`/v1/routes?date=${DATE}&driver_id=${cold}`, { token: admin });
      assert.equal(list.status, 200, JSON.stringify(list.body));
      assert.deepEqual(
        list.body.routes.map((r: any) => r.id),
        [route.id],
      );
    });

    test('another business sees none of it', async () => {
      const route = done.routes[0];
      assert.equal((await app.http.get(`/v3/client/build-route/${done.id}`, { token: otherAdmin })).status, 404);
      assert.equal(
        (await app.http.post(`/v3/client/build-route/${done.id}/cancel`, {}, { token: otherAdmin })).status,
        404,
      );
      assert.equal((await app.http.get(`/v1/routes/${route.id}`, { token: otherAdmin })).status, 404);
      const list = await app.http.get(`/v1/routes?date=${DATE}`, { token: otherAdmin });
      assert.deepEqual(list.body.routes, []);
      const remove = await app.http.post(
        `/v1/routes/${route.id}/remove-orders`,
        { order_ids: [ids.a] },
        { token: otherAdmin },
      );
      assert.equal(remove.status, 404);
      const theirs = await build({ date: DATE, order_ids: [ids.a], driver_ids: [plain] }, otherAdmin);
      assert.equal(theirs.status, 422, JSON.stringify(theirs.body));
      assert.deepEqual(
        theirs.body.errors.map((e: { field: string }) => e.field),
        ['order_ids.0', 'driver_ids.0'],
      );
    });
  });

  test('a cancel while solving stops the solver; the build ends cancelled and writes nothing', async () => {
    const em = app.em();
    const biz = b.business.id;
    const drivers = [];
    for (let i = 0; i < 20; i++) drivers.push(await makeDriver(em, biz, { parcels: 60 }));
    const orders = await manyOrders(em, biz, DATE, 1_000);
    const res = await build({
      date: DATE,
      order_ids: orders,
      driver_ids: drivers,
      options: { time_limit_seconds: 120 },
    });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const id = res.body.id;
    const solving = await waitFor(async () => {
      const r = await app.http.get(`/v3/client/build-route/${id}`, { token: admin });
      return r.body.progress?.state === 'solving' && r.body.progress.started_at ? r.body : null;
    }, 30_000);
    assert.equal(solving.progress.time_limit_seconds, 120);
    assert.equal(solving.progress.orders, 1_000);
    assert.equal(solving.progress.drivers, 20);
    await waitFor(async () => solverChildrenOf(process.pid).length > 0, 20_000, 50);

    const cancel = await app.http.post(`/v3/client/build-route/${id}/cancel`, {}, { token: admin });
    assert.equal(cancel.status, 202, JSON.stringify(cancel.body));
    await assertCancelledWroteNothing(app, admin, id, orders);
    assert.deepEqual(solverChildrenOf(process.pid), [], 'the solver child is gone');
  });

  test("re-optimising a day under way keeps the done stop first and plans the rest from the driver's position", async () => {
    const em = app.em();
    const biz = day.business.id;
    const driver = await makeDriver(em, biz, { userId: day.users.driver.id, shift: null, position: near(5, 5) });
    const doneOrder = await makePlanOrder(em, biz, { at: near(1) });
    const pending = await makePlanOrder(em, biz, { at: near(6, 4) });
    const carried = await makePlanOrder(em, biz, { type: 'P2P', at: near(-3), pickup: near(2, 2) });
    const added = await makePlanOrder(em, biz, { at: near(4, 6) });
    const { routeId, doneStop, pickupStop } = await em.transactional(async (tx) => {
      const r = await driverRouteOf(tx, biz, driver, today);
      const put = (id: number, type: 'D' | 'P2P') =>
        putOrderOnRoute(
          tx,
          r,
          { id, businessId: biz, type, statusId: 1, pickupAt: type === 'P2P' ? near(2, 2) : null, deliverAt: near(1) },
          SYSTEM_ACTOR,
        );
      const [d] = await put(doneOrder, 'D');
      const [p] = await put(carried, 'P2P');
      await put(pending, 'D');
      await finishStop(tx, biz, d!.id, 'done', new Date());
      await finishStop(tx, biz, p!.id, 'done', new Date());
      return { routeId: r.id, doneStop: d!.id, pickupStop: p!.id };
    });
    const asked = Date.now();
    const res = await build(
      {
        date: today,
        order_ids: [added],
        driver_ids: [driver],
        options: { reoptimize: true, time_limit_seconds: 1 },
      },
      dayAdmin,
    );
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const done = await buildEnded(app.http, dayAdmin, res.body.id);
    assert.equal(done.status, 'done', JSON.stringify(done));
    const detail = await app.http.get(`/v1/routes/${routeId}`, { token: dayAdmin });
    const stops = detail.body.route.stops.filter((s: any) => s.kind !== 'break');
    assert.equal(stops[0].id, doneStop);
    assert.equal(stops[0].status, 'done');
    assert.equal(stops[1].id, pickupStop, 'the P2P pickup done stays');
    const rest = stops.slice(2);
    assert.deepEqual(rest.map((s: any) => s.order_id).sort(), [pending, carried, added].sort());
    assert.ok(
      rest.every((s: any) => s.status === 'pending' && s.kind === 'delivery'),
      JSON.stringify(rest),
    );
    for (const s of rest) assert.ok(Date.parse(s.planned_arrival) >= asked - 1000, s.planned_arrival);
    assert.equal(detail.body.route.status, 'in_progress');

    // The driver reads its own day; the staff read today's routes.
    const driverToken = await app.login(day.users.driver.email, PASSWORD);
    const mine = await app.http.get('/v1/driver/routes/today', { token: driverToken });
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    assert.equal(mine.body.route.id, routeId);
    const todays = await app.http.get(`/v1/routes/today?driver_id=${driver}`, { token: dayAdmin });
    assert.deepEqual(
      todays.body.routes.map((r: any) => r.id),
      [routeId],
    );

    // Taking orders off: a done stop keeps its order, a pending one leaves with order.unassigned.
    const removed = await app.http.post(
      `/v1/routes/${routeId}/remove-orders`,
      { order_ids: [doneOrder, added, 2_000_000_000] },
      { token: dayAdmin },
    );
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual(
      removed.body.results.map((r: any) => [r.order_id, r.removed, r.code ?? null]),
      [
        [doneOrder, false, 'STOP_STARTED'],
        [added, true, null],
        [2_000_000_000, false, 'NOT_ON_ROUTE'],
      ],
    );
    const [gone] = await app.em().execute<{ route_id: number | null; n: number }[]>(
      `select o.route_id, (select count(*)::int from outbox_event e where e.reference_id = o.id::text
           and e.event_type = 'order.unassigned' and e.payload -> 'data' ->> 'reason' = 'revoke') as n
         from delivery_order o where o.id = ?`,
      [added],
    );
    assert.deepEqual(gone, { route_id: null, n: 1 });
  });

  test('a carried D order the re-optimised plan cannot serve stays in the van: its delivery goes back on the end', async () => {
    const em = app.em();
    const biz = day.business.id;
    const driver = await makeDriver(em, biz, { shift: null, position: near(5, 5) });
    const doneOrder = await makePlanOrder(em, biz, { at: near(1) });
    // Its window ended an hour ago: no plan made now can serve it.
    const hour = 3_600_000;
    const late = await makePlanOrder(em, biz, {
      at: near(3),
      window: [new Date(Date.now() - 2 * hour).toISOString(), new Date(Date.now() - hour).toISOString()],
    });
    const added = await makePlanOrder(em, biz, { at: near(4, 6) });
    const routeId = await em.transactional(async (tx) => {
      const r = await driverRouteOf(tx, biz, driver, today);
      const d = await putD(tx, r, doneOrder);
      await putD(tx, r, late);
      await finishStop(tx, biz, d.id, 'done', new Date());
      return r.id;
    });
    const done = await reoptimiseToday(driver, [added]);
    assert.deepEqual(
      done.skipped.filter((s: any) => s.order_id === late).map((s: any) => s.code),
      ['UNASSIGNED'],
    );
    const stops = (await app.http.get(`/v1/routes/${routeId}`, { token: dayAdmin })).body.route.stops.filter(
      (s: any) => s.kind !== 'break',
    );
    assert.deepEqual(
      stops.map((s: any) => [s.order_id, s.kind, s.status]),
      [
        [doneOrder, 'delivery', 'done'],
        [added, 'delivery', 'pending'],
        [late, 'delivery', 'pending'],
      ],
    );
    const [kept] = await em.execute<{ route_id: number | null; n: number }[]>(
      `select o.route_id, (select count(*)::int from outbox_event e where e.reference_id = o.id::text
           and e.event_type = 'order.unassigned') as n
         from delivery_order o where o.id = ?`,
      [late],
    );
    assert.deepEqual(kept, { route_id: routeId, n: 0 });
  });

  test("a day's order the re-optimised plan leaves out is named in the build, with its code", async () => {
    const em = app.em();
    const biz = day.business.id;
    const driver = await makeDriver(em, biz, { shift: null, position: near(5, 5) });
    const nowhere = await makePlanOrder(em, biz, { at: null });
    const added = await makePlanOrder(em, biz, { at: near(4, 6) });
    await em.transactional(async (tx) => putD(tx, await driverRouteOf(tx, biz, driver, today), nowhere));
    const done = await reoptimiseToday(driver, [added]);
    assert.deepEqual(
      done.skipped.filter((s: any) => s.order_id === nowhere).map((s: any) => s.code),
      ['NO_COORDINATES'],
      JSON.stringify(done.skipped),
    );
    const [left] = await em.execute<{ route_id: number | null }[]>('select route_id from delivery_order where id = ?', [
      nowhere,
    ]);
    assert.equal(left!.route_id, null);
  });

  test('a driver without a depot starts at its position; one without a position either is left out', async () => {
    const em = app.em();
    const biz = b.business.id;
    // The business has no price-model depot: neither driver has anywhere to start but its position.
    const roaming = await makeDriver(em, biz, { position: near(3, 3) });
    const lost = await makeDriver(em, biz);
    await em.execute('update driver_profile set depot_lat = null, depot_lng = null where user_id in (?, ?)', [
      roaming,
      lost,
    ]);
    const orders = [await makePlanOrder(em, biz, { at: near(4) }), await makePlanOrder(em, biz, { at: near(5, 1) })];
    const res = await build({
      date: DATE,
      order_ids: orders,
      driver_ids: [roaming, lost],
      options: { time_limit_seconds: 1 },
    });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.skipped.map((s: any) => [s.driver_id, s.code]),
      [[lost, 'DRIVER_NO_START']],
    );
    const done = await buildEnded(app.http, admin, res.body.id);
    assert.equal(done.status, 'done', JSON.stringify(done));
    assert.deepEqual(
      done.routes.map((r: any) => r.driver_id),
      [roaming],
    );
    assert.deepEqual(done.routes[0].stops.map((s: any) => s.order_id).sort(), [...orders].sort());
  });

  test('bad input is refused before anything is written', async () => {
    const countBuilds = async () =>
      ((await app.em().execute<{ n: number }[]>('select count(*)::int as n from route_build')) as [{ n: number }])[0].n;
    const count = await countBuilds();
    // Ids that would be planned: each case fails on its one fault alone (a 202 would write a build).
    const base = {
      date: DATE,
      order_ids: [await makePlanOrder(app.em(), b.business.id)],
      driver_ids: [await makeDriver(app.em(), b.business.id)],
    };
    const cases: Record<string, unknown>[] = [
      { ...base, date: '2026-12-15\u0000' },
      { ...base, order_ids: [2_147_483_648] },
      { ...base, order_ids: Array.from({ length: 1_001 }, (_, i) => i + 1) },
      { ...base, order_ids: [] },
      { ...base, order_ids: [5, 5] },
      { ...base, driver_ids: Array.from({ length: 201 }, (_, i) => i + 1) },
      { ...base, options: { time_limit_seconds: 121 } },
      { ...base, options: { average_speed_kmh: 4 } },
      { ...base, options: { surprise: true } },
      { ...base, extra: 1 },
      // Re-optimising is for a day under way: today's date only.
      { ...base, options: { reoptimize: true } },
    ];
    for (const body of cases) {
      const res = await build(body);
      assert.equal(res.status, 422, `${JSON.stringify(body).slice(0, 80)}: ${res.status}`);
      assert.equal(res.body.code, 'VALIDATION_FAILED');
    }
    assert.equal(await countBuilds(), count);
    const notToday = await build({ ...base, options: { reoptimize: true } }, admin, 'de');
    assert.deepEqual(
      notToday.body.errors?.map((f: any) => f.field),
      ['options.reoptimize'],
      JSON.stringify(notToday.body),
    );
    assert.match(notToday.body.errors[0].message, /heutige Datum/);
    const options = await app.http.get('/v3/client/build-route/options', { token: admin });
    assert.equal(options.status, 200, JSON.stringify(options.body));
    const limit = options.body.options.find((o: any) => o.name === 'time_limit_seconds');
    assert.deepEqual([limit.min, limit.max, limit.default], [1, 120, 10]);
    assert.equal(options.body.router_configured, false);

    // Over MCP, on the developer server too: the build needs confirm: true; the options are a plain read.
    const unconfirmed = await callTool(app.url, admin, 'build_route', base, '/mcp/developer');
    assert.deepEqual([unconfirmed.isError, unconfirmed.body.code], [true, 'CONFIRMATION_REQUIRED']);
    assert.equal(await countBuilds(), count);
    const read = await callTool(app.url, admin, 'get_build_route_options', {}, '/mcp/developer');
    assert.equal(read.isError, false, JSON.stringify(read.body));
    assert.equal(read.body.distances, 'great_circle');
  });
});
