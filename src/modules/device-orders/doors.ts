import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Em } from '../../platform/db/orm.ts';
import type { DoorState } from '../lockers/index.ts';
import { deviceOrderWorkflowId, doorReportSignal } from './contract.ts';
import { lastDeviceOrderOf } from './repo/orders.ts';

/**
 * Tells the device order that holds a compartment, or held it last, that its door opened or closed: the process
 * watches the door after a pickup (door_left_open). A process that has ended has no use for it.
 */
export async function tellDeviceOrderOfDoor(em: Em, temporal: Client, compartment: { id: number; deviceOrderId: number | null }, state: DoorState): Promise<void> {
  const id = compartment.deviceOrderId ?? await lastDeviceOrderOf(em, compartment.id);
  if (id === null) return;
  await temporal.workflow.getHandle(deviceOrderWorkflowId(id)).signal(doorReportSignal, { state })
    .catch((err: unknown) => { if (!(err instanceof WorkflowNotFoundError)) throw err; });
}
