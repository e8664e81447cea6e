/**
 * Dispatch through the real HTTP API, the worker and a real webhook receiver (docs/routes.md, "Dispatch and the
 * driver's day"): manual assignment and unassignment with their events and trail; the driver's reports through a
 * whole delivery (status changes, trail, OTEP timeline, lifecycle and tracking events); failed attempts by reason;
 * late, repeated and backward reports answered applied: false; another business's order or driver 404; the
 * business's order_lifecycle_events restriction; a cancelled order leaves its route. Every payload is checked
 * against its declared schema.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { reportUpdate, routeDayWorkflowId, type DriverReport } from '../../../src/modules/dispatch/contract.ts';
import { applyReport } from '../../../src/modules/dispatch/report.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { waitFor } from '../../helpers/wait.ts';
import { dispatchWorld, type DispatchWorld, type Driver } from './world.ts';

const lateReport = { step: 'completed', failureReason: null, lat: null, lng: null } as const;

/** A 1x1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('dispatch: manual assignment and the driver day', () => {
  let app: TestApp;
  let w: DispatchWorld;
  let other: DispatchWorld;
  let d1: Driver;
  let d2: Driver;

  before(async () => {
    app = await startApp();
    w = await dispatchWorld(app);
    other = await dispatchWorld(app);
    d1 = await w.driver();
    d2 = await w.driver();
  });
  after(async () => {
    await w.receiver.close();
    await other.receiver.close();
    await app.running.close();
  });

  const assign = (orderId: number, driverId: number, token = w.admin) =>
    app.http.post('/v1/dispatch/assign', { order_id: orderId, driver_id: driverId }, { token });
  const report = (orderId: number, driver: Driver, body: Record<string, unknown>) =>
    app.http.post(`/v1/driver/orders/${orderId}/report`, body, { token: driver.token });

  test('manual assignment puts the order on the driver route; a handover and an unassignment send their events', async () => {
    const o = await w.order();
    const first = await assign(o.id, d1.id);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.assignment.driver_id, d1.id);
    assert.equal(first.body.assignment.changed, true);
    const routeId = first.body.assignment.route_id;
    assert.deepEqual(await w.orderRow(o.id), { status_id: 1, driver_id: d1.id, route_id: routeId });
    const assigned = await w.eventAt('/lifecycle', 'order.assigned', o.id);
    assert.equal(assigned.data.driver_id, d1.id);
    assert.equal(assigned.data.source, 'manual');
    assert.match(assigned.event_id, /^OLC-D\d+\.assigned$/);

    // The same driver again changes nothing.
    const again = await assign(o.id, d1.id);
    assert.equal(again.status, 200);
    assert.equal(again.body.assignment.changed, false);

    const handover = await assign(o.id, d2.id);
    assert.equal(handover.status, 200, JSON.stringify(handover.body));
    assert.notEqual(handover.body.assignment.route_id, routeId);
    const unassigned = await w.eventAt('/lifecycle', 'order.unassigned', o.id);
    assert.equal(unassigned.data.previous_driver_id, d1.id);
    assert.equal(unassigned.data.reason, 'handover');
    await w.eventAt('/lifecycle', 'order.assigned', o.id, (e) => e.data.driver_id === d2.id);
    // The first route had only this order: it is cancelled.
    const [r] = await app.em().execute<{ status: string }[]>('select status from route where id = ?', [routeId]);
    assert.equal(r!.status, 'cancelled');

    const off = await app.http.post('/v1/dispatch/unassign', { order_id: o.id }, { token: w.admin });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.deepEqual(await w.orderRow(o.id), { status_id: 1, driver_id: null, route_id: null });
    const revoked = await w.eventAt('/lifecycle', 'order.unassigned', o.id, (e) => e.data.reason === 'revoke');
    assert.equal(revoked.data.previous_driver_id, d2.id);
    assert.deepEqual(
      (await w.trail(o.id)).map((t) => t.operation_type).filter((t) => t >= 3081 && t <= 3085),
      [3083, 3081, 3084, 3082, 3083, 3081, 3084, 3082],
    );
    const none = await app.http.post('/v1/dispatch/unassign', { order_id: o.id }, { token: w.admin });
    assert.equal(none.status, 409);
    assert.equal(none.body.code, 'ORDER_NOT_ASSIGNED');
  });

  test('assignment refuses an order not waiting for dispatch, an inactive driver, and the wrong callers', async () => {
    const held = await w.order({ statusId: 8 });
    const refused = await assign(held.id, d1.id);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'ORDER_NOT_DISPATCHABLE');
    const o = await w.order();
    const suspended = await w.driver({ status: 'suspended' });
    const inactive = await assign(o.id, suspended.id);
    assert.equal(inactive.status, 409);
    assert.equal(inactive.body.code, 'DRIVER_NOT_ACTIVE');
    // Another business's driver, and another business's order: not found.
    const stranger = await other.driver();
    assert.equal((await assign(o.id, stranger.id)).status, 404);
    const theirs = await other.order();
    assert.equal((await assign(theirs.id, d1.id)).status, 404);
    assert.equal((await assign(o.id, d1.id, d1.token)).status, 403);
    assert.deepEqual(await w.orderRow(o.id), { status_id: 1, driver_id: null, route_id: null });
  });

  test('the driver reports a whole delivery: statuses, trail, OTEP timeline, lifecycle and tracking events', async () => {
    const o = await w.order();
    assert.equal((await assign(o.id, d1.id)).status, 200);
    const [stop] = await app
      .em()
      .execute<{ id: number; route_id: number }[]>('select id, route_id from route_stop where order_id = ?', [o.id]);
    const steps = [
      ['pickup_started', 6, 4011, 'otep:parcel:pickup_started'],
      ['picked_up', 7, 4012, 'otep:core:picked_up'],
      ['on_the_way', 2, 4013, 'otep:core:out_for_delivery'],
      ['completed', 3, 4014, 'otep:core:delivered'],
    ] as const;
    for (const [step, status] of steps) {
      if (step === 'completed') {
        // The driver's photo of the delivery, uploaded before the step: the step's tracking.event carries it.
        const upload = await fetch(`${app.url}/api/v1/driver/orders/${o.id}/pod-files?type=photo&service_type=1`, {
          method: 'POST',
          headers: { authorization: `Bearer ${d1.token}`, 'content-type': 'image/png' },
          body: Buffer.from(PNG, 'base64'),
        });
        assert.equal(upload.status, 201, await upload.text());
      }
      const res = await report(o.id, d1, { step, lat: 48.85, lng: 2.35 });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.applied, true, `${step}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.order.status_id, status);
      assert.equal((await w.orderRow(o.id)).status_id, status);
    }
    const trail = (await w.trail(o.id)).filter((t) => t.operation_type >= 4011 && t.operation_type <= 4016);
    assert.deepEqual(
      trail.map((t) => [t.operation_type, t.before_status, t.after_status]),
      [
        [4011, 1, 6],
        [4012, 6, 7],
        [4013, 7, 2],
        [4014, 2, 3],
      ],
    );
    assert.equal(trail[0]!.details.stop_id, stop!.id);
    const [route] = await app
      .em()
      .execute<{ status: string }[]>('select status from route where id = ?', [stop!.route_id]);
    assert.equal(route!.status, 'completed');
    const [stopAfter] = await app
      .em()
      .execute<{ status: string }[]>('select status from route_stop where id = ?', [stop!.id]);
    assert.equal(stopAfter!.status, 'done');

    for (const [step, status, operation] of steps) {
      const event = await w.eventAt('/lifecycle', `order.${step === 'completed' ? 'completed' : step}`, o.id);
      assert.equal(event.event_id, `OLC-${stop!.id}.${step}`);
      assert.equal(event.data.driver_id, d1.id);
      assert.equal(event.data.order.status_id, status);
      await w.eventAt('/status', 'order.status_change', o.id, (e) => e.data.operation_type === operation);
    }
    const delivered = await w.eventAt(
      '/tracking',
      'tracking.event',
      o.id,
      (e) => e.data.tracking_event.status_id === 3,
    );
    assert.equal(delivered.data.tracking_event.key, 'otep:core:delivered');
    assert.equal(delivered.data.proof_files.length, 1);
    assert.equal(delivered.data.proof_files[0].type, 'photo');
    assert.match(delivered.data.proof_files[0].full_url, /^https?:/);
    assert.deepEqual(
      [
        delivered.data.proof_files_detail[0].tracking_event_id,
        delivered.data.proof_files_detail[0].service_type,
        delivered.data.proof_files_detail[0].service_status,
      ],
      [delivered.data.tracking_event.id, 1, 1],
    );
    await w.eventAt('/tracking', 'tracking.event', o.id, (e) => e.data.tracking_event.status_id === 7);

    const timeline = await app.http.get(`/v1/otep/client/trackings/${o.trackingNumber}`, { token: w.admin });
    assert.equal(timeline.status, 200, JSON.stringify(timeline.body));
    const codes = (timeline.body.events as { status_code: string }[]).map((e) => e.status_code);
    assert.deepEqual(
      codes.slice(-4),
      steps.map((s) => s[3]),
    );
    assert.equal(timeline.body.current.status_code, 'otep:core:delivered');

    // A late report for the finished stop changes nothing.
    const late = await report(o.id, d1, { step: 'on_the_way' });
    assert.equal(late.status, 200);
    assert.equal(late.body.applied, false);
    assert.equal(late.body.reason, 'repeated');
    assert.ok(late.body.message);
    const ready = await report(o.id, d1, { step: 'ready' });
    assert.deepEqual([ready.body.applied, ready.body.reason], [false, 'backwards']);
    const failedLate = await report(o.id, d1, { step: 'failed', failure_reason: 'redispatch_later' });
    assert.equal(failedLate.body.applied, false);
    assert.equal(failedLate.body.reason, 'stop_finished');
    assert.equal((await w.orderRow(o.id)).status_id, 3);
    assert.equal((await w.trail(o.id)).filter((t) => t.operation_type >= 4011 && t.operation_type <= 4016).length, 4);
  });

  test('a failed attempt leaves the status its reason says', async () => {
    const cases = [
      ['redispatch_later', 13],
      ['needs_rescheduling', 12],
      ['refused_by_recipient', 14],
      [null, 4],
    ] as const;
    for (const [reason, status] of cases) {
      const o = await w.order();
      assert.equal((await assign(o.id, d2.id)).status, 200);
      assert.equal((await report(o.id, d2, { step: 'on_the_way' })).body.applied, true);
      const res = await report(o.id, d2, { step: 'failed', ...(reason ? { failure_reason: reason } : {}) });
      assert.equal(res.body.applied, true, JSON.stringify(res.body));
      assert.equal(res.body.order.status_id, status);
      const failed = await w.eventAt('/lifecycle', 'order.failed', o.id);
      assert.equal(failed.data.failure_reason, reason);
      const tracking = await w.eventAt(
        '/tracking',
        'tracking.event',
        o.id,
        (e) => e.data.tracking_event.status_id === status,
      );
      assert.ok(Array.isArray(tracking.data.proof_files));
      const [stop] = await app
        .em()
        .execute<{ status: string }[]>('select status from route_stop where order_id = ?', [o.id]);
      assert.equal(stop!.status, 'failed');
    }
    // An order to redispatch later waits for dispatch again: it goes to another driver, its failed stop stays.
    const again = await w.order();
    assert.equal((await assign(again.id, d2.id)).status, 200);
    assert.equal(
      (await report(again.id, d2, { step: 'failed', failure_reason: 'redispatch_later' })).body.applied,
      true,
    );
    const moved = await assign(again.id, d1.id);
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const handover = await w.eventAt('/lifecycle', 'order.unassigned', again.id);
    assert.deepEqual([handover.data.previous_driver_id, handover.data.reason], [d2.id, 'handover']);
    const kept = await app
      .em()
      .execute<{ status: string; route_id: number }[]>(
        'select status, route_id from route_stop where order_id = ? order by id',
        [again.id],
      );
    assert.deepEqual(
      kept.map((k) => k.status),
      ['failed', 'pending'],
    );
    assert.equal(kept[1]!.route_id, moved.body.assignment.route_id);
    // The new driver delivers it.
    assert.equal((await report(again.id, d1, { step: 'completed' })).body.applied, true);
    // failure_reason belongs to failed only.
    const o = await w.order();
    assert.equal((await assign(o.id, d2.id)).status, 200);
    const wrong = await report(o.id, d2, { step: 'completed', failure_reason: 'redispatch_later' });
    assert.equal(wrong.status, 422);
    // The message says the rule (it once read "Must be one of: {values}.", its placeholder never filled).
    assert.deepEqual(wrong.body.errors, [
      { field: 'failure_reason', message: 'A failure reason goes with the step failed only.' },
    ]);
  });

  test('repeated and backward reports change nothing; other drivers and businesses get 404', async () => {
    const o = await w.order({ type: 'P2P' });
    assert.equal((await assign(o.id, d1.id)).status, 200);
    const stops = await app
      .em()
      .execute<{ id: number; kind: string }[]>('select id, kind from route_stop where order_id = ? order by seq', [
        o.id,
      ]);
    assert.deepEqual(
      stops.map((s) => s.kind),
      ['pickup', 'delivery'],
    );
    assert.equal((await report(o.id, d1, { step: 'picked_up' })).body.applied, true);
    const [pickup] = await app
      .em()
      .execute<{ status: string }[]>('select status from route_stop where id = ?', [stops[0]!.id]);
    assert.equal(pickup!.status, 'done');
    const back = await report(o.id, d1, { step: 'pickup_started' });
    assert.deepEqual([back.body.applied, back.body.reason, back.body.order.status_id], [false, 'backwards', 7]);
    const repeated = await report(o.id, d1, { step: 'picked_up' });
    assert.deepEqual([repeated.body.applied, repeated.body.reason], [false, 'repeated']);
    assert.equal((await report(o.id, d1, { step: 'on_the_way' })).body.applied, true);
    assert.equal((await w.trail(o.id)).filter((t) => t.operation_type >= 4011 && t.operation_type <= 4016).length, 2);
    // The order is on d1's route: d2, and another business's driver, do not find it.
    assert.equal((await report(o.id, d2, { step: 'completed' })).status, 404);
    const stranger = await other.driver();
    assert.equal((await report(o.id, stranger, { step: 'completed' })).status, 404);
    assert.equal((await w.orderRow(o.id)).status_id, 2);
    // A report from the future is refused.
    const future = await report(o.id, d1, {
      step: 'completed',
      occurred_at: new Date(Date.now() + 3600_000).toISOString(),
    });
    assert.equal(future.status, 422);
  });

  test('reports of the same step at once: the route process judges them one after the other', async () => {
    const o = await w.order();
    assert.equal((await assign(o.id, d1.id)).status, 200);
    // The process has started (so the others reach it at once, not through its start).
    assert.equal((await report(o.id, d1, { step: 'ready' })).body.applied, true);
    const all = await Promise.all(Array.from({ length: 5 }, () => report(o.id, d1, { step: 'completed' })));
    assert.deepEqual(
      all.map((r) => r.status),
      [200, 200, 200, 200, 200],
    );
    // One applied; each other was judged after it (repeated), none answered applied by the retry path.
    assert.deepEqual(all.map((r) => (r.body.applied ? 'applied' : r.body.reason)).sort(), [
      'applied',
      'repeated',
      'repeated',
      'repeated',
      'repeated',
    ]);
    assert.equal((await w.trail(o.id)).filter((t) => t.operation_type === 4014).length, 1);
    const rows = await app
      .em()
      .execute<{ report_id: string }[]>(
        "select report_id from dispatch_report where order_id = ? and step = 'completed'",
        [o.id],
      );
    assert.equal(rows.length, 1);
    assert.ok(rows[0]!.report_id);
  });

  test('a retried applyReport is applied; another report of the same step is repeated', async () => {
    const o = await w.order();
    const routeId = (await assign(o.id, d1.id)).body.assignment.route_id as number;
    const step: DriverReport = {
      orderId: o.id,
      driverId: d1.id,
      step: 'on_the_way',
      failureReason: null,
      occurredAt: new Date().toISOString(),
      lat: null,
      lng: null,
    };
    const apply = (reportId: string) =>
      app.em().transactional((tx) => applyReport(tx, w.b.business.id, routeId, step, reportId, app.config));
    assert.deepEqual(await apply('run-a/1'), { applied: true, statusId: 2, routeStatus: 'in_progress' });
    assert.deepEqual(await apply('run-a/1'), { applied: true, statusId: 2, routeStatus: 'in_progress' });
    assert.deepEqual(await apply('run-a/2'), { applied: false, reason: 'repeated', statusId: 2 });
    assert.equal((await w.trail(o.id)).filter((t) => t.operation_type === 4013).length, 1);
  });

  test('a second attempt on the same route gets stops of its own', async () => {
    const o = await w.order();
    const routeId = (await assign(o.id, d2.id)).body.assignment.route_id as number;
    assert.equal((await report(o.id, d2, { step: 'failed', failure_reason: 'redispatch_later' })).body.applied, true);
    // The same driver again: the order goes on the same route with a new stop (its failed one is history).
    const again = await assign(o.id, d2.id);
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.assignment.changed, true);
    assert.equal(again.body.assignment.route_id, routeId);
    const stops = () =>
      app
        .em()
        .execute<{ status: string; released: boolean }[]>(
          'select status, released_at is not null as released from route_stop where order_id = ? order by id',
          [o.id],
        );
    assert.deepEqual(await stops(), [
      { status: 'failed', released: true },
      { status: 'pending', released: false },
    ]);
    // The new stop is judged on its own: the driver can take the order out again and deliver it.
    const out = await report(o.id, d2, { step: 'on_the_way' });
    assert.deepEqual([out.body.applied, out.body.order.status_id], [true, 2], JSON.stringify(out.body));
    assert.equal((await report(o.id, d2, { step: 'completed' })).body.applied, true);
    assert.deepEqual(
      (await stops()).map((st) => st.status),
      ['failed', 'done'],
    );

    // A second attempt not started yet can be taken back, and a cancelled one leaves the route.
    const c = await w.order();
    assert.equal((await assign(c.id, d2.id)).status, 200);
    assert.equal((await report(c.id, d2, { step: 'failed', failure_reason: 'needs_rescheduling' })).body.applied, true);
    assert.equal((await assign(c.id, d2.id)).body.assignment.changed, true);
    const off = await app.http.post('/v1/dispatch/unassign', { order_id: c.id }, { token: w.admin });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.equal((await assign(c.id, d2.id)).body.assignment.changed, true);
    assert.equal((await app.http.post(`/v1/orders/${c.id}/cancel`, {}, { token: w.admin })).status, 200);
    await waitFor(async () => (await w.orderRow(c.id)).route_id === null);
    const left = await app
      .em()
      .execute<{ status: string }[]>('select status from route_stop where order_id = ? order by id', [c.id]);
    assert.deepEqual(
      left.map((st) => st.status),
      ['failed'],
    );
  });

  test('unassignment refuses an order under way, finished, or with a step reported', async () => {
    const unassign = (orderId: number) =>
      app.http.post('/v1/dispatch/unassign', { order_id: orderId }, { token: w.admin });
    const cases = [
      [['pickup_started'], 'ORDER_NOT_DISPATCHABLE'],
      [['on_the_way'], 'ORDER_NOT_DISPATCHABLE'],
      [['completed'], 'ORDER_NOT_DISPATCHABLE'],
      [['failed'], 'ORDER_NOT_DISPATCHABLE'],
      [['ready'], 'ORDER_STOP_STARTED'],
    ] as const;
    for (const [steps, code] of cases) {
      const o = await w.order();
      assert.equal((await assign(o.id, d1.id)).status, 200);
      for (const step of steps) assert.equal((await report(o.id, d1, { step })).body.applied, true);
      const before = await w.orderRow(o.id);
      const refused = await unassign(o.id);
      assert.deepEqual(
        [refused.status, refused.body.code],
        [409, code],
        `${steps.join()}: ${JSON.stringify(refused.body)}`,
      );
      assert.deepEqual(await w.orderRow(o.id), before);
      const reports = await app.em().execute('select id from dispatch_report where order_id = ?', [o.id]);
      assert.equal(reports.length, steps.length);
      assert.equal((await w.lifecycle(o.id)).filter((e) => e.event === 'order.unassigned').length, 0);
      // Nor can it be handed over.
      assert.equal((await assign(o.id, d2.id)).status, 409);
    }
  });

  test('a P2P order waits for its pickup; failed at the pickup, its delivery stop is skipped', async () => {
    const o = await w.order({ type: 'P2P' });
    const routeId = (await assign(o.id, d1.id)).body.assignment.route_id as number;
    for (const step of ['on_the_way', 'completed']) {
      const early = await report(o.id, d1, { step });
      assert.deepEqual([early.status, early.body.applied, early.body.reason], [200, false, 'pickup_pending']);
      assert.ok(early.body.message);
    }
    assert.equal((await w.orderRow(o.id)).status_id, 1);
    // The driver's photo at the pickup place, then the pickup fails.
    const upload = await fetch(`${app.url}/api/v1/driver/orders/${o.id}/pod-files?type=photo&service_type=2`, {
      method: 'POST',
      headers: { authorization: `Bearer ${d1.token}`, 'content-type': 'image/png' },
      body: Buffer.from(PNG, 'base64'),
    });
    assert.equal(upload.status, 201, await upload.text());
    const failed = await report(o.id, d1, { step: 'failed', failure_reason: 'redispatch_later' });
    assert.equal(failed.body.applied, true, JSON.stringify(failed.body));
    const stops = await app
      .em()
      .execute<{ kind: string; status: string }[]>(
        'select kind, status from route_stop where order_id = ? order by seq',
        [o.id],
      );
    assert.deepEqual(
      stops.map((st) => [st.kind, st.status]),
      [
        ['pickup', 'failed'],
        ['delivery', 'skipped'],
      ],
    );
    // Nothing of it is left pending on the route.
    const pending = await app
      .em()
      .execute("select id from route_stop where route_id = ? and order_id = ? and status = 'pending'", [routeId, o.id]);
    assert.equal(pending.length, 0);
    const tracking = await w.eventAt(
      '/tracking',
      'tracking.event',
      o.id,
      (e) => e.data.tracking_event.status_id === 13,
    );
    assert.equal(tracking.data.proof_files.length, 1);
    assert.deepEqual(
      [tracking.data.proof_files_detail[0].service_type, tracking.data.proof_files_detail[0].service_status],
      [2, 2],
    );
    // It waits for dispatch again: it can go to another driver.
    assert.equal((await assign(o.id, d2.id)).status, 200);
  });

  test("a report is judged against the route's driver now, not the one its process started with", async () => {
    const o = await w.order();
    const routeId = (await assign(o.id, d1.id)).body.assignment.route_id as number;
    // d1's first report starts the route's process.
    assert.equal((await report(o.id, d1, { step: 'ready' })).body.applied, true);
    // The route passes to d2 with its orders (as the route board's assignment does).
    const d3 = await w.driver();
    await app.em().transactional(async (tx) => {
      await tx.execute('update route set driver_id = ? where id = ?', [d3.id, routeId]);
      await tx.execute('update delivery_order set driver_id = ? where route_id = ? and driver_id = ?', [
        d3.id,
        routeId,
        d1.id,
      ]);
    });
    const taken = await report(o.id, d3, { step: 'on_the_way' });
    assert.equal(taken.status, 200, JSON.stringify(taken.body));
    assert.equal(taken.body.applied, true);
    // d1's report, sent to the process before the route moved, finds the order no longer on its route.
    const late = await app.running.temporal.workflow
      .getHandle(routeDayWorkflowId(routeId))
      .executeUpdate(reportUpdate, {
        args: [{ ...lateReport, orderId: o.id, driverId: d1.id, occurredAt: new Date().toISOString() }],
      });
    assert.deepEqual(late, { applied: false, reason: 'not_on_route', statusId: null });
    assert.equal((await report(o.id, d1, { step: 'completed' })).status, 404);
  });

  test('a cancelled order leaves its route and order.cancelled reaches the lifecycle receiver', async () => {
    const o = await w.order();
    assert.equal((await assign(o.id, d1.id)).status, 200);
    const cancel = await app.http.post(`/v1/orders/${o.id}/cancel`, {}, { token: w.admin });
    assert.equal(cancel.status, 200, JSON.stringify(cancel.body));
    await waitFor(async () => (await w.orderRow(o.id)).route_id === null);
    assert.deepEqual(await w.orderRow(o.id), { status_id: 5, driver_id: null, route_id: null });
    const cancelled = await w.eventAt('/lifecycle', 'order.cancelled', o.id);
    assert.equal(cancelled.data.order.status_id, 5);
    const stops = await app.em().execute('select id from route_stop where order_id = ?', [o.id]);
    assert.equal(stops.length, 0);
  });

  test("the business's order_lifecycle_events restriction holds back the events it leaves out", async () => {
    const r = await dispatchWorld(app, { lifecycleEvents: 'order.completed' });
    try {
      const driver = await r.driver();
      const o = await r.order();
      assert.equal((await assign(o.id, driver.id, r.admin)).status, 200);
      for (const step of ['on_the_way', 'completed'])
        assert.equal((await report(o.id, driver, { step })).body.applied, true);
      await r.eventAt('/lifecycle', 'order.completed', o.id);
      // order.status_change of the completion is written in the same transaction as the lifecycle events held back.
      await r.eventAt('/status', 'order.status_change', o.id, (e) => e.data.operation_type === 4014);
      assert.deepEqual(
        r.lifecycle(o.id).map((e) => e.event),
        ['order.completed'],
      );
    } finally {
      await r.receiver.close();
    }
  });
});
