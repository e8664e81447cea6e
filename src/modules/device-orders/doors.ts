import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Em } from '../../platform/db/orm.ts';
import type { DoorReportedHook, DoorState } from '../lockers/index.ts';
import { deviceOrderWorkflowId, doorReportSignal } from './contract.ts';
import { lastDeviceOrderOf } from './repo/orders.ts';
import { doorTimings } from './domain.ts';

/**
 * Tells the device order that holds a compartment, or held it last and may still watch its door, that the door
 * opened or closed (docs/device-order-exceptions.md). It may watch while the door can still open within the watch
 * and close within the limit after (with one more limit of margin), and while its door_left_open is open. A
 * process that has ended meanwhile has no use for the report.
 */
async function tellDeviceOrderOfDoor(
  em: Em,
  temporal: Client,
  config: { lockerTimerScale: number },
  compartment: { id: number; deviceOrderId: number | null },
  state: DoorState,
): Promise<void> {
  const { doorWatchMs, doorOpenLimitMs } = doorTimings(config.lockerTimerScale);
  const id =
    compartment.deviceOrderId ??
    (await lastDeviceOrderOf(em, compartment.id, (doorWatchMs + 2 * doorOpenLimitMs) / 1000));
  if (id === null) return;
  await temporal.workflow
    .getHandle(deviceOrderWorkflowId(id))
    .signal(doorReportSignal, { state })
    .catch((err: unknown) => {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    });
}

/** The lockers module's `doorReported` hook: a free compartment or one a device order holds. */
export const tellDeviceOrderOfDoorReport: DoorReportedHook = async (ctx, report) => {
  if (report.occupant !== null && !('deviceOrderId' in report.occupant)) return;
  const compartment = { id: report.compartmentId, deviceOrderId: report.occupant?.deviceOrderId ?? null };
  await tellDeviceOrderOfDoor(ctx.em, ctx.temporal, ctx.config, compartment, report.state);
};
