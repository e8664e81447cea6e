/**
 * The operator's way out of a locker screen's wrong-code lock. The lock is per locker on purpose: a guesser types a
 * different code each time, so a count per code would never trip (docs/code-attempts.md). The price is that five
 * wrong codes from anyone at the screen hold back everyone at it, up to a day; the business's client admin lifts
 * the lock once they have looked at why it tripped (docs/runbook.md).
 */
import { z } from 'zod';
import { pathCode } from '../../../platform/catalog/schemas.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { liftLocks } from '../../../platform/db/attempts.ts';
import { errors } from '../../../platform/errors.ts';
import { deviceWithKeyHashes } from '../repo/deviceKeys.ts';
import { deviceKeySubject, SCREEN_CODE_KIND, screenSubject } from './screen.ts';

export const lockerCodeLockLift = defineOperation({
  name: 'locker_code_lock_lift',
  summary: "Lift the wrong-code lock of a locker's screen so that the right codes open again at once.",
  description:
    'Lifts the lock of the screen and of every key of the device; `lifted` says whether one was in force and `remaining_seconds` how long it had left. The wrong-code counts and the lock history stay, so another run of wrong codes locks the screen again, for longer. Five wrong codes from anyone at the screen lock it for everyone: look at why it tripped before lifting it. Refuses a device the business does not have (NOT_FOUND).',
  tag: 'Lockers',
  roles: ['client_admin'],
  business: true,
  rest: { method: 'DELETE', path: '/v1/devices/{device_id}/code-lock' },
  failures: { NOT_FOUND: 'No such device of the business' },
  input: z.object({ device_id: pathCode(64).describe('Device code') }).strict(),
  output: z.object({
    result: z.literal(true),
    lifted: z.boolean().describe('Whether a lock was in force'),
    remaining_seconds: z.number().int().describe('How long the lifted lock still had to run; 0 when none was'),
  }),
  async handler(input, ctx) {
    const device = await deviceWithKeyHashes(ctx.em, ctx.caller.businessId, input.device_id);
    if (!device) throw errors.notFound();
    const remaining = await liftLocks(
      ctx.em,
      [screenSubject(device.id), ...device.keyHashes.map(deviceKeySubject)].map((subject) => ({
        kind: SCREEN_CODE_KIND,
        subject,
      })),
    );
    if (remaining > 0)
      ctx.log.info({ deviceId: device.id, by: ctx.caller.id, remaining }, "locker screen's wrong-code lock lifted");
    return { result: true as const, lifted: remaining > 0, remaining_seconds: remaining };
  },
});
