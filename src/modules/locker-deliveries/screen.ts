import { z } from 'zod';
import { defineOperation } from '../../platform/catalog/types.ts';
import { checkCode } from '../../platform/codeChecks.ts';
import { errors } from '../../platform/errors.ts';
import { secretKeys } from '../../platform/secretBox.ts';
import { codeHashKey, verifyPickupCode } from '../../platform/secrets.ts';
import { openUpdate, lockerDeliveryWorkflowId } from './contract.ts';
import { findScreenCodes } from './repo.ts';
import { ParcelView } from './views.ts';
import type { lockerDeliveryWorkflow } from './workflows.ts';

/** A locker screen: 5 wrong codes within 10 minutes lock it for 10 minutes, then longer (docs/code-attempts.md). */
const SCREEN_RULE = { maxFailures: 5, windowSeconds: 10 * 60, lockSeconds: 10 * 60, maxLockSeconds: 24 * 3600 };

export const lockerCodeEntered = defineOperation({
  name: 'locker_code_entered',
  summary: "A code typed on the locker's screen, sent with the locker's device key: a delivery code opens its delivery's doors for the deposit (event doors_opened); any other code is refused, and 5 wrong codes within 10 minutes lock the screen for a while (429, the doors stay shut).",
  tag: 'Lockers',
  roles: ['client_admin'],
  auth: 'device_key',
  business: true,
  rest: {
    method: 'POST', path: '/v1/lockers/{device_id}/code',
    failures: { 404: 'Not the device of this key', 429: 'The screen is locked after repeated wrong codes, even for the right one; see Retry-After' },
  },
  input: z.object({ device_id: z.string().trim().min(1).max(64), code: z.string().trim().min(1).max(32) }).strict(),
  output: z.object({
    result: z.literal(true),
    opened: z.literal('deposit').describe('What the code opened'),
    delivery_id: z.number().int(),
    compartments: z.array(ParcelView.pick({ grid_id: true, compartment_number: true, pickup_locker_number: true, pickup_locker_code: true })).describe('The doors to open'),
  }),
  async handler(input, ctx) {
    const device = ctx.caller.device;
    if (!device || device.code !== input.device_id) throw errors.notFound();
    const open = await findScreenCodes(ctx.em, device.id);
    // Set by verify (a closure), so cast rather than annotated: narrowing would not see the assignment.
    let match = null as number | null;
    const right = await checkCode(ctx.em, {
      kind: 'locker_screen_code', subject: `device:${device.id}`, callerId: ctx.caller.id, subjectRule: SCREEN_RULE, callerSubject: `device_key:${ctx.caller.tokenHash.slice(0, 40)}`,
      // Every configured key: a code made before a key rotation still opens its doors.
      verify: () => {
        match = open.find((d) => d.delivery_code_hash !== null && secretKeys().some((k) => verifyPickupCode(input.code, d.delivery_code_hash!, codeHashKey(k))))?.id ?? null;
        return match !== null;
      },
    });
    if (!right || match === null) throw errors.field('code', 'locker_delivery.wrong_code');
    const handle = ctx.temporal.workflow.getHandle<typeof lockerDeliveryWorkflow>(lockerDeliveryWorkflowId(match));
    const delivery = await handle.executeUpdate(openUpdate, { args: [{ via: 'screen_code' }] });
    return {
      result: true as const, opened: 'deposit' as const, delivery_id: delivery.id,
      compartments: delivery.parcels.map((p) => ({ grid_id: p.grid_id, compartment_number: p.compartment_number, pickup_locker_number: p.pickup_locker_number, pickup_locker_code: p.pickup_locker_code })),
    };
  },
});
