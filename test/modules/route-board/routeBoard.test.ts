/**
 * The route board (docs/routes.md, "The route board") through the real HTTP API, the worker and a real webhook
 * receiver: a board from open to settled (claims, standby, pooled, withdraw, early close, award, drivers named,
 * settled at once), withdraw -> promote, veto and replace, cancellation, the timers alone, bad input and another
 * business. Every route_board.changed is checked against its declared schema; a customer override with a
 * route_board_webhook_url receives none of them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { eventDefinition } from '../../helpers/events.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, PASSWORD } from '../../helpers/factories.ts';
import { startReceiver } from '../../helpers/receiver.ts';
import { waitFor } from '../../helpers/wait.ts';
import { applyBoardChange } from '../../../src/modules/route-board/changes.ts';
import { addUser, BOARD_DATE, boardWorld, makeRoutes } from './world.ts';

const ajv = new Ajv({ strict: false });
formats.default(ajv);
const SECRET = 'route-board-test-secret-0123456789';
const validPayload = ajv.compile(eventDefinition('route_board.changed')!.payload);

interface BoardEvent {
  event_id: string;
  data: {
    action: string;
    board: { id: number; status: string };
    seat: { id: number; status: string; driver_id: number | null } | null;
    claim: { id: number; contractor_id: number; status: string; position: number | null } | null;
  };
}

const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

describe('route board', () => {
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let w: Awaited<ReturnType<typeof boardWorld>>;

  before(async () => {
    app = await startApp();
    receiver = await startReceiver();
    w = await boardWorld(app, receiver.url, SECRET);
    // A customer override naming a route board URL: the event concerns no customer, so it never receives one.
    const put = await app.http.put(
      '/v1/webhook-settings',
      {
        customer_id: w.b.users.customer.id,
        webhook_sign_secret: SECRET,
        route_board_webhook_url: `${receiver.url}/customer`,
      },
      { token: w.admin },
    );
    assert.equal(put.status, 200, JSON.stringify(put.body));
  });
  after(async () => {
    await receiver.close();
    await app.running.close();
  });

  /** The board's events as the receiver got them, in the order of their ids, once there are `n`. */
  async function eventsOf(boardId: number, n: number): Promise<BoardEvent[]> {
    const got = await waitFor(() => {
      const mine = receiver.received
        .filter((r) => r.url === w.merchantPath)
        .map((r) => JSON.parse(r.body) as BoardEvent)
        .filter((e) => e.data.board.id === boardId);
      return Promise.resolve(mine.length >= n ? mine : null);
    });
    for (const e of got) assert.ok(validPayload(e), `${e.event_id}: ${JSON.stringify(validPayload.errors)}`);
    const seq = (e: BoardEvent) => Number(e.event_id.split('.')[1]);
    const sorted = [...got].sort((a, b) => seq(a) - seq(b));
    assert.deepEqual(
      sorted.map((e) => e.event_id),
      sorted.map((_, i) => `RBC-${boardId}.${i + 1}`),
    );
    return sorted;
  }

  async function createBoard(routeIds: number[], times: Record<string, string> = {}) {
    const res = await app.http.post(
      '/v1/route-boards',
      { route_date: BOARD_DATE, route_ids: routeIds, closes_at: inHours(1), settles_at: inHours(2), ...times },
      { token: w.admin },
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.board as { id: number; seats: { id: number; route_id: number }[] };
  }

  const boardOf = async (id: number, token = w.admin) => (await app.http.get(`/v1/route-boards/${id}`, { token })).body;
  const untilStatus = (id: number, status: string) =>
    waitFor(async () => ((await boardOf(id)).board?.status === status ? true : null));

  test('a board from open to settled: claims, standby, pooled, withdraw, close, award, drivers, settled', async () => {
    const routes = await makeRoutes(app, w.b.business.id, 3);
    const board = await createBoard(routes.map((r) => r.id));
    const [s1, s2, s3] = board.seats.map((s) => s.id) as [number, number, number];
    await untilStatus(board.id, 'open');
    const claim = async (token: string, seat_id?: number) => {
      const res = await app.http.post(`/v1/route-boards/${board.id}/claims`, seat_id ? { seat_id } : {}, { token });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.claim as { id: number; status: string; position: number | null };
    };
    const a = await claim(w.broker, s1);
    assert.deepEqual([a.status, a.position], ['claimed', 1]);
    const standby = await claim(w.broker2, s1);
    assert.deepEqual([standby.status, standby.position], ['standby', 2]);
    const pooled = await claim(w.broker2);
    assert.deepEqual([pooled.status, pooled.position], ['pooled', 1]);
    const again = await app.http.post(`/v1/route-boards/${board.id}/claims`, { seat_id: s1 }, { token: w.broker });
    assert.equal(again.body.code, 'ALREADY_CLAIMED');
    const b2 = await claim(w.broker, s2);
    const withdrawn = await app.http.post(
      `/v1/route-boards/${board.id}/claims/${b2.id}/withdraw`,
      {},
      {
        token: w.broker,
      },
    );
    assert.equal(withdrawn.body.claim.status, 'withdrawn', JSON.stringify(withdrawn.body));
    // A contractor sees only its own claims.
    const seen = (await boardOf(board.id, w.broker2)).board;
    assert.deepEqual(seen.claims.map((c: { id: number }) => c.id).sort(), [standby.id, pooled.id].sort());
    assert.equal(seen.seats.find((s: { id: number }) => s.id === s1).claim_id, null);

    const closed = await app.http.post(`/v1/route-boards/${board.id}/close`, {}, { token: w.admin });
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    assert.equal(closed.body.board.status, 'closed');
    const seats = closed.body.board.seats as { id: number; status: string; claim_id: number | null }[];
    assert.deepEqual(
      seats.map((s) => [s.id, s.status, s.claim_id]),
      [
        [s1, 'awarded', a.id],
        [s2, 'awarded', pooled.id],
        [s3, 'unfilled', null],
      ],
    );
    const late = await app.http.post(`/v1/route-boards/${board.id}/claims`, { seat_id: s3 }, { token: w.broker });
    assert.equal(late.body.code, 'BOARD_CLOSED');

    const [d1, d2] = [await addUser(app, w.b.business.id, 'driver'), await addUser(app, w.b.business.id, 'driver')];
    // A driver of another business, or one who already drives a route that day, is refused.
    const busy = await app.http.post(
      `/v1/route-boards/${board.id}/claims/${a.id}/assign`,
      { driver_id: routes[2]!.driverId },
      { token: w.broker },
    );
    assert.equal(busy.body.code, 'DRIVER_NOT_AVAILABLE');
    const notMine = await app.http.post(
      `/v1/route-boards/${board.id}/claims/${pooled.id}/assign`,
      { driver_id: d1.id },
      { token: w.broker },
    );
    assert.equal(notMine.status, 404);
    const assigned = await app.http.post(
      `/v1/route-boards/${board.id}/claims/${a.id}/assign`,
      { driver_id: d1.id },
      { token: w.broker },
    );
    assert.equal(assigned.body.claim?.status, 'assigned', JSON.stringify(assigned.body));
    const assigned2 = await app.http.post(
      `/v1/route-boards/${board.id}/claims/${pooled.id}/assign`,
      { driver_id: d2.id },
      { token: w.broker2 },
    );
    // The last driver the board waited for: it may have settled by the time the answer reads the claim.
    assert.ok(['assigned', 'settled'].includes(assigned2.body.claim?.status), JSON.stringify(assigned2.body));
    // Every awarded seat has its driver: the board settles without waiting for settles_at.
    await untilStatus(board.id, 'settled');
    const [r1] = await app
      .em()
      .execute<{ driver_id: number; order_driver: number }[]>(
        'select r.driver_id, o.driver_id as order_driver from route r join delivery_order o on o.route_id = r.id where r.id = ?',
        [routes[0]!.id],
      );
    assert.deepEqual(r1, { driver_id: d1.id, order_driver: d1.id });

    const events = await eventsOf(board.id, 14);
    assert.deepEqual(
      events.map((e) => [e.data.action, e.data.claim?.id ?? null]),
      [
        ['board_opened', null],
        ['claimed', a.id],
        ['standby', standby.id],
        ['pooled', pooled.id],
        ['claimed', b2.id],
        ['withdrawn', b2.id],
        ['board_closed', null],
        ['awarded', a.id],
        ['awarded', pooled.id],
        ['lost', standby.id],
        ['assigned', a.id],
        ['assigned', pooled.id],
        ['settled', a.id],
        ['settled', pooled.id],
      ],
    );
    assert.deepEqual(events[10]!.data.seat, { id: s1, route_id: routes[0]!.id, status: 'assigned', driver_id: d1.id });
    assert.equal(events.at(-1)!.data.board.status, 'settled');
    // The customer override never hears of the board.
    assert.equal(receiver.received.filter((r) => r.url === '/customer').length, 0);
    const [{ n }] = (await app
      .em()
      .execute<{ n: number }[]>(
        "select count(*)::int as n from webhook_delivery where event_type = 'route_board.changed' and url like '%/customer'",
      )) as [{ n: number }];
    assert.equal(n, 0);
  });

  test('withdraw promotes the first standby; a veto promotes the next; replace; cancel displaces', async () => {
    const [route] = await makeRoutes(app, w.b.business.id, 1);
    const board = await createBoard([route!.id]);
    const seat = board.seats[0]!.id;
    await untilStatus(board.id, 'open');
    const broker3 = await addUser(app, w.b.business.id, 'contractor');
    const t3 = await app.login(broker3.email, PASSWORD);
    const post = (path: string, body: object, token: string) =>
      app.http.post(`/v1/route-boards/${board.id}${path}`, body, { token });
    const first = (await post('/claims', { seat_id: seat }, w.broker)).body.claim;
    const second = (await post('/claims', { seat_id: seat }, w.broker2)).body.claim;
    const out = await post(`/claims/${first.id}/withdraw`, {}, w.broker);
    assert.equal(out.body.claim.status, 'withdrawn');
    // The withdrawing contractor sees only its own claims; the business sees the standby promoted.
    assert.equal(out.body.board.claims.length, 1);
    const promoted = (await boardOf(board.id)).board.claims.find((c: { id: number }) => c.id === second.id);
    assert.deepEqual([promoted.status, promoted.position], ['promoted', 1]);
    const back = (await post('/claims', { seat_id: seat }, w.broker)).body.claim;
    assert.deepEqual([back.status, back.position], ['standby', 2]);
    const vetoed = await post(`/claims/${second.id}/veto`, { reason: 'late twice' }, w.admin);
    assert.deepEqual([vetoed.body.claim.status, vetoed.body.claim.reason], ['vetoed', 'late twice']);
    assert.equal(vetoed.body.board.seats[0].claim_id, back.id);
    assert.equal((await post('/claims', { seat_id: seat }, w.broker2)).body.code, 'CLAIM_VETOED');
    // A contractor cannot veto; the admin cannot claim.
    assert.equal((await post(`/claims/${back.id}/veto`, {}, w.broker)).status, 403);
    assert.equal((await post('/claims', {}, w.admin)).status, 403);
    const pooled = (await post('/claims', {}, t3)).body.claim;
    const replaced = await post(`/seats/${seat}/replace`, { claim_id: pooled.id }, w.admin);
    assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
    assert.deepEqual([replaced.body.claim.status, replaced.body.claim.seat_id], ['promoted', seat]);
    const cancelled = await post('/cancel', { reason: 'routes merged' }, w.admin);
    assert.equal(cancelled.body.board.status, 'cancelled', JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.board.cancel_reason, 'routes merged');
    assert.equal((await post('/claims', { seat_id: seat }, w.broker2)).body.code, 'BOARD_ENDED');
    assert.equal((await post('/cancel', {}, w.admin)).body.code, 'BOARD_ENDED');
    const events = await eventsOf(board.id, 13);
    assert.deepEqual(
      events.map((e) => [e.data.action, e.data.claim?.id ?? null]),
      [
        ['board_opened', null],
        ['claimed', first.id],
        ['standby', second.id],
        ['withdrawn', first.id],
        ['promoted', second.id],
        ['standby', back.id],
        ['vetoed', second.id],
        ['promoted', back.id],
        ['pooled', pooled.id],
        ['replaced', back.id],
        ['promoted', pooled.id],
        ['board_cancelled', null],
      ].concat([['displaced', pooled.id]]),
    );
  });

  test('the timers alone: a board opens, closes and settles at its times', async () => {
    const [route] = await makeRoutes(app, w.b.business.id, 1);
    const at = (s: number) => new Date(Date.now() + s * 1000).toISOString();
    const board = await createBoard([route!.id], { opens_at: at(1), closes_at: at(2), settles_at: at(3) });
    await untilStatus(board.id, 'settled');
    const events = await eventsOf(board.id, 2);
    assert.deepEqual(
      events.map((e) => e.data.action),
      ['board_opened', 'board_closed'],
    );
    const read = (await boardOf(board.id)).board;
    assert.equal(read.seats[0].status, 'unfilled');
    // The route left the board that ended: a new board may offer it.
    await createBoard([route!.id]);
  });

  test('bad input and phases answer 4xx and write nothing', async () => {
    const routes = await makeRoutes(app, w.b.business.id, 2);
    const create = (body: object) => app.http.post('/v1/route-boards', body, { token: w.admin });
    const base = { route_date: BOARD_DATE, route_ids: [routes[0]!.id], closes_at: inHours(1), settles_at: inHours(2) };
    assert.equal((await create({ ...base, settles_at: inHours(0.5) })).status, 422);
    assert.equal((await create({ ...base, closes_at: inHours(-1) })).status, 422);
    assert.equal((await create({ ...base, route_ids: [] })).status, 422);
    assert.equal((await create({ ...base, color: 'red' })).status, 422);
    assert.equal((await create({ ...base, route_ids: [2_000_000_000] })).body.errors?.[0]?.field, 'route_ids.0');
    assert.equal((await create({ ...base, route_date: '2026-12-11' })).body.code, 'ROUTE_NOT_OFFERABLE');
    assert.equal((await app.http.post('/v1/route-boards', base, { token: w.broker })).status, 403);
    const [{ n }] = (await app
      .em()
      .execute<{ n: number }[]>('select count(*)::int as n from route_board_seat where route_id = ?', [
        routes[0]!.id,
      ])) as [{ n: number }];
    assert.equal(n, 0);
    // Not open yet: claims wait; a route on a live board is not offered twice.
    const board = await createBoard([routes[1]!.id], { opens_at: inHours(0.5) });
    const early = await app.http.post(`/v1/route-boards/${board.id}/claims`, {}, { token: w.broker });
    assert.equal(early.body.code, 'BOARD_NOT_OPEN');
    assert.equal((await create({ ...base, route_ids: [routes[1]!.id] })).body.code, 'ROUTE_NOT_OFFERABLE');
    const seat = await app.http.post(`/v1/route-boards/${board.id}/claims`, { seat_id: 'one' }, { token: w.broker });
    assert.equal(seat.status, 422);
    assert.equal((await app.http.post(`/v1/route-boards/${board.id}/cancel`, {}, { token: w.admin })).status, 200);
  });

  test('a change retried after its commit (the activity run again) answers the same and writes nothing more', async () => {
    const [route] = await makeRoutes(app, w.b.business.id, 1);
    const board = await createBoard([route!.id]);
    await untilStatus(board.id, 'open');
    const change = { kind: 'claim' as const, contractorId: w.b.users.broker.id, seatId: board.seats[0]!.id };
    const first = await applyBoardChange(app.em().fork(), board.id, 'retried-update', change);
    const again = await applyBoardChange(app.em().fork(), board.id, 'retried-update', change);
    assert.ok(!('refused' in first));
    assert.deepEqual(again, first);
    const other = await applyBoardChange(app.em().fork(), board.id, 'another-update', change);
    assert.deepEqual(other, { refused: 'ALREADY_CLAIMED' });
    const [{ claims, events }] = (await app.em().execute<{ claims: number; events: number }[]>(
      `select (select count(*)::int from route_board_claim where board_id = ?) as claims,
                (select count(*)::int from outbox_event where reference_type = 'route_board' and reference_id = ?
                   and payload->'data'->>'action' = 'claimed') as events`,
      [board.id, String(board.id)],
    )) as [{ claims: number; events: number }];
    assert.deepEqual({ claims, events }, { claims: 1, events: 1 });
  });

  test("another business's staff and contractors find nothing", async () => {
    const [route] = await makeRoutes(app, w.b.business.id, 1);
    const board = await createBoard([route!.id]);
    await untilStatus(board.id, 'open');
    const other = await makeBusiness(app.em());
    const otherAdmin = await app.login(other.users.admin.email, PASSWORD);
    const otherBroker = await app.login(other.users.broker.email, PASSWORD);
    const seat = board.seats[0]!.id;
    const p = `/v1/route-boards/${board.id}`;
    assert.equal((await app.http.get(p, { token: otherAdmin })).status, 404);
    assert.equal((await app.http.get(p, { token: otherBroker })).status, 404);
    assert.equal((await app.http.post(`${p}/close`, {}, { token: otherAdmin })).status, 404);
    assert.equal((await app.http.post(`${p}/cancel`, {}, { token: otherAdmin })).status, 404);
    assert.equal((await app.http.post(`${p}/claims`, { seat_id: seat }, { token: otherBroker })).status, 404);
    const list = await app.http.get('/v1/route-boards', { token: otherAdmin });
    assert.equal(list.body.boards.length, 0);
    // Their own routes are theirs: another business's route is unknown here.
    const mine = await app.http.post(
      '/v1/route-boards',
      { route_date: BOARD_DATE, route_ids: [route!.id], closes_at: inHours(1), settles_at: inHours(2) },
      { token: otherAdmin },
    );
    assert.equal(mine.status, 422);
    // The employee reads, the contractors read; nobody else changed the board.
    assert.equal((await app.http.get(p, { token: w.employee })).status, 200);
    assert.equal((await app.http.post(`${p}/close`, {}, { token: w.employee })).status, 403);
    const listed = await app.http.get(`/v1/route-boards?route_date=${BOARD_DATE}&status=open`, { token: w.broker });
    assert.ok(listed.body.boards.some((x: { id: number }) => x.id === board.id));
    assert.equal((await boardOf(board.id)).board.claims.length, 0);
    assert.equal((await boardOf(board.id)).board.status, 'open');
  });
});
