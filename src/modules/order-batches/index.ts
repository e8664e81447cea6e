/**
 * Bulk and async order intake (docs/orders.md, "Bulk and async intake"): bulk_create_orders creates up to 100
 * orders in one call with a result per row; bulk_create_orders_async stores up to 5,000 rows and creates them as the
 * process `order-batch-<asyncId>` (contract.ts), chunk by chunk, resumable with no row created twice, then sends
 * order.create_async to the postback URL; the schedule order-batch-sweep starts a batch left queued. Orders are
 * created by the orders module's one placement path.
 */
import { defineModule } from '../../platform/module.ts';
import { createOrderBatchActivities } from './activities.ts';
import {
  ORDER_BATCH_QUEUE,
  ORDER_BATCH_SWEEP_SCHEDULE,
  ORDER_BATCH_SWEEP_WORKFLOW,
  ORDER_BATCH_WORKFLOW,
} from './contract.ts';
import { ORDER_BATCH_OPERATIONS } from './operations.ts';

export const orderBatches = defineModule({
  name: 'order-batches',
  taskQueue: ORDER_BATCH_QUEUE,
  operations: ORDER_BATCH_OPERATIONS,
  activities: createOrderBatchActivities,
  workflows: [ORDER_BATCH_WORKFLOW, ORDER_BATCH_SWEEP_WORKFLOW],
  schedules: () => [
    {
      id: ORDER_BATCH_SWEEP_SCHEDULE,
      workflowType: ORDER_BATCH_SWEEP_WORKFLOW,
      args: [],
      spec: { intervals: [{ every: '1 minute' }] },
      purpose: 'Starts the process of an async order batch still queued a minute after it was stored.',
    },
  ],
});
