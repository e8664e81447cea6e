export { deviceOrderWorkflow } from './deviceOrder.ts';
export { webhookDeliveryWorkflow } from './webhookDelivery.ts';
export { webhookLogPruneWorkflow } from './webhookLogPrune.ts';
