export { deviceOrderWorkflow } from './device-orders/workflows.ts';
export { webhookRetriesWorkflow } from './webhooks/workflows.ts';
export { webhookLogPruneWorkflow } from './webhooks/pruneWorkflow.ts';
