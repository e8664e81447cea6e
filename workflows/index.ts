export { deviceOrderWorkflow } from './deviceOrder.ts';
export { webhookRetriesWorkflow } from './webhookRetries.ts';
export { webhookLogPruneWorkflow } from './webhookLogPrune.ts';
