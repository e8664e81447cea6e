/**
 * Uniorder (docs/uniorder.md): one door for local deliveries and carrier labels. It quotes a shipment both ways
 * (the local price model's self delivery rate and every label carrier's), creates the order at the chosen rate_id,
 * reads, prints, tracks and cancels either kind, buys a refused label again, and runs batches of 20. It reaches
 * labels, orders, delivery-prices, order-cancellation and tracking only through their index.ts.
 */
import { defineModule } from '../../platform/module.ts';
import { UNIORDER_ERRORS } from './errorCodes.ts';
import { UNIORDER_MESSAGES } from './messages.ts';
import { uniorderCreateBatch } from './operations/batch.ts';
import {
  uniorderCancel,
  uniorderCreate,
  uniorderGet,
  uniorderLabel,
  uniorderPurchaseLabel,
  uniorderTracking,
} from './operations/orders.ts';
import { uniorderRate, uniorderRateBatch } from './operations/rate.ts';
import { UNIORDER_JOB_OPERATIONS } from './operations/jobs.ts';
import { createUniorderJobActivities } from './activities.ts';
import {
  UNIORDER_JOB_QUEUE,
  UNIORDER_JOB_SWEEP_SCHEDULE,
  UNIORDER_JOB_SWEEP_WORKFLOW,
  UNIORDER_JOB_WORKFLOW,
} from './contract.ts';

export { rateItem, createItem } from './operations/items.ts';
export { UniorderRateInput, UniorderCreateInput } from './views.ts';

export const uniorder = defineModule({
  name: 'uniorder',
  tags: {
    Uniorder:
      'One door for local deliveries and carrier labels: rate a shipment by the business’s own fleet and by every connected carrier in one list, create the order at the chosen rate (a local order, or a label order that buys its label), then read, print, track and cancel either kind; batches of 20 in a call.',
  },
  operations: [
    uniorderRate,
    uniorderCreate,
    uniorderGet,
    uniorderLabel,
    uniorderTracking,
    uniorderCancel,
    uniorderPurchaseLabel,
    uniorderRateBatch,
    uniorderCreateBatch,
    ...UNIORDER_JOB_OPERATIONS,
  ],
  messages: UNIORDER_MESSAGES,
  errorCodes: UNIORDER_ERRORS,
  taskQueue: UNIORDER_JOB_QUEUE,
  activities: createUniorderJobActivities,
  workflows: [UNIORDER_JOB_WORKFLOW, UNIORDER_JOB_SWEEP_WORKFLOW],
  schedules: () => [
    {
      id: UNIORDER_JOB_SWEEP_SCHEDULE,
      workflowType: UNIORDER_JOB_SWEEP_WORKFLOW,
      args: [],
      spec: { intervals: [{ every: '1 minute' }] },
      purpose: 'Starts the process of a uniorder job still queued a minute after it was stored.',
    },
  ],
});
