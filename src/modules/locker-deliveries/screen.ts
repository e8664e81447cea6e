/**
 * What the locker's screen (the lockers module) asks of partner deliveries: whether a typed code is one of their
 * delivery or pickup codes on that locker, to open its doors, and the courier's "done" for a delivery.
 */
import { errors } from '../../platform/errors.ts';
import type { ModuleHooks } from '../../platform/hooks.ts';
import { ANY_REFUSAL, PROCESS_GONE, refusedAs } from '../../platform/temporal/refusals.ts';
import { confirmUpdate, lockerDeliveryWorkflowId, openUpdate, pickupOpenUpdate } from './contract.ts';
import { findByScreenCode, findLockerDelivery, findLockerDeliveryById } from './repo/deliveries.ts';
import { sendUpdate } from './updates.ts';
import type { lockerDeliveryWorkflow } from './workflows.ts';

/** A delivery code opens its delivery's doors for the deposit; a pickup code, once delivered, for the pickup. */
export const deliveryOfScreenCode: ModuleHooks['screenCode'] = async (ctx, device, code) => {
  const match = await findByScreenCode(ctx.em, device.id, code);
  if (!match) return null;
  const { id, status } = match;
  return {
    async open() {
      const handle = ctx.temporal.workflow.getHandle<typeof lockerDeliveryWorkflow>(lockerDeliveryWorkflowId(id));
      const pickup = status === 'delivered';
      // The delivery may have moved on since the lookup (expired, say): its code then opens nothing.
      const wrongCode = () => errors.field('code', 'lockers.wrong_code');
      await refusedAs(
        pickup
          ? handle.executeUpdate(pickupOpenUpdate)
          : handle.executeUpdate(openUpdate, { args: [{ via: 'screen_code' }] }),
        { [ANY_REFUSAL]: wrongCode, [PROCESS_GONE]: wrongCode },
      );
      // The delivery was found on this device by its code: its doors are the ones to open.
      const delivery = (await findLockerDeliveryById(ctx.em, id))!;
      return {
        result: true as const,
        opened: pickup ? ('pickup' as const) : ('deposit' as const),
        delivery_id: delivery.id,
        compartments: delivery.parcels.map((p) => ({
          grid_id: p.grid_id,
          compartment_number: p.compartment_number,
          pickup_locker_number: p.pickup_locker_number,
          pickup_locker_code: p.pickup_locker_code,
        })),
      };
    },
  };
};

/** The courier's "done": the deposit of a delivery of this business into this device is confirmed. */
export const confirmAtScreen: ModuleHooks['courierDone'] = async (ctx, device, deliveryId) => {
  const owner = { businessId: ctx.caller.businessId };
  if ((await findLockerDelivery(ctx.em, owner, deliveryId))?.device_id !== device.code) return false;
  await sendUpdate(ctx, owner, deliveryId, 'confirm', (h) =>
    h.executeUpdate(confirmUpdate, { args: [{ by: 'courier_terminal' }] }),
  );
  return true;
};
