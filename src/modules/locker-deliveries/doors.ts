/**
 * A door report of a compartment a partner delivery holds (the lockers module's `doorReported` hook): the
 * delivery's process hears of it, which settles a remote-opened deposit, a deposit past its timeout and a pickup
 * (docs/locker-deliveries.md).
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import type { DoorReportedHook } from '../lockers/index.ts';
import { doorSignal, lockerDeliveryWorkflowId } from './contract.ts';
import { deliveryOfParcel } from './repo/deliveries.ts';

export const tellDeliveryOfDoor: DoorReportedHook = async (ctx, report) => {
  if (report.occupant === null || !('lockerParcelId' in report.occupant)) return;
  const deliveryId = await deliveryOfParcel(ctx.em, report.occupant.lockerParcelId);
  if (deliveryId === null) return;
  // A delivery that has ended meanwhile has no use for the report.
  await ctx.temporal.workflow
    .getHandle(lockerDeliveryWorkflowId(deliveryId))
    .signal(doorSignal, { compartmentNumber: report.compartmentNumber, state: report.state })
    .catch((err: unknown) => {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    });
};
