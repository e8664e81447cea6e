import type { Em } from '../../platform/db/orm.ts';
import type { WorkerDeps } from '../../platform/module.ts';
import type { AutoAssignActivities, RouteDayActivities } from './contract.ts';
import { makeOffer, rankDrivers, settleOffer } from './offers.ts';
import { applyReport, reportStateOf } from './report.ts';
import { lockDispatchOrder } from './repo/orders.ts';

/** Each activity runs in its own fork and one transaction. */
export function createDispatchActivities(deps: WorkerDeps): AutoAssignActivities & RouteDayActivities {
  const tx = <T>(work: (t: Em) => Promise<T>): Promise<T> => deps.orm.em.fork().transactional(work);
  return {
    rankDrivers: ({ orderId, businessId }) => tx((t) => rankDrivers(t, businessId, orderId)),
    makeOffer: (input) => tx((t) => makeOffer(t, input)),
    settleOffer: ({ offerId, outcome, reason }) => tx((t) => settleOffer(t, offerId, outcome, reason)),
    reportState: ({ routeId, businessId, orderId, driverId }) =>
      tx(async (t) => reportStateOf(t, businessId, routeId, await lockDispatchOrder(t, businessId, orderId), driverId)),
    applyReport: ({ routeId, businessId, report, reportId }) =>
      tx((t) => applyReport(t, businessId, routeId, report, reportId, deps.config)),
  };
}
