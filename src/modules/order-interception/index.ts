/**
 * Order interception (docs/orders.md, "Interception"): an order in transit stopped on request of the business or of
 * its customer account, each a workflow `order-interception-<order id>` (contract.ts) whose read model is the
 * order_interception row; its steps are sent as the order.intercept.* events the orders module declares.
 */
import { defineModule } from '../../platform/module.ts';
import { createInterceptionActivities } from './activities.ts';
import { INTERCEPTION_QUEUE, INTERCEPTION_STATUS, INTERCEPTION_WORKFLOW } from './contract.ts';
import { INTERCEPTION_ERRORS } from './errorCodes.ts';
import { failedInterceptions, openInterceptions, tellInterceptionOfWarehouse } from './hooks.ts';
import { INTERCEPTION_MESSAGES } from './messages.ts';
import { INTERCEPTION_OPERATIONS } from './operations.ts';

export const orderInterception = defineModule({
  name: 'order-interception',
  tags: {
    'Order interception':
      "Stop an order in transit and say what is then done with its parcel (returned to the sender, held at the warehouse for pickup, redelivered to a new address): for the business's staff, and for a customer account on its own orders. Each step is an order.intercept.* event.",
  },
  taskQueue: INTERCEPTION_QUEUE,
  operations: INTERCEPTION_OPERATIONS,
  activities: ({ orm }) => createInterceptionActivities({ orm }),
  workflows: [INTERCEPTION_WORKFLOW],
  hooks: {
    orderAtWarehouse: tellInterceptionOfWarehouse,
    orderProcesses: openInterceptions,
    orderExceptions: failedInterceptions,
  },
  messages: INTERCEPTION_MESSAGES,
  errorCodes: INTERCEPTION_ERRORS,
  searchAttributes: [INTERCEPTION_STATUS],
});
