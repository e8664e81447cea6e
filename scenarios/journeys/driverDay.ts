/**
 * A driver's day (docs/routes.md): six orders of today around the Prague depot (one P2P with a pickup place, one
 * needing a refrigerated van) are planned onto two drivers' routes; a seventh is auto-assigned: the first driver
 * rejects it, the second lets the offer time out, and offered again the first accepts. The driver with the P2P order
 * works it (pickup started and picked up at the sender's, on the way, a photo, completed: the delivery's
 * tracking.event carries the proof file), the other fails a stop (needs rescheduling), and the rest of the day is
 * re-optimised: the finished stops stay first.
 * Every lifecycle, status and tracking event comes to the scenario's receiver.
 */
import { ScenarioError } from '../api.ts';
import type { World } from '../world.ts';
import {
  buildRoutes,
  dayOrder,
  dayWebhooks,
  near,
  offeredTo,
  readyDriver,
  report,
  routeOf,
  stopsLine,
  today,
  uploadPhoto,
  type DayOrder,
  type Route,
} from './driverDaySteps.ts';

/** How long an auto-assign offer waits for the driver's answer (the least the service allows). */
const OFFER_SECONDS = 15;

export async function driverDay(w: World): Promise<void> {
  const [first, second] = w.accounts.drivers ?? [];
  if (!first || !second) throw new ScenarioError("the driver's day needs two driver accounts");
  const admin = await w.token('admin');
  await dayWebhooks(w);
  const a = await readyDriver(w, first, { skills: ['refrigerated'], at: near(0.3, 0.2) });
  const b = await readyDriver(w, second, { skills: [], at: near(-2.5, -1) });
  const orderEvent = (event: string, o: DayOrder, also: (data: any) => boolean = () => true) =>
    w.webhook(event, o.trackingNumber, { also: (body) => body.data?.order?.id === o.id && also(body.data) });

  // The morning's plan.
  const orders = [
    await dayOrder(w, 'A', { at: near(1.2, 0.5) }),
    await dayOrder(w, 'B', { at: near(2, -0.8) }),
    await dayOrder(w, 'C', { at: near(-1.5, 1) }),
    await dayOrder(w, 'D', { at: near(-2.8, -0.4) }),
    await dayOrder(w, 'P2P', { type: 'P2P', at: near(0.6, 2), pickupAt: near(-0.4, 1.1) }),
    await dayOrder(w, 'COLD', { at: near(1.6, 1.4), skills: ['refrigerated'] }),
  ];
  const existing = (await w.api.call('GET', `/v1/routes?date=${today(w)}`, { token: admin })).body.routes as Route[];
  const under = existing.some((r) => [a.id, b.id].includes(r.driver_id) && r.status !== 'cancelled');
  if (under) w.journal.step('a driver has a route today already: the plan adds to it (reoptimize)');
  const plan = await buildRoutes(w, 'the morning plan', {
    order_ids: orders.map((o) => o.id),
    driver_ids: [a.id, b.id],
    reoptimize: under,
  });
  for (const o of orders) await orderEvent('order.assigned', o, (d) => d.source === 'route_planning');
  const routeIds = new Map<number, number>();
  for (const r of plan.routes) {
    routeIds.set(r.driver_id, r.id);
    w.journal.step(`route ${r.id} of ${r.driver_id === a.id ? a.name : b.name}: ${stopsLine(await routeOf(w, r.id))}`);
  }

  // An order that comes in later is auto-assigned: a reject, a timeout, then an accept.
  const late = await dayOrder(w, 'LATE', { at: near(0.5, 0.3) });
  const autoAssign = async () => {
    const res = await w.api.call('POST', '/v1/dispatch/auto-assign', {
      token: admin,
      body: { order_id: late.id, offer_timeout_seconds: OFFER_SECONDS },
      expect: 202,
    });
    w.journal.workflow(res.body.workflow_id, `auto-assign of ${late.id}`);
  };
  await autoAssign();
  await offeredTo(w, a, late);
  await w.api.call('POST', `/v1/driver/offers/${late.id}/reject`, { token: a.token, body: { reason: 'van full' } });
  w.journal.step(`${a.name} rejects ${late.id}: van full`);
  await offeredTo(w, b, late);
  w.journal.step(`${b.name} does not answer`);
  await orderEvent('order.unassigned', late, (d) => d.reason === 'timeout');
  // No driver is left: the process ends exhausted; offered again, the first driver takes it.
  await w.until(
    `a second auto-assign of ${late.id}`,
    async () =>
      (
        await w.api.call('POST', '/v1/dispatch/auto-assign', {
          token: admin,
          body: { order_id: late.id, offer_timeout_seconds: OFFER_SECONDS },
          expect: [202, 409],
        })
      ).status === 202,
  );
  w.journal.step(`auto-assign of ${late.id} again`);
  await offeredTo(w, a, late);
  await w.api.call('POST', `/v1/driver/offers/${late.id}/accept`, { token: a.token });
  w.journal.step(`${a.name} accepts ${late.id}`);
  await orderEvent('order.accepted', late);

  // The driver with the P2P order collects it at the sender's and delivers it with a photo.
  const p2p = orders.find((o) => o.label === 'P2P')!;
  const routes = await Promise.all(
    [a, b].map(async (d) => (routeIds.has(d.id) ? routeOf(w, routeIds.get(d.id)!) : null)),
  );
  const workerAt = routes.findIndex((r) => r?.stops.some((s) => s.order_id === p2p.id));
  const [worker, other] = workerAt === 0 ? [a, b] : [b, a];
  const [workRoute, otherRoute] = workerAt === 0 ? routes : [routes[1], routes[0]];
  w.journal.workflow(`route-${workRoute!.id}`, `the day of ${worker.name}`);
  await report(w, worker, p2p, 'pickup_started');
  await report(w, worker, p2p, 'picked_up');
  await report(w, worker, p2p, 'on_the_way');
  await uploadPhoto(w, worker, p2p);
  await report(w, worker, p2p, 'completed');
  await orderEvent('order.completed', p2p);
  await orderEvent('tracking.event', p2p, (d) => d.tracking_event.status_id === 3 && d.proof_files?.length > 0);

  // The other driver cannot deliver one (the same driver, when the plan gave the other no D stop).
  const [failer, failRoute] =
    otherRoute && pendingDStop(otherRoute, orders) ? [other, otherRoute] : [worker, workRoute!];
  const failed = firstDStop(failRoute, orders, failer.name);
  await report(w, failer, failed, 'failed', { failure_reason: 'needs_rescheduling' });
  w.journal.workflow(`route-${failRoute.id}`, `the day of ${failer.name}`);
  await orderEvent('order.failed', failed, (d) => d.failure_reason === 'needs_rescheduling');

  // The rest of the day is planned again from where the drivers are.
  const remaining = [...orders, late].filter((o) => o !== p2p && o !== failed);
  await buildRoutes(w, 're-optimisation', {
    order_ids: remaining.map((o) => o.id),
    driver_ids: [a.id, b.id],
    reoptimize: true,
  });
  for (const [driverId, routeId] of routeIds) {
    const r = await routeOf(w, routeId);
    const firstPending = r.stops.findIndex((s) => s.status === 'pending');
    const finishedAfter = r.stops
      .slice(firstPending < 0 ? r.stops.length : firstPending)
      .some((s) => s.status !== 'pending');
    if (finishedAfter) throw new ScenarioError(`route ${r.id}: a finished stop after a pending one: ${stopsLine(r)}`);
    w.journal.step(
      `route ${r.id} of ${driverId === a.id ? a.name : b.name} re-optimised, finished stops first: ${stopsLine(r)}`,
    );
  }
}

/** The first pending delivery stop of one of the run's D orders on the route. */
const pendingDStop = (route: Route, orders: DayOrder[]): DayOrder | undefined =>
  route.stops
    .filter((s) => s.status === 'pending' && s.kind === 'delivery')
    .map((s) => orders.find((o) => o.id === s.order_id && o.label !== 'P2P'))
    .find(Boolean);

function firstDStop(route: Route, orders: DayOrder[], who: string): DayOrder {
  const found = pendingDStop(route, orders);
  if (!found)
    throw new ScenarioError(`the route ${route.id} of ${who} has no pending D stop of the run: ${stopsLine(route)}`);
  return found;
}
