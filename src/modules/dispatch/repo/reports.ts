/** The driver's applied steps (dispatch_report): one per stop and step. */
import type { Em } from '../../../platform/db/orm.ts';
import type { FailureReason, ReportStep } from '../domain.ts';

/** The steps applied to these stops. */
export function appliedSteps(em: Em, stopIds: readonly number[]): Promise<{ stopId: number; step: ReportStep }[]> {
  if (stopIds.length === 0) return Promise.resolve([]);
  return em.execute<{ stopId: number; step: ReportStep }[]>(
    'select stop_id as "stopId", step from dispatch_report where stop_id in (?) order by id',
    [stopIds],
  );
}

/** Records the step; false when this stop has it already (a retried activity). */
export async function insertReport(
  em: Em,
  r: {
    businessId: number;
    routeId: number;
    stopId: number;
    orderId: number;
    driverId: number;
    step: ReportStep;
    failureReason: FailureReason | null;
    occurredAt: Date;
    lat: number | null;
    lng: number | null;
    /** The route process's id of the report (a retried activity sends the same). */
    reportId: string;
  },
): Promise<boolean> {
  const rows = await em.execute<{ id: number }[]>(
    `insert into dispatch_report (business_id, route_id, stop_id, order_id, driver_id, step, failure_reason, occurred_at, lat, lng, report_id)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (stop_id, step) do nothing returning id`,
    [
      r.businessId,
      r.routeId,
      r.stopId,
      r.orderId,
      r.driverId,
      r.step,
      r.failureReason,
      r.occurredAt,
      r.lat,
      r.lng,
      r.reportId,
    ],
  );
  return rows.length > 0;
}

/** The report ids that applied this step to these stops. */
export async function reportIdsOf(em: Em, stopIds: readonly number[], step: ReportStep): Promise<string[]> {
  if (stopIds.length === 0) return [];
  const rows = await em.execute<{ reportId: string | null }[]>(
    'select report_id as "reportId" from dispatch_report where stop_id in (?) and step = ?',
    [stopIds, step],
  );
  return rows.flatMap((r) => (r.reportId ? [r.reportId] : []));
}

/** The route's status now. */
export async function routeStatusOf(em: Em, routeId: number): Promise<string> {
  const [row] = await em.execute<{ status: string }[]>('select status from route where id = ?', [routeId]);
  return row?.status ?? 'cancelled';
}

/** The order's route and driver, for a report: null when it is on no route of the business. */
export async function routeOfOrder(
  em: Em,
  businessId: number,
  orderId: number,
): Promise<{ routeId: number; driverId: number; routeDate: string; statusId: number } | null> {
  const [row] = await em.execute<{ routeId: number; driverId: number; routeDate: string; statusId: number }[]>(
    `select r.id as "routeId", r.driver_id as "driverId", r.route_date::text as "routeDate", o.status_id as "statusId"
     from delivery_order o join route r on r.id = o.route_id and r.business_id = o.business_id
     where o.id = ? and o.business_id = ?`,
    [orderId, businessId],
  );
  return row ?? null;
}
