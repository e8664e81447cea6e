/**
 * Manual assignment (docs/routes.md, "Dispatch and the driver's day"): in the caller's transaction, the order leaves
 * its previous driver's route (order.unassigned, reason handover) and goes on the new driver's route of its
 * scheduled date (order.assigned, source manual), with trail rows 3082 and 3081 besides the routes' 3084 and 3083.
 */
import type { Em } from '../../platform/db/orm.ts';
import { insertOutboxEvents, type NewOutboxEvent } from '../../platform/db/outbox.ts';
import { planningDrivers } from '../drivers/index.ts';
import {
  appendOrderTrail,
  ASSIGNABLE_STATUS_IDS,
  ORDER_OPERATION,
  orderLifecycleEvent,
  type OrderActor,
} from '../orders/index.ts';
import {
  driverRouteOf,
  orderStops,
  putOrderOnRoute,
  releaseFinishedOrder,
  takeOrderOffRoute,
} from '../routes/index.ts';
import { errors } from '../../platform/errors.ts';
import { insertDispatchChange, lockDispatchOrder, toRoute, type DispatchOrder } from './repo/orders.ts';
import { appliedSteps } from './repo/reports.ts';
import { dispatchRefusal, refuse } from './rules.ts';

export interface AssignResult {
  order: DispatchOrder;
  driverId: number | null;
  routeId: number | null;
  /** False when the order was with that driver already: nothing written. */
  changed: boolean;
}

/** The driver, active, of the business; NOT_FOUND for another business's or no driver, DRIVER_NOT_ACTIVE. */
export async function activeDriver(em: Em, businessId: number, driverId: number) {
  const [driver] = await planningDrivers(em, businessId, [driverId]);
  if (!driver) throw errors.notFound();
  if (driver.status !== 'active') throw refuse('DRIVER_NOT_ACTIVE');
  return driver;
}

/** The order's stops on its route (not the released ones) and whether a step was applied to one of them. */
async function routeStopsOf(tx: Em, o: DispatchOrder) {
  const found = await orderStops(tx, o.businessId, o.id);
  const stops = found?.stops ?? [];
  const reported =
    (
      await appliedSteps(
        tx,
        stops.map((s) => s.id),
      )
    ).length > 0;
  return { stops, reported };
}

/** Statuses after a failed attempt whose order waits for dispatch again: its finished stops are released. */
const REDISPATCHABLE = new Set([12, 13]);

/**
 * Takes the order from its driver (its pending stops leave the route): trail 3082 and order.unassigned with the
 * reason. Refused (ORDER_STOP_STARTED) when a stop of it is finished or a step was reported for one (`ready` too),
 * except after a failed attempt (status 12 or 13, every stop finished): the finished stops stay on the route,
 * released. Answers the previous driver, or null if none.
 */
export async function takeFromDriver(
  tx: Em,
  o: DispatchOrder,
  reason: 'handover' | 'revoke' | 'reject' | 'timeout',
  eventKey: string,
  actor: OrderActor,
): Promise<number | null> {
  const previous = o.driverId;
  if (o.routeId !== null) {
    const { stops, reported } = await routeStopsOf(tx, o);
    const finished = stops.length > 0 && stops.every((s) => s.status !== 'pending');
    if (finished && REDISPATCHABLE.has(o.statusId)) {
      // After a failed attempt its stops are all finished: they stay on the route, the order leaves it.
      if ((await releaseFinishedOrder(tx, o.businessId, o.id, actor)) === 'stop_pending')
        throw refuse('ORDER_STOP_STARTED');
    } else {
      if (reported) throw refuse('ORDER_STOP_STARTED');
      if ((await takeOrderOffRoute(tx, o.businessId, o.id, actor)) === 'stop_started')
        throw refuse('ORDER_STOP_STARTED');
    }
  }
  if (previous === null) return null;
  await appendOrderTrail(tx, [
    {
      orderId: o.id,
      businessId: o.businessId,
      operationType: ORDER_OPERATION.DRIVER_UNASSIGNED,
      actor,
      beforeStatus: o.statusId,
      afterStatus: o.statusId,
      details: { previous_driver_id: previous, reason },
    },
  ]);
  await insertOutboxEvents(tx, [
    orderLifecycleEvent(o, 'order.unassigned', `OLC-${eventKey}.unassigned`, { previous_driver_id: previous, reason }),
  ]);
  o.driverId = null;
  o.routeId = null;
  return previous;
}

/** Puts the order on the driver's route of its date, with the trail row and order.assigned. */
export async function giveToDriver(
  tx: Em,
  o: DispatchOrder,
  driverId: number,
  source: 'manual' | 'auto_assign',
  eventKey: string,
  actor: OrderActor,
): Promise<number> {
  const route = await driverRouteOf(tx, o.businessId, driverId, o.scheduledDate);
  await putOrderOnRoute(tx, route, toRoute(o), actor);
  await appendOrderTrail(tx, [
    {
      orderId: o.id,
      businessId: o.businessId,
      operationType: source === 'manual' ? ORDER_OPERATION.DRIVER_ASSIGNED : ORDER_OPERATION.AUTO_ASSIGNED,
      actor,
      beforeStatus: o.statusId,
      afterStatus: o.statusId,
      details: { driver_id: driverId, route_id: route.id, source },
    },
  ]);
  const event: NewOutboxEvent = orderLifecycleEvent(o, 'order.assigned', `OLC-${eventKey}.assigned`, {
    driver_id: driverId,
    source,
  });
  await insertOutboxEvents(tx, [event]);
  o.driverId = driverId;
  o.routeId = route.id;
  return route.id;
}

/** POST /v1/dispatch/assign, in the caller's transaction. */
export async function assignManually(
  tx: Em,
  businessId: number,
  orderId: number,
  driverId: number,
  actor: OrderActor,
): Promise<AssignResult> {
  const o = await lockDispatchOrder(tx, businessId, orderId);
  if (!o) throw errors.notFound();
  const refusal = dispatchRefusal(o);
  if (refusal) throw refuse(refusal);
  if (o.offerOpen) throw refuse('AUTO_ASSIGN_RUNNING');
  await activeDriver(tx, businessId, driverId);
  // With that driver already, unless its stops there are finished (a failed attempt: a second one gets new stops).
  if (
    o.driverId === driverId &&
    o.routeId !== null &&
    (await routeStopsOf(tx, o)).stops.some((s) => s.status === 'pending')
  )
    return { order: o, driverId, routeId: o.routeId, changed: false };
  const changeId = await insertDispatchChange(tx, {
    businessId,
    orderId,
    kind: 'assign',
    driverId,
    previousDriverId: o.driverId,
    actorId: actor.userId,
  });
  await takeFromDriver(tx, o, 'handover', `D${changeId}`, actor);
  const routeId = await giveToDriver(tx, o, driverId, 'manual', `D${changeId}`, actor);
  return { order: o, driverId, routeId, changed: true };
}

/**
 * POST /v1/dispatch/unassign, in the caller's transaction: order.unassigned, reason revoke. Only an order in an
 * assignable status (ORDER_NOT_DISPATCHABLE: under way, delivered, refused, failed without a reason...).
 */
export async function unassignManually(tx: Em, businessId: number, orderId: number, actor: OrderActor) {
  const o = await lockDispatchOrder(tx, businessId, orderId);
  if (!o) throw errors.notFound();
  if (o.offerOpen) throw refuse('AUTO_ASSIGN_RUNNING');
  if (o.driverId === null && o.routeId === null) throw refuse('ORDER_NOT_ASSIGNED');
  if (!ASSIGNABLE_STATUS_IDS.includes(o.statusId)) throw refuse('ORDER_NOT_DISPATCHABLE');
  const changeId = await insertDispatchChange(tx, {
    businessId,
    orderId,
    kind: 'unassign',
    driverId: null,
    previousDriverId: o.driverId,
    actorId: actor.userId,
  });
  const previous = await takeFromDriver(tx, o, 'revoke', `D${changeId}`, actor);
  return { order: o, previousDriverId: previous };
}
