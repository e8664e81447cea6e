/**
 * Applying a driver's step (docs/routes.md, "Dispatch and the driver's day"), in one transaction: the order's status
 * (order.status_change and the OTEP timeline's synthesized event, through the orders module's one writer), the stop,
 * the trail row, the lifecycle event OLC-<stop id>.<step>, and for picked_up, completed and failed the tracking.event
 * with the stop's proof files. The step is judged again under the route's lock; (stop, step) is written once, with
 * the process's report id, so a retried activity writes nothing twice and answers applied.
 */
import type { Config } from '../../platform/config.ts';
import type { Em } from '../../platform/db/orm.ts';
import { insertOutboxEvents, type NewOutboxEvent } from '../../platform/db/outbox.ts';
import {
  appendOrderTrail,
  carrierHeld,
  priceFamilyOf,
  changeOrderStatuses,
  ORDER_OPERATION,
  orderLifecycleEvent,
  orderSummaryOf,
  type OrderActor,
  type OrderLifecycleEvent,
} from '../orders/index.ts';
import { attachProofFiles } from '../pod-files/index.ts';
import { OTEP_OF_ORDER_STATUS } from '../tracking/index.ts';
import { finishStop, lockRoute, orderStops, startRoute } from '../routes/index.ts';
import type { DriverReport, ReportOutcome, RouteReportState } from './contract.ts';
import { judgeReport, statusAfter, type ReportStep, type StopKind } from './domain.ts';
import { lockDispatchOrder, newestStatusChangeId, type DispatchOrder } from './repo/orders.ts';
import { appliedSteps, insertReport, reportIdsOf, routeStatusOf } from './repo/reports.ts';

const OPERATION: Record<ReportStep, number> = {
  ready: ORDER_OPERATION.DRIVER_READY,
  pickup_started: ORDER_OPERATION.DRIVER_PICKUP_STARTED,
  picked_up: ORDER_OPERATION.DRIVER_PICKED_UP,
  on_the_way: ORDER_OPERATION.DRIVER_ON_THE_WAY,
  completed: ORDER_OPERATION.DRIVER_DELIVERED,
  failed: ORDER_OPERATION.DRIVER_DELIVERY_FAILED,
};

const EVENT: Record<ReportStep, OrderLifecycleEvent> = {
  ready: 'order.ready',
  pickup_started: 'order.pickup_started',
  picked_up: 'order.picked_up',
  on_the_way: 'order.on_the_way',
  completed: 'order.completed',
  failed: 'order.failed',
};

/**
 * The order's stops on this route (none when the route is not the driver's now: a handover), the steps applied to
 * them, and whether an offer of it is open.
 */
export async function reportStateOf(
  em: Em,
  businessId: number,
  routeId: number,
  order: Pick<DispatchOrder, 'id' | 'type' | 'offerOpen'> | null,
  driverId: number,
): Promise<RouteReportState> {
  const routeStatus = await routeStatusOf(em, routeId);
  const found = order ? await orderStops(em, businessId, order.id) : null;
  const stops = found && found.route.id === routeId && found.route.driverId === driverId ? found.stops : [];
  return {
    orderType: order?.type ?? 'D',
    stops: stops.map((s) => ({ id: s.id, kind: s.kind, status: s.status })),
    applied: await appliedSteps(
      em,
      stops.map((s) => s.id),
    ),
    offerOpen: order?.offerOpen ?? false,
    routeStatus,
  };
}

export async function applyReport(
  tx: Em,
  businessId: number,
  routeId: number,
  report: DriverReport,
  reportId: string,
  config: Config,
): Promise<ReportOutcome> {
  const route = await lockRoute(tx, businessId, routeId);
  const o = await lockDispatchOrder(tx, businessId, report.orderId);
  if (!route || !o || route.driverId !== report.driverId)
    return { applied: false, reason: 'not_on_route', statusId: o?.statusId ?? null };
  const state = await reportStateOf(tx, businessId, routeId, o, report.driverId);
  const judged = judgeReport(state, report.step);
  if (!judged.applied) {
    // A retry of this very report after its commit (the same report id): it is applied. Another report of the
    // same step is repeated.
    const again =
      judged.reason === 'repeated' &&
      (await reportIdsOf(
        tx,
        state.stops.map((st) => st.id),
        report.step,
      ).then((ids) => ids.includes(reportId)));
    return again
      ? { applied: true, statusId: o.statusId, routeStatus: state.routeStatus }
      : { applied: false, reason: judged.reason, statusId: o.statusId };
  }
  const occurredAt = new Date(report.occurredAt);
  const written = await insertReport(tx, {
    businessId,
    routeId,
    stopId: judged.stopId,
    orderId: o.id,
    driverId: report.driverId,
    step: report.step,
    failureReason: report.step === 'failed' ? report.failureReason : null,
    occurredAt,
    lat: report.lat,
    lng: report.lng,
    reportId,
  });
  if (!written) return { applied: true, statusId: o.statusId, routeStatus: state.routeStatus };
  await startRoute(tx, businessId, routeId);
  const actor: OrderActor = { userId: report.driverId, role: 'driver', source: 'api', ip: null };
  const before = o.statusId;
  const after = statusAfter(report.step, report.step === 'failed' ? report.failureReason : null) ?? before;
  const details = {
    stop_id: judged.stopId,
    route_id: routeId,
    step: report.step,
    ...(report.step === 'failed' && report.failureReason ? { failure_reason: report.failureReason } : {}),
    ...(report.lat !== null && report.lng !== null ? { lat: report.lat, lng: report.lng } : {}),
  };
  if (after !== before)
    await changeOrderStatuses(tx, [
      {
        order: o,
        change: {
          before,
          after,
          operationType: OPERATION[report.step],
          description: `driver: ${report.step.replace(/_/g, ' ')}`,
          actor,
          details,
        },
        occurredAt,
      },
    ]);
  else
    await appendOrderTrail(tx, [
      {
        orderId: o.id,
        businessId,
        operationType: OPERATION[report.step] as typeof ORDER_OPERATION.DRIVER_READY,
        actor,
        beforeStatus: before,
        afterStatus: after,
        details,
        occurredAt,
      },
    ]);
  if (judged.finish) await finishStop(tx, businessId, judged.stopId, judged.finish, occurredAt);
  // A P2P order failed at its pickup is not delivered either: its delivery stop is skipped.
  const stop = state.stops.find((st) => st.id === judged.stopId)!;
  if (judged.finish === 'failed' && stop.kind === 'pickup')
    for (const rest of state.stops.filter((st) => st.kind === 'delivery' && st.status === 'pending'))
      await finishStop(tx, businessId, rest.id, 'skipped', occurredAt);
  const now = { ...o, statusId: after };
  const data: Record<string, unknown> = { driver_id: report.driverId };
  if (report.step === 'failed') data.failure_reason = report.failureReason;
  const events: NewOutboxEvent[] = [
    orderLifecycleEvent(now, EVENT[report.step], `OLC-${judged.stopId}.${report.step}`, data, occurredAt),
  ];
  if ((report.step === 'picked_up' || report.step === 'completed' || report.step === 'failed') && after !== before)
    events.push(await trackingEventOf(tx, now, report.step, stop.kind, occurredAt, config));
  await insertOutboxEvents(tx, events);
  return { applied: true, statusId: after, routeStatus: await routeStatusOf(tx, routeId) };
}

/**
 * tracking.event of a picked_up, completed or failed step: its tracking event is the status change the step wrote
 * (the timeline's osc-<id>, its key the tracking module's OTEP_OF_ORDER_STATUS), with the stop's proof files
 * (pod-files): service 2 (pickup) for picked_up and for a pickup stop (a P order, a P2P failed at its pickup), else
 * 1 (delivery); status 2 for failed.
 */
async function trackingEventOf(
  tx: Em,
  o: DispatchOrder,
  step: ReportStep,
  kind: StopKind,
  occurredAt: Date,
  config: Config,
): Promise<NewOutboxEvent> {
  const id = await newestStatusChangeId(tx, o.id);
  const key = OTEP_OF_ORDER_STATUS.get(o.statusId)?.code ?? 'otep:core:exception';
  const files = await attachProofFiles(
    tx,
    {
      businessId: o.businessId,
      orderId: o.id,
      serviceType: step === 'picked_up' || kind === 'pickup' ? 2 : 1,
      serviceStatus: step === 'failed' ? 2 : 1,
      trackingEventId: id,
      trackingEventStatusId: o.statusId,
      trackingEventKey: key,
    },
    config,
  );
  const eventId = `TRD-${id}`;
  return {
    businessId: o.businessId,
    customerId: o.customerId,
    eventId,
    eventType: 'tracking.event',
    referenceType: 'order',
    referenceId: String(o.id),
    family: priceFamilyOf(o),
    carrierHeld: carrierHeld(o),
    payload: {
      event_id: eventId,
      event: 'tracking.event',
      business_id: o.businessId,
      occurred_at: occurredAt.toISOString(),
      data: {
        order: orderSummaryOf(o),
        tracking_event: {
          id,
          status_id: o.statusId,
          key,
          description: `driver: ${step.replace(/_/g, ' ')}`,
          occurred_at: occurredAt.toISOString(),
          package_number: o.trackingNumber,
        },
        proof_files: files.map((f) => ({ file_id: f.file_id, type: f.type, url: f.url, full_url: f.full_url })),
        proof_files_detail: files,
      },
    },
  };
}
