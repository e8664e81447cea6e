/**
 * Dispatch (docs/routes.md, "Dispatch and the driver's day"): an order given to a driver by hand or offered by the
 * auto-assign process `auto-assign-<order id>`, and the driver's day `route-<route id>`, which judges and applies
 * the driver app's reports. Every change sends its lifecycle event through the outbox in its own transaction.
 */
import { defineModule } from '../../platform/module.ts';
import type { OrderProcessesHook } from '../orders/index.ts';
import { createDispatchActivities } from './activities.ts';
import { leaveRoute } from './cancelled.ts';
import { AUTO_ASSIGN_WORKFLOW, autoAssignWorkflowId, DISPATCH_QUEUE, ROUTE_DAY_WORKFLOW } from './contract.ts';
import { DISPATCH_ERRORS } from './errorCodes.ts';
import { DISPATCH_MESSAGES } from './messages.ts';
import { dispatchAssign, dispatchAutoAssign, dispatchUnassign } from './operations/assign.ts';
import { driverOfferAccept, driverOfferReject, driverOffers, driverReport } from './operations/driver.ts';
import { openOfferOf } from './repo/offers.ts';

/** An offer waiting for its driver is an open process of the order (order_snapshot). */
const offerProcesses: OrderProcessesHook = async (ctx, order) => {
  const offer = await openOfferOf(ctx.em, order.businessId, order.id);
  return offer
    ? [
        {
          type: 'auto-assign',
          workflowId: autoAssignWorkflowId(order.id),
          state: 'offered',
          since: new Date(offer.offeredAt),
          reference: `driver-${offer.driverId}`,
        },
      ]
    : [];
};

export const dispatch = defineModule({
  name: 'dispatch',
  taskQueue: DISPATCH_QUEUE,
  operations: [
    dispatchAssign,
    dispatchUnassign,
    dispatchAutoAssign,
    driverOffers,
    driverOfferAccept,
    driverOfferReject,
    driverReport,
  ],
  hooks: { orderCancelled: leaveRoute, orderProcesses: offerProcesses },
  activities: createDispatchActivities,
  workflows: [AUTO_ASSIGN_WORKFLOW, ROUTE_DAY_WORKFLOW],
  messages: DISPATCH_MESSAGES,
  errorCodes: DISPATCH_ERRORS,
});
