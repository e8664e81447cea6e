/**
 * The route board's writes to orders and routes (docs/routes.md, "The route board"): a contractor's named driver
 * takes over only the orders on the route that were still its previous driver's, each with trail rows 3082 and 3081
 * and order.unassigned (handover) then order.assigned (manual); two boards created at once on one route give one
 * board and one ROUTE_NOT_OFFERABLE, never a 500.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ORDER_OPERATION } from '../../../src/modules/orders/index.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeOrder } from '../../helpers/factories.ts';
import { startReceiver } from '../../helpers/receiver.ts';
import { waitFor } from '../../helpers/wait.ts';
import { addUser, BOARD_DATE, boardWorld, makeRoutes } from './world.ts';

const SECRET = 'route-board-handover-secret-0123456789';
const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

describe('route board handover', () => {
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let w: Awaited<ReturnType<typeof boardWorld>>;

  before(async () => {
    app = await startApp();
    receiver = await startReceiver();
    w = await boardWorld(app, receiver.url, SECRET);
  });
  after(async () => {
    await receiver?.close();
    await app?.running.close();
  });

  const create = (routeIds: number[]) =>
    app.http.post(
      '/v1/route-boards',
      { route_date: BOARD_DATE, route_ids: routeIds, closes_at: inHours(1), settles_at: inHours(2) },
      { token: w.admin },
    );
  const boardOf = async (id: number) => (await app.http.get(`/v1/route-boards/${id}`, { token: w.admin })).body;

  test("the named driver takes only the previous driver's orders on the route, with trail rows and events", async () => {
    const biz = w.b.business.id;
    const [route] = await makeRoutes(app, biz, 1);
    const placeholder = route!.driverId;
    // Dispatched to someone else since planning, still on the route: it stays that driver's.
    const elsewhere = await addUser(app, biz, 'driver');
    const other = await makeOrder(app.em(), biz, { routeId: route!.id, driverId: elsewhere.id });
    // The placeholder's order on no route: not the route's, not moved.
    const offRoute = await makeOrder(app.em(), biz, { driverId: placeholder });

    const made = await create([route!.id]);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const board = made.body.board as { id: number; seats: { id: number }[] };
    await waitFor(async () => ((await boardOf(board.id)).board?.status === 'open' ? true : null));
    const claim = await app.http.post(
      `/v1/route-boards/${board.id}/claims`,
      { seat_id: board.seats[0]!.id },
      { token: w.broker },
    );
    assert.equal(claim.status, 201, JSON.stringify(claim.body));
    const closed = await app.http.post(`/v1/route-boards/${board.id}/close`, {}, { token: w.admin });
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    const driver = await addUser(app, biz, 'driver');
    const assigned = await app.http.post(
      `/v1/route-boards/${board.id}/claims/${claim.body.claim.id}/assign`,
      { driver_id: driver.id },
      { token: w.broker },
    );
    assert.equal(assigned.status, 200, JSON.stringify(assigned.body));

    const drivers = await app
      .em()
      .execute<{ id: number; driver_id: number }[]>(
        'select id, driver_id from delivery_order where id in (?, ?, ?) order by id',
        [route!.orderId, other.id, offRoute.id],
      );
    assert.deepEqual(
      drivers.map((o) => [o.id, o.driver_id]),
      [
        [route!.orderId, driver.id],
        [other.id, elsewhere.id],
        [offRoute.id, placeholder],
      ].sort((a, b) => a[0]! - b[0]!),
    );

    const trail = await app.em().execute<{ order_id: number; operation_type: number; details: any }[]>(
      `select order_id, operation_type, details from order_operation_event
        where order_id in (?, ?, ?) and operation_type in (?, ?) order by id`,
      [route!.orderId, other.id, offRoute.id, ORDER_OPERATION.DRIVER_UNASSIGNED, ORDER_OPERATION.DRIVER_ASSIGNED],
    );
    assert.deepEqual(
      trail.map((t) => [t.order_id, t.operation_type, t.details.previous_driver_id ?? t.details.driver_id]),
      [
        [route!.orderId, 3082, placeholder],
        [route!.orderId, 3081, driver.id],
      ],
    );

    const events = await app.em().execute<{ reference_id: string; event_type: string; data: any }[]>(
      `select reference_id, event_type, payload -> 'data' as data from outbox_event
        where reference_id in (?, ?, ?) and event_type in ('order.assigned', 'order.unassigned') order by id`,
      [String(route!.orderId), String(other.id), String(offRoute.id)],
    );
    assert.deepEqual(
      events.map((e) => [
        e.reference_id,
        e.event_type,
        e.data.previous_driver_id ?? e.data.driver_id,
        e.data.reason ?? e.data.source,
      ]),
      [
        [String(route!.orderId), 'order.unassigned', placeholder, 'handover'],
        [String(route!.orderId), 'order.assigned', driver.id, 'manual'],
      ],
    );
  });

  test('two boards created at once on one route: one is made, the other is ROUTE_NOT_OFFERABLE', async () => {
    for (let round = 0; round < 5; round++) {
      const routes = await makeRoutes(app, w.b.business.id, 3);
      const ids = routes.map((r) => r.id);
      const answers = await Promise.all([create(ids), create([...ids].reverse())]);
      assert.deepEqual(
        answers.map((a) => [a.status, a.body.code ?? null]).sort(),
        [
          [201, null],
          [409, 'ROUTE_NOT_OFFERABLE'],
        ],
        JSON.stringify(answers.map((a) => a.body)),
      );
    }
  });
});
