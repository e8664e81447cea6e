/**
 * A build's store (docs/routes.md, Building routes): in one transaction, the plan becomes routes and stops. Each
 * order asked for is checked again under its row lock (what changed during the solve is left out with its reason);
 * an order on another route with nothing started moves; re-optimising clears the drivers' pending stops first, and an
 * order of theirs the plan no longer holds leaves the route (order.unassigned), unless its driver has it already
 * (a P2P order picked up, a D order on a day under way: dayUnderWay's carrying), when its delivery goes back on the
 * end. Idempotent: a build stored already is left.
 */
import type { Em } from '../../platform/db/orm.ts';
import type { NewOutboxEvent } from '../../platform/db/outbox.ts';
import { insertOutboxEvents } from '../../platform/db/outbox.ts';
import {
  appendOrderTrail,
  ASSIGNABLE_STATUS_IDS,
  ORDER_OPERATION,
  orderLifecycleEvent,
  type OrderActor,
  type OrderTrailEntry,
} from '../orders/index.ts';
import { orderSkip, pointOf, type DriverSkipCode, type Skip } from './domain.ts';
import { endBuild, findBuild, type BuildRow } from './repo/builds.ts';
import { driversDay, lockOrders, planningOrders, type PlanningOrderRow } from './repo/planning.ts';
import { driverRouteOf, takeOrderOffRoute, type RouteRow, type StopKind } from './repo/routes.ts';
import {
  appendStops,
  cancelIfEmpty,
  clearPendingStops,
  completeIfFinished,
  hasOrderStops,
  setOrdersRoute,
  setRoutePlan,
  type NewStop,
} from './repo/store.ts';
import { dayUnderWay } from './buildProblem.ts';
import { driversNotYours, toPlanned } from './planningChecks.ts';

/** Why the orders of a driver left out at the store are UNASSIGNED (route_build.skipped keeps English reasons). */
const REFUSED_REASON: Partial<Record<DriverSkipCode, string>> = {
  DRIVER_HAS_ROUTE: 'the driver was given a route of that date while the build solved',
  DRIVER_DAY_NOT_YOURS: "the driver's day holds orders not assigned to the caller",
};

export async function storePlan(em: Em, buildId: number): Promise<void> {
  await em.transactional(async (tx) => {
    const build = await findBuild(tx, null, buildId, true);
    if (!build || !['solving', 'storing'].includes(build.status)) return;
    if (!build.plan) throw new Error(`build ${buildId} has no plan to store`);
    await writePlan(tx, build);
  });
}

async function writePlan(tx: Em, build: BuildRow): Promise<void> {
  const plan = build.plan!;
  const { businessId, request } = build;
  const actor = request.actor as OrderActor;
  const origin = new Date(plan.originAt).getTime();
  const at = (s: number) => new Date(origin + s * 1000).toISOString();
  const driverIds = request.driver_ids.filter((d) => !build.skipped.some((s) => 'driver_id' in s && s.driver_id === d));
  const wholeDay = request.options.reoptimize ? await driversDay(tx, businessId, driverIds, request.date) : [];

  const planned = [...new Set(plan.routes.flatMap((r) => r.steps.flatMap((s) => (s.orderId ? [s.orderId] : []))))];
  const dayOrders = new Set(wholeDay.flatMap((d) => d.stops.flatMap((s) => (s.orderId ? [s.orderId] : []))));
  await lockOrders(
    tx,
    businessId,
    [...new Set([...planned, ...dayOrders])].sort((a, b) => a - b),
  );
  const rows = new Map(
    (await planningOrders(tx, businessId, [...new Set([...planned, ...dayOrders])])).map((o) => [o.id, o]),
  );

  // Drivers whose plan is not written, checked again now that the rows are locked: a contractor re-optimising a day
  // that holds orders not its own, or (not re-optimising) a route another build or a dispatcher filled meanwhile.
  const refusedDrivers = new Map<number, DriverSkipCode>();
  if (request.broker_id !== null)
    for (const id of driversNotYours(wholeDay, [...rows.values()], request.broker_id))
      refusedDrivers.set(id, 'DRIVER_DAY_NOT_YOURS');
  const routes = new Map<number, RouteRow>();
  for (const r of plan.routes) {
    if (refusedDrivers.has(r.driverId)) continue;
    const route = await driverRouteOf(tx, businessId, r.driverId, request.date);
    if (!request.options.reoptimize && (await hasOrderStops(tx, route.id)))
      refusedDrivers.set(r.driverId, 'DRIVER_HAS_ROUTE');
    else routes.set(r.driverId, route);
  }
  const day = wholeDay.filter((d) => !refusedDrivers.has(d.driverId));
  const onDay = new Set(day.flatMap((d) => d.stops.flatMap((s) => (s.orderId ? [s.orderId] : []))));
  const { carrying } = dayUnderWay(day);
  const asked = new Set(request.order_ids);

  const skipped: Skip[] = [...build.skipped];
  for (const [driverId, code] of refusedDrivers) skipped.push({ driver_id: driverId, code });
  const refused = new Set<number>();
  for (const id of planned) {
    const row = rows.get(id);
    // The orders of the re-optimised routes are the drivers' already: they are not asked for again.
    if (onDay.has(id) && row) continue;
    // An order in the plan only because it was on a refused driver's day stays where it is.
    if (!asked.has(id)) {
      refused.add(id);
      continue;
    }
    const code = row ? orderSkip(toPlanned(row), request.broker_id, ASSIGNABLE_STATUS_IDS) : 'NOT_DISPATCHABLE';
    if (code) {
      refused.add(id);
      skipped.push({ order_id: id, code });
    }
  }
  const unassigned = new Map(plan.unassigned.map((u) => [u.orderId, u.reason]));
  // The asked-for orders of a refused driver's plan: no driver takes them in this build.
  for (const r of plan.routes.filter((x) => refusedDrivers.has(x.driverId)))
    for (const s of r.steps)
      if (s.orderId !== undefined && !refused.has(s.orderId) && !unassigned.has(s.orderId))
        unassigned.set(s.orderId, REFUSED_REASON[refusedDrivers.get(r.driverId)!] ?? 'the driver was left out');
  for (const [id, reason] of unassigned)
    if (!refused.has(id) && (asked.has(id) || onDay.has(id)))
      skipped.push({ order_id: id, code: 'UNASSIGNED', reason });

  // Re-optimising: the chosen drivers' pending stops go; done and failed ones stay first.
  const cleared = new Map<number, { routeId: number; driverId: number }>();
  for (const d of day)
    for (const id of await clearPendingStops(tx, businessId, d.routeId))
      cleared.set(id, { routeId: d.routeId, driverId: d.driverId });

  const trail: OrderTrailEntry[] = [];
  const events: NewOutboxEvent[] = [];
  const placed = new Set<number>();
  for (const r of plan.routes) {
    const route = routes.get(r.driverId);
    if (!route) continue;
    const stops: NewStop[] = [];
    for (const s of r.steps) {
      if (s.type === 'start' || s.type === 'end') continue;
      if (s.type === 'break') {
        stops.push({
          kind: 'break',
          orderId: null,
          plannedArrival: at(s.arrival),
          plannedDeparture: at(s.departure),
          lat: null,
          lng: null,
        });
        continue;
      }
      const row = s.orderId === undefined ? undefined : rows.get(s.orderId);
      if (!row || refused.has(row.id)) continue;
      const point = stopPoint(row, s.type);
      stops.push({
        kind: s.type,
        orderId: row.id,
        plannedArrival: at(s.arrival),
        plannedDeparture: at(s.departure),
        ...point,
      });
    }
    const orderIds = [...new Set(stops.flatMap((s) => (s.orderId ? [s.orderId] : [])))];
    // An order on a route the build does not re-plan moves, if nothing of it has started there.
    for (const id of orderIds) {
      const row = rows.get(id)!;
      if (row.routeId !== null && !cleared.has(id)) await takeOrderOffRoute(tx, businessId, id, actor);
    }
    const made = await appendStops(tx, businessId, route.id, stops);
    await setOrdersRoute(tx, businessId, orderIds, route);
    const steps = r.steps;
    const first = steps[0];
    const last = steps[steps.length - 1];
    await setRoutePlan(tx, route.id, {
      buildId: build.id,
      start: first ? at(first.departure) : null,
      end: last ? at(last.arrival) : null,
      distanceM: Math.round(r.distanceMeters),
      durationS: first && last ? last.arrival - first.departure : 0,
    });
    for (const id of orderIds) {
      placed.add(id);
      const row = rows.get(id)!;
      const before = cleared.get(id)?.driverId ?? row.driverId;
      if (before === route.driverId && cleared.has(id)) continue;
      const stopId = made.find((m) => m.orderId === id)!.id;
      const details = { route_id: route.id, driver_id: route.driverId, build_id: build.id };
      const base = { orderId: id, businessId, actor, beforeStatus: row.statusId, afterStatus: row.statusId, details };
      trail.push({ ...base, operationType: ORDER_OPERATION.ROUTE_PLANNED });
      trail.push({ ...base, operationType: ORDER_OPERATION.DRIVER_ASSIGNED });
      if (before !== null && before !== route.driverId) events.push(unassignedEvent(row, before, build.id));
      events.push(
        orderLifecycleEvent(row, 'order.assigned', `OLC-${stopId}.assigned`, {
          driver_id: route.driverId,
          source: 'route_planning',
        }),
      );
    }
  }

  // Orders the re-optimised routes held and the plan does not: off the route, unless the driver has them already.
  for (const [id, was] of cleared) {
    if (placed.has(id)) continue;
    const row = rows.get(id);
    if (!row) continue;
    if (row.stopStarted || carrying.get(id) === was.driverId) {
      await appendStops(tx, businessId, was.routeId, [
        { kind: 'delivery', orderId: id, plannedArrival: null, plannedDeparture: null, ...stopPoint(row, 'delivery') },
      ]);
      continue;
    }
    await setOrdersRoute(tx, businessId, [id], null);
    // Said in the build's answer, as an order asked for would be: why the day's order left its route.
    if (!skipped.some((x) => 'order_id' in x && x.order_id === id)) {
      const code = orderSkip(toPlanned(row), request.broker_id, ASSIGNABLE_STATUS_IDS);
      skipped.push(
        code ? { order_id: id, code } : { order_id: id, code: 'UNASSIGNED', reason: 'left out of the plan' },
      );
    }
    const details = { route_id: was.routeId, driver_id: was.driverId, build_id: build.id };
    trail.push({
      orderId: id,
      businessId,
      actor,
      beforeStatus: row.statusId,
      afterStatus: row.statusId,
      details,
      operationType: ORDER_OPERATION.ROUTE_REMOVED,
    });
    trail.push({
      orderId: id,
      businessId,
      actor,
      beforeStatus: row.statusId,
      afterStatus: row.statusId,
      details,
      operationType: ORDER_OPERATION.DRIVER_UNASSIGNED,
    });
    events.push(unassignedEvent(row, was.driverId, build.id));
  }
  for (const d of day) await cancelIfEmpty(tx, d.routeId);
  // A day under way whose pending stops all went (only done and failed ones stay) is over.
  for (const d of day) await completeIfFinished(tx, d.routeId);

  await appendOrderTrail(tx, trail);
  await insertOutboxEvents(tx, events);
  const summary = build.summary && {
    ...build.summary,
    routes: routes.size,
    unassigned: new Set(skipped.flatMap((x) => ('order_id' in x && x.code === 'UNASSIGNED' ? [x.order_id] : []))).size,
  };
  await endBuild(tx, build.id, 'done', { skipped, ...(summary && { summary }) });
}

function stopPoint(row: PlanningOrderRow, kind: StopKind): { lat: number | null; lng: number | null } {
  const p = kind === 'pickup' && row.type === 'P2P' ? pointOf(row.pickup?.address) : pointOf(row.address);
  return { lat: p?.lat ?? null, lng: p?.lng ?? null };
}

function unassignedEvent(row: PlanningOrderRow, previousDriverId: number, buildId: number): NewOutboxEvent {
  return orderLifecycleEvent(row, 'order.unassigned', `OLC-build-${buildId}-${row.id}.unassigned`, {
    previous_driver_id: previousDriverId,
    reason: 'revoke',
  });
}
