/**
 * The locker's screen, called with the locker's device key: a code typed by the courier or the recipient, and the
 * courier's "done" button.
 */
import { z } from 'zod';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { checkCode } from '../../../platform/codeChecks.ts';
import { errors } from '../../../platform/errors.ts';
import { ANY_REFUSAL, PROCESS_GONE, refusedAs } from '../../../platform/temporal/refusals.ts';
import { confirmUpdate, lockerDeliveryWorkflowId, openUpdate, pickupOpenUpdate } from '../contract.ts';
import { findByScreenCode, findLockerDeliveryById } from '../repo/deliveries.ts';
import { ownDevice } from '../../lockers/index.ts';
import { loadDelivery, sendUpdate } from '../updates.ts';
import { ParcelView } from '../views.ts';
import type { lockerDeliveryWorkflow } from '../workflows.ts';

/** A locker screen: 5 wrong codes within 10 minutes lock it for 10 minutes, then longer (docs/code-attempts.md). */
const SCREEN_RULE = { maxFailures: 5, windowSeconds: 10 * 60, lockSeconds: 10 * 60, maxLockSeconds: 24 * 3600 };
const deviceId = z.string().trim().min(1).max(64);
const NOT_THIS_DEVICE = 'Not the device of this key';

export const ScreenInput = z.object({ device_id: deviceId, code: z.string().trim().min(1).max(32) }).strict();
export const ScreenAnswer = z.object({
  result: z.literal(true),
  opened: z.enum(['deposit', 'pickup']).describe('What the code opened'),
  delivery_id: z.number().int(),
  compartments: z
    .array(
      ParcelView.pick({
        grid_id: true,
        compartment_number: true,
        pickup_locker_number: true,
        pickup_locker_code: true,
      }),
    )
    .describe('The doors to open'),
});

/**
 * A code typed on a device's screen: matched against the device's open deliveries under the attempt lock (per
 * device, and per `callerSubject` across devices), then the matching delivery's doors open for its deposit or pickup.
 */
export async function enterCode(
  ctx: BusinessContext,
  device: { id: number },
  code: string,
  callerSubject: string,
): Promise<z.infer<typeof ScreenAnswer>> {
  // Looked up first (an index lookup); during a lock the answer is 429 whatever was found.
  const match = await findByScreenCode(ctx.em, device.id, code);
  const right = await checkCode(ctx.em, {
    kind: 'locker_screen_code',
    subject: `device:${device.id}`,
    callerId: ctx.caller.id,
    subjectRule: SCREEN_RULE,
    callerSubject,
    verify: () => match !== null,
  });
  if (!right || match === null) throw errors.field('code', 'locker_delivery.wrong_code');
  const { id, status } = match;
  const handle = ctx.temporal.workflow.getHandle<typeof lockerDeliveryWorkflow>(lockerDeliveryWorkflowId(id));
  const pickup = status === 'delivered';
  // The delivery may have moved on since the lookup (expired, say): its code then opens nothing.
  const wrongCode = () => errors.field('code', 'locker_delivery.wrong_code');
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
}

export const lockerCodeEntered = defineOperation({
  name: 'locker_code_entered',
  summary:
    "A code typed on the locker's screen, sent with the locker's device key: a delivery code opens its delivery's doors for the deposit (event doors_opened), a recipient's pickup code opens them for the pickup once the deposit is confirmed; any other code is refused, and 5 wrong codes within 10 minutes lock the screen for a while (429, the doors stay shut).",
  tag: 'Lockers',
  roles: ['client_admin'],
  auth: 'device_key',
  business: true,
  rest: {
    method: 'POST',
    path: '/v1/lockers/{device_id}/code',
    failures: {
      404: NOT_THIS_DEVICE,
      429: 'The screen is locked after repeated wrong codes, even for the right one; see Retry-After',
    },
  },
  input: ScreenInput,
  output: ScreenAnswer,
  handler: (input, ctx) =>
    enterCode(
      ctx,
      ownDevice(ctx.caller, input.device_id),
      input.code,
      `device_key:${ctx.caller.tokenHash.slice(0, 40)}`,
    ),
});

export const lockerCourierConfirmed = defineOperation({
  name: 'locker_courier_confirmed',
  summary:
    'The courier pressed "done" on the locker\'s screen, sent with the locker\'s device key: the deposit is confirmed (confirmed_by courier_terminal, event delivered).',
  tag: 'Lockers',
  roles: ['client_admin'],
  auth: 'device_key',
  business: true,
  rest: {
    method: 'POST',
    path: '/v1/lockers/{device_id}/confirm',
    failures: {
      404: `${NOT_THIS_DEVICE}, or no delivery into this locker has this id`,
      409: 'No deposit under way (INVALID_TRANSITION)',
    },
  },
  input: z.object({ device_id: deviceId, delivery_id: z.number().int().min(1).max(2_147_483_647) }).strict(),
  output: z.object({
    result: z.literal(true),
    delivery_id: z.number().int(),
    status: z.literal('delivered'),
    confirmed_by: z.literal('courier_terminal'),
  }),
  async handler(input, ctx) {
    const device = ownDevice(ctx.caller, input.device_id);
    const owner = { businessId: ctx.caller.businessId };
    if ((await loadDelivery(ctx, owner, input.delivery_id)).device_id !== device.code) throw errors.notFound();
    await sendUpdate(ctx, owner, input.delivery_id, 'confirm', (h) =>
      h.executeUpdate(confirmUpdate, { args: [{ by: 'courier_terminal' }] }),
    );
    return {
      result: true as const,
      delivery_id: input.delivery_id,
      status: 'delivered' as const,
      confirmed_by: 'courier_terminal' as const,
    };
  },
});
