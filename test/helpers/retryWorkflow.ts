import assert from 'node:assert/strict';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestApp } from './app.ts';
import { waitFor } from './wait.ts';

/** The retry workflow that drives a delivery's current round, as the delivery row records it. */
export async function retryWorkflowOf(app: TestApp, deliveryId: number): Promise<WorkflowHandle> {
  const [row] = await app
    .em()
    .execute<{ retry_workflow_id: string | null }[]>('select retry_workflow_id from webhook_delivery where id = ?', [
      deliveryId,
    ]);
  assert.ok(row?.retry_workflow_id, `delivery ${deliveryId} is driven by a retry workflow`);
  return app.running.temporal.workflow.getHandle(row.retry_workflow_id);
}

export interface DeviceOrderDelivery {
  id: number;
  status: string;
  attempts: number;
  retry_workflow_id: string | null;
}

/** Waits until the one webhook delivery of a device order's events meets `ready`, and answers it. */
export async function awaitDeviceOrderDelivery(
  app: TestApp,
  deviceOrderId: number,
  ready: (d: DeviceOrderDelivery) => boolean,
  timeoutMs?: number,
): Promise<DeviceOrderDelivery> {
  return waitFor(async () => {
    const rows = await app.em().execute<DeviceOrderDelivery[]>(
      `select d.id, d.status, d.attempts, d.retry_workflow_id from webhook_delivery d join outbox_event o on o.id = d.outbox_event_id
       where o.reference_type = 'device_order' and o.reference_id = ?`,
      [String(deviceOrderId)],
    );
    return rows.length === 1 && ready(rows[0]!) && { ...rows[0]!, id: Number(rows[0]!.id) };
  }, timeoutMs);
}
