/**
 * The route reads (docs/routes.md, Routes) give each order stop what the driver needs there: the place (the pickup
 * place for a P2P pickup stop, the recipient's address otherwise), whom to meet, the delivery instruction, note, time
 * window, skills, service minutes and package count; the driver's own day and the staff reads alike.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { driverRouteOf, putOrderOnRoute } from '../../../src/modules/routes/index.ts';
import { SYSTEM_ACTOR } from '../../../src/modules/orders/index.ts';
import { executeBound } from '../../../src/platform/db/orm.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, PASSWORD } from '../../helpers/factories.ts';
import { makeDriver, makePlanOrder, near } from './fixtures.ts';

describe('route reads for the driver', () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let routeId: number;
  let plain: number;
  let p2p: number;

  before(async () => {
    app = await startApp();
    const em = app.em();
    b = await makeBusiness(em);
    const biz = b.business.id;
    const [{ today }] = (await em.execute(
      `select (now() at time zone timezone)::date::text as today from business where id = ?`,
      [biz],
    )) as [{ today: string }];
    const driver = await makeDriver(em, biz, { userId: b.users.driver.id });
    plain = await makePlanOrder(em, biz, { at: near(1), packages: [100, 200], skills: ['fridge'], serviceMinutes: 7 });
    p2p = await makePlanOrder(em, biz, { type: 'P2P', at: near(3), pickup: near(2) });
    await executeBound(
      em,
      `update delivery_order set recipient = jsonb_set(recipient, '{phone}', '"+420 601 111 222"'),
         delivery_instruction = 'Gate code 1234', note = 'Fragile',
         time_window_start = '2026-12-15T10:00:00Z', time_window_end = '2026-12-15T11:00:00Z' where id = $1`,
      [plain],
    );
    await executeBound(
      em,
      `update delivery_order set pickup = jsonb_set(jsonb_set(pickup, '{phone}', '"+420 602 333 444"'),
         '{address,line1}', '"9 Pickup Street"') where id = $1`,
      [p2p],
    );
    routeId = await em.transactional(async (tx) => {
      const r = await driverRouteOf(tx, biz, driver, today);
      const base = { businessId: biz, statusId: 1, deliverAt: near(1) };
      await putOrderOnRoute(tx, r, { ...base, id: plain, type: 'D', pickupAt: null }, SYSTEM_ACTOR);
      await putOrderOnRoute(tx, r, { ...base, id: p2p, type: 'P2P', pickupAt: near(2) }, SYSTEM_ACTOR);
      return r.id;
    });
  });
  after(async () => {
    await app?.running.close();
  });

  const check = (stops: any[]) => {
    const [delivery, pickup, p2pDelivery] = stops;
    assert.equal(stops.length, 3, JSON.stringify(stops));
    assert.equal(delivery.order_id, plain);
    assert.deepEqual(
      {
        line1: delivery.order.address.line1,
        city: delivery.order.address.city,
        lat: delivery.order.address.lat,
      },
      { line1: '1 Rue de Test', city: 'Paris', lat: near(1).lat },
    );
    assert.deepEqual(delivery.order.contact, { name: 'Ada', phone: '+420 601 111 222' });
    assert.equal(delivery.order.delivery_instruction, 'Gate code 1234');
    assert.equal(delivery.order.note, 'Fragile');
    assert.deepEqual(delivery.order.time_window, {
      start: '2026-12-15T10:00:00.000Z',
      end: '2026-12-15T11:00:00.000Z',
    });
    assert.deepEqual(delivery.order.required_skills, ['fridge']);
    assert.equal(delivery.order.service_minutes, 7);
    assert.equal(delivery.order.packages, 2);

    assert.deepEqual([pickup.order_id, pickup.kind], [p2p, 'pickup']);
    assert.equal(pickup.order.address.line1, '9 Pickup Street', 'the pickup stop is at the pickup place');
    assert.deepEqual(pickup.order.contact, { name: 'Sender', phone: '+420 602 333 444' });
    assert.deepEqual([p2pDelivery.order_id, p2pDelivery.kind], [p2p, 'delivery']);
    assert.equal(p2pDelivery.order.address.line1, '1 Rue de Test');
    assert.deepEqual(p2pDelivery.order.contact, { name: 'Ada', phone: null });
    assert.equal(p2pDelivery.order.time_window, null);
    assert.equal(p2pDelivery.order.packages, 1);
  };

  test("the driver's own day names each stop's place, contact and instructions", async () => {
    const token = await app.login(b.users.driver.email, PASSWORD);
    const res = await app.http.get('/v1/driver/routes/today', { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.route.id, routeId);
    check(res.body.route.stops);
  });

  test('the staff read the same in the route detail and in the routes of today', async () => {
    const admin = await app.login(b.users.admin.email, PASSWORD);
    const detail = await app.http.get(`/v1/routes/${routeId}`, { token: admin });
    assert.equal(detail.status, 200, JSON.stringify(detail.body));
    check(detail.body.route.stops);
    const todays = await app.http.get(`/v1/routes/today?driver_id=${b.users.driver.id}`, { token: admin });
    assert.equal(todays.status, 200, JSON.stringify(todays.body));
    check(todays.body.routes[0].stops);
  });
});
