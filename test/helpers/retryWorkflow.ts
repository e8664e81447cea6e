import assert from 'node:assert/strict';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestApp } from './app.ts';

/** The retry workflow that drives a delivery's current round, as the delivery row records it. */
export async function retryWorkflowOf(app: TestApp, deliveryId: number): Promise<WorkflowHandle> {
  const [row] = await app.em().execute<{ retry_workflow_id: string | null }[]>('select retry_workflow_id from webhook_delivery where id = ?', [deliveryId]);
  assert.ok(row?.retry_workflow_id, `delivery ${deliveryId} is driven by a retry workflow`);
  return app.running.temporal.workflow.getHandle(row.retry_workflow_id);
}
