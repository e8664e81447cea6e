/** What the operations that move a delivery share: find it for its caller, send the update, answer refusals as 409. */
import type { WorkflowHandle } from '@temporalio/client';
import { z } from 'zod';
import type { BusinessContext } from '../../platform/catalog/types.ts';
import { errors } from '../../platform/errors.ts';
import { fail } from './errorCodes.ts';
import { PROCESS_GONE, refusedAs } from '../../platform/temporal/refusals.ts';
import {
  LOCKER_CORRECTION_CLOSED,
  LOCKER_INVALID_TRANSITION,
  lockerDeliveryWorkflowId,
  type LockerDeliverySnapshot,
} from './contract.ts';
import { findLockerDelivery, type DeliveryOwner } from './repo/deliveries.ts';
import { LockerDeliveryView } from './views.ts';
import type { lockerDeliveryWorkflow } from './workflows.ts';

export const DeliveryResult = z.object({ result: z.literal(true), delivery: LockerDeliveryView });

export async function loadDelivery(
  ctx: BusinessContext,
  owner: DeliveryOwner,
  id: number,
): Promise<LockerDeliveryView> {
  const view = await findLockerDelivery(ctx.em, owner, id);
  if (!view) throw errors.notFound();
  return view;
}

/** Sends an update to the delivery's workflow; a refused or finished process answers 409 with the status it is in. */
export async function sendUpdate(
  ctx: BusinessContext,
  owner: DeliveryOwner,
  id: number,
  action: string,
  send: (handle: WorkflowHandle<typeof lockerDeliveryWorkflow>) => Promise<LockerDeliverySnapshot>,
): Promise<z.infer<typeof DeliveryResult>> {
  await loadDelivery(ctx, owner, id);
  const invalid = async () =>
    fail('INVALID_TRANSITION', 'locker_delivery.invalid_transition', {
      status: (await loadDelivery(ctx, owner, id)).status,
      action,
    });
  await refusedAs(send(ctx.temporal.workflow.getHandle<typeof lockerDeliveryWorkflow>(lockerDeliveryWorkflowId(id))), {
    [LOCKER_CORRECTION_CLOSED]: () => fail('CORRECTION_WINDOW_CLOSED', 'locker_delivery.correction_closed'),
    [LOCKER_INVALID_TRANSITION]: invalid,
    [PROCESS_GONE]: invalid,
  });
  // The process answers its snapshot; the answer presents the row as the update left it.
  return { result: true as const, delivery: await loadDelivery(ctx, owner, id) };
}
