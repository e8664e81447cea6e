/**
 * Ship-outs (docs/customer-services.md, "Ship-outs"): a customer's stored packages sent on from their warehouse.
 * Creating reserves the packages; the price comes at once (method 1) or from the staff (method 2); the payment is a
 * hold on the wallet, taken at the hand-over; the process `shipout-<id>` expires an unpaid one and takes the staff
 * steps pick, pack and hand over, which places the outbound order or buys its label. It reaches customer-services,
 * wallet, wms, orders and labels only through their index.ts.
 */
import { defineModule } from '../../platform/module.ts';
import { createShipoutActivities } from './activities.ts';
import { SHIPOUT_QUEUE, SHIPOUT_WORKFLOW } from './contract.ts';
import { SHIPOUTS_ERRORS } from './errorCodes.ts';
import { SHIPOUTS_MESSAGES } from './messages.ts';
import { CUSTOMER_OPERATIONS } from './operations/customer.ts';
import { STAFF_OPERATIONS } from './operations/staff.ts';

export const shipouts = defineModule({
  name: 'shipouts',
  tags: {
    'Ship-outs':
      'Stored packages sent on from their warehouse: a customer picks a ship-out service, creates the ship-out (its packages reserved), pays it from the wallet (a hold, taken at hand-over) or has it priced first by the business; the warehouse picks, packs and hands it over to the own fleet or a carrier.',
  },
  operations: [...CUSTOMER_OPERATIONS, ...STAFF_OPERATIONS],
  messages: SHIPOUTS_MESSAGES,
  errorCodes: SHIPOUTS_ERRORS,
  taskQueue: SHIPOUT_QUEUE,
  activities: createShipoutActivities,
  workflows: [SHIPOUT_WORKFLOW],
});
