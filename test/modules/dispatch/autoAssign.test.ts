/**
 * Auto-assign through the real HTTP API, the worker and a real webhook receiver (docs/routes.md): the process ranks
 * the active, on-duty drivers with the order's skills by distance (no position last), offers the order to the
 * nearest, who rejects; the next lets the offer time out; the third accepts. The events come in that sequence with
 * their previous_driver_id and reason; answers from the wrong driver or after the end are refused; a second process
 * of the order is refused while one runs; with no driver left the process ends exhausted.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { autoAssignQuery, autoAssignWorkflowId } from '../../../src/modules/dispatch/contract.ts';
import { MAX_OFFERS_DEFAULT } from '../../../src/modules/dispatch/domain.ts';
import { settleOffer } from '../../../src/modules/dispatch/offers.ts';
import type { autoAssignWorkflow } from '../../../src/modules/dispatch/workflows.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { waitFor } from '../../helpers/wait.ts';
import { dispatchWorld, type DispatchWorld, type Driver } from './world.ts';

describe('dispatch: auto-assign', () => {
  let app: TestApp;
  let w: DispatchWorld;

  before(async () => {
    app = await startApp();
    w = await dispatchWorld(app);
  });
  after(async () => {
    await w.receiver.close();
    await app.running.close();
  });

  const start = (orderId: number, body: Record<string, unknown> = {}) =>
    app.http.post('/v1/dispatch/auto-assign', { order_id: orderId, ...body }, { token: w.admin });
  const offersOf = async (d: Driver) => {
    const res = await app.http.get('/v1/driver/offers', { token: d.token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.offers as { offer_id: number; order: { id: number }; deadline: string }[];
  };
  const offeredTo = (d: Driver, orderId: number) =>
    waitFor(async () => (await offersOf(d)).find((o) => o.order.id === orderId), 30_000);
  const answer = (d: Driver, orderId: number, verb: 'accept' | 'reject', body: Record<string, unknown> = {}) =>
    app.http.post(`/v1/driver/offers/${orderId}/${verb}`, body, { token: d.token });
  const count = async (orderId: number) =>
    (
      await app
        .em()
        .execute<{ n: number }[]>('select count(*)::int as n from dispatch_offer where order_id = ?', [orderId])
    )[0]!.n;
  const result = (orderId: number) =>
    app.running.temporal.workflow.getHandle<typeof autoAssignWorkflow>(autoAssignWorkflowId(orderId)).result();
  /** The lifecycle events written for the order, in the order they were written. */
  const written = (orderId: number) =>
    app
      .em()
      .execute<{ event_type: string; payload: any }[]>(
        "select event_type, payload from outbox_event where reference_type = 'order' and reference_id = ? and event_type like 'order.%' and event_type <> 'order.created' order by id",
        [String(orderId)],
      );

  test('reject, then timeout, then accept: offers go nearest first and every step sends its event', async () => {
    const at = { lat: 48.8566, lng: 2.3522 };
    const near = await w.driver({ skills: ['refrigerated'], position: { lat: 48.857, lng: 2.353 } });
    const mid = await w.driver({ skills: ['refrigerated', 'adr'], position: { lat: 48.9, lng: 2.4 } });
    const noPosition = await w.driver({ skills: ['refrigerated'] });
    // Nearer than all, but off duty, without the skill, or not active: never offered.
    const offDuty = await w.driver({ skills: ['refrigerated'], onDuty: false, position: at });
    const unskilled = await w.driver({ position: at });
    const suspended = await w.driver({ skills: ['refrigerated'], status: 'suspended', position: at });
    const o = await w.order({ at, skills: ['refrigerated'] });

    const started = await start(o.id, { offer_timeout_seconds: 15 });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    assert.equal(started.body.workflow_id, `auto-assign-${o.id}`);
    const again = await start(o.id);
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'AUTO_ASSIGN_RUNNING');

    await offeredTo(near, o.id);
    // During the offer the order is on the offered driver's route, and the snapshot shows the open process.
    assert.equal((await w.orderRow(o.id)).driver_id, near.id);
    const snapshot = await app.http.get(`/v1/orders/${o.id}/snapshot`, { token: w.admin });
    assert.equal(snapshot.status, 200, JSON.stringify(snapshot.body));
    assert.ok(
      snapshot.body.processes.some(
        (p: { type: string; workflow_id: string }) =>
          p.type === 'auto-assign' && p.workflow_id === `auto-assign-${o.id}`,
      ),
      JSON.stringify(snapshot.body.processes),
    );
    const wrong = await answer(mid, o.id, 'accept');
    assert.equal(wrong.status, 409);
    assert.equal(wrong.body.code, 'OFFER_NOT_YOURS');
    const manual = await app.http.post(
      '/v1/dispatch/assign',
      { order_id: o.id, driver_id: mid.id },
      { token: w.admin },
    );
    assert.equal(manual.body.code, 'AUTO_ASSIGN_RUNNING');
    const rejected = await answer(near, o.id, 'reject', { reason: 'flat tyre' });
    assert.equal(rejected.status, 200, JSON.stringify(rejected.body));
    assert.equal(rejected.body.offer.status, 'rejected');

    // mid lets its offer run out.
    await offeredTo(mid, o.id);
    assert.deepEqual(await offersOf(near), []);
    // Then the driver without a position, who accepts.
    await offeredTo(noPosition, o.id);
    const accepted = await answer(noPosition, o.id, 'accept');
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assert.equal(accepted.body.offer.status, 'accepted');
    assert.equal(await result(o.id), 'accepted');
    const row = await w.orderRow(o.id);
    assert.equal(row.driver_id, noPosition.id);
    assert.notEqual(row.route_id, null);
    for (const d of [offDuty, unskilled, suspended]) assert.deepEqual(await offersOf(d), []);

    // After the end: mid's late answer, and the accepted driver's second one, find no open offer.
    const late = await answer(mid, o.id, 'accept');
    assert.equal(late.status, 409);
    assert.equal(late.body.code, 'OFFER_EXPIRED');
    assert.equal((await answer(noPosition, o.id, 'accept')).body.code, 'OFFER_EXPIRED');
    assert.equal((await start(o.id)).body.code, 'ORDER_HAS_DRIVER');

    const expected = [
      ['order.assigned', near.id, 'auto_assign'],
      ['order.rejected', near.id, 'flat tyre'],
      ['order.unassigned', near.id, 'reject'],
      ['order.assigned', mid.id, 'auto_assign'],
      ['order.unassigned', mid.id, 'timeout'],
      ['order.assigned', noPosition.id, 'auto_assign'],
      ['order.accepted', noPosition.id, undefined],
    ];
    const events = await written(o.id);
    assert.deepEqual(
      events.map((e) => [
        e.event_type,
        e.payload.data.driver_id ?? e.payload.data.previous_driver_id,
        e.payload.data.source ?? e.payload.data.reason,
      ]),
      expected,
    );
    // Each arrived, valid against its schema.
    for (const [name, driverId] of expected)
      await w.eventAt(
        '/lifecycle',
        name as string,
        o.id,
        (e) => (e.data.driver_id ?? e.data.previous_driver_id) === driverId,
      );
    const ops = (await w.trail(o.id))
      .map((t) => t.operation_type)
      .filter((t) => [3081, 3082, 3085, 4001, 4002].includes(t));
    assert.deepEqual(ops, [3085, 4002, 3082, 3085, 3082, 3085, 4001]);
  });

  test('two auto-assign requests for one order at once: one process starts, the other is refused', async () => {
    const d = await w.driver({ skills: ['race'], position: { lat: 30, lng: 30 } });
    const o = await w.order({ at: { lat: 30, lng: 30 }, skills: ['race'] });
    const both = await Promise.all([start(o.id), start(o.id)]);
    assert.deepEqual(both.map((r) => r.status).sort(), [202, 409]);
    assert.equal(both.find((r) => r.status === 409)!.body.code, 'AUTO_ASSIGN_RUNNING');
    await offeredTo(d, o.id);
    assert.equal((await answer(d, o.id, 'accept')).status, 200);
    assert.equal(await count(o.id), 1);
  });

  test('with no driver left the process ends exhausted and the order waits for dispatch', async () => {
    const only = await w.driver({ skills: ['two_person'], position: { lat: 10, lng: 10 } });
    const o = await w.order({ at: { lat: 10.01, lng: 10.01 }, skills: ['two_person'] });
    assert.equal((await start(o.id, { max_offers: 1 })).status, 202);
    await offeredTo(only, o.id);
    assert.equal((await answer(only, o.id, 'reject')).status, 200);
    assert.equal(await result(o.id), 'exhausted');
    assert.deepEqual(await w.orderRow(o.id), { status_id: 1, driver_id: null, route_id: null });
    const rejected = await w.eventAt('/lifecycle', 'order.rejected', o.id);
    assert.equal(rejected.data.reason, null);
  });

  test('cancelling the order ends its auto-assign process and takes the order off the route', async () => {
    const d = await w.driver({ skills: ['cancel-test'], position: { lat: 20, lng: 20 } });
    const o = await w.order({ at: { lat: 20, lng: 20 }, skills: ['cancel-test'] });
    assert.equal((await start(o.id)).status, 202);
    await offeredTo(d, o.id);
    assert.equal((await app.http.post(`/v1/orders/${o.id}/cancel`, {}, { token: w.admin })).status, 200);
    assert.equal(await result(o.id), 'cancelled');
    assert.deepEqual(await w.orderRow(o.id), { status_id: 5, driver_id: null, route_id: null });
    assert.deepEqual(await offersOf(d), []);
    assert.equal((await answer(d, o.id, 'accept')).body.code, 'OFFER_EXPIRED');
    // An accept that reaches settleOffer after the cancellation withdrew the offer: withdrawn, nothing written.
    const [offer] = await app
      .em()
      .execute<{ id: number; status: string }[]>('select id, status from dispatch_offer where order_id = ?', [o.id]);
    assert.equal(offer!.status, 'withdrawn');
    assert.equal(await app.em().transactional((tx) => settleOffer(tx, offer!.id, 'accepted', null)), 'withdrawn');
    assert.equal((await written(o.id)).filter((e) => e.event_type === 'order.accepted').length, 0);
  });

  test('a driver suspended during its offer cannot accept it: the offer times out; 20 offers at most by default', async () => {
    const d = await w.driver({ skills: ['suspend-test'], position: { lat: 40, lng: 40 } });
    const o = await w.order({ at: { lat: 40, lng: 40 }, skills: ['suspend-test'] });
    assert.equal((await start(o.id)).status, 202);
    const offer = await offeredTo(d, o.id);
    const handle = app.running.temporal.workflow.getHandle<typeof autoAssignWorkflow>(autoAssignWorkflowId(o.id));
    assert.equal((await handle.query(autoAssignQuery)).maxOffers, MAX_OFFERS_DEFAULT);
    assert.equal(MAX_OFFERS_DEFAULT, 20);
    await app.em().execute("update driver_profile set status = 'suspended' where user_id = ?", [d.id]);
    const accepted = await answer(d, o.id, 'accept');
    assert.deepEqual([accepted.status, accepted.body.code], [409, 'OFFER_EXPIRED'], JSON.stringify(accepted.body));
    assert.equal(await result(o.id), 'exhausted');
    const [row] = await app
      .em()
      .execute<{ status: string }[]>('select status from dispatch_offer where id = ?', [offer.offer_id]);
    assert.equal(row!.status, 'timed_out');
    assert.deepEqual(await w.orderRow(o.id), { status_id: 1, driver_id: null, route_id: null });
    const events = (await written(o.id)).map((e) => [e.event_type, e.payload.data.reason ?? null]);
    assert.deepEqual(events, [
      ['order.assigned', null],
      ['order.unassigned', 'timeout'],
    ]);
    // An accept settled after the offer timed out answers the offer's status, and writes nothing.
    const settled = await app.em().transactional((tx) => settleOffer(tx, offer.offer_id, 'accepted', null));
    assert.equal(settled, 'timed_out');
    assert.equal((await w.trail(o.id)).filter((t) => t.operation_type === 4001).length, 0);
  });

  test("another business's order is not found, and an order not waiting for dispatch is refused", async () => {
    const other = await dispatchWorld(app);
    try {
      const theirs = await other.order();
      assert.equal((await start(theirs.id)).status, 404);
      const d = await w.driver();
      assert.equal((await answer(d, theirs.id, 'accept')).status, 404);
      const held = await w.order({ statusId: 8 });
      assert.equal((await start(held.id)).body.code, 'ORDER_NOT_DISPATCHABLE');
      assert.equal((await start(held.id, { offer_timeout_seconds: 5 })).status, 422);
    } finally {
      await other.receiver.close();
    }
  });
});
