/**
 * The locker's screen, called with the locker's device key: a code typed by a courier or a recipient, and the
 * courier's "done" button. The screen owns the wrong-code lock; what a code opens, and what "done" confirms, is the
 * business of the processes that hold compartments, which answer through the `screenCode` and `courierDone` hooks
 * (a partner delivery today, docs/locker-deliveries.md). This module knows nothing of them.
 */
import { z } from 'zod';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { checkCode } from '../../../platform/codeChecks.ts';
import { errors } from '../../../platform/errors.ts';
import { hooksOf } from '../../../platform/hooks.ts';
import { ownDevice } from './doors.ts';

/** A locker screen: 5 wrong codes within 10 minutes lock it for 10 minutes, then longer (docs/code-attempts.md). */
const SCREEN_RULE = { maxFailures: 5, windowSeconds: 10 * 60, lockSeconds: 10 * 60, maxLockSeconds: 24 * 3600 };
/** What the screen's wrong codes are counted as, against the locker and against the key that sent them. */
export const SCREEN_CODE_KIND = 'locker_screen_code';
export const screenSubject = (deviceId: number): string => `device:${deviceId}`;
export const deviceKeySubject = (keyHash: string): string => `device_key:${keyHash.slice(0, 40)}`;
const deviceId = z.string().trim().min(1).max(64);
const NOT_THIS_DEVICE = 'Not the device of this key';

export const ScreenInput = z.object({ device_id: deviceId, code: z.string().trim().min(1).max(32) }).strict();
export const ScreenAnswer = z.object({
  result: z.literal(true),
  opened: z.enum(['deposit', 'pickup']).describe('What the code opened'),
  delivery_id: z.number().int(),
  compartments: z
    .array(
      z
        .object({
          grid_id: z.number().int().describe('Compartment id'),
          compartment_number: z.number().int().describe('Hardware door number'),
          pickup_locker_number: z.number().int().nullable().describe('Number shown on the door'),
          pickup_locker_code: z
            .string()
            .nullable()
            .describe("'{shelf_code}-{pickup_locker_number}'; null without a number"),
        })
        .strict(),
    )
    .describe('The doors to open'),
});
export type ScreenAnswer = z.infer<typeof ScreenAnswer>;

/** A process that holds a compartment of this device and is waiting for this code; `open` opens its doors. */
export interface ScreenCodeMatch {
  open(): Promise<ScreenAnswer>;
}

declare module '../../../platform/hooks.ts' {
  interface ModuleHooks {
    /** Looks up a code typed on a device's screen; null when it is none of this module's. */
    screenCode: (ctx: BusinessContext, device: { id: number }, code: string) => Promise<ScreenCodeMatch | null>;
    /** The courier's "done" for a delivery into this device; false when the delivery is none of this module's. */
    courierDone: (ctx: BusinessContext, device: { id: number; code: string }, deliveryId: number) => Promise<boolean>;
  }
}

/**
 * A code typed on a device's screen: looked up by every process that may wait for one, under the attempt lock (per
 * device, and per `callerSubject` across devices); the match's doors then open. During a lock the answer is 429
 * whatever was found, and a wrong code is a field error, in both cases before anything opens.
 */
export async function enterCode(
  ctx: BusinessContext,
  device: { id: number },
  code: string,
  callerSubject: string,
): Promise<ScreenAnswer> {
  let match: ScreenCodeMatch | null = null;
  for (const lookup of hooksOf('screenCode')) match ??= await lookup(ctx, device, code);
  const right = await checkCode(ctx.countsEm, {
    kind: SCREEN_CODE_KIND,
    subject: screenSubject(device.id),
    callerId: ctx.caller.id,
    subjectRule: SCREEN_RULE,
    callerSubject,
    verify: () => match !== null,
  });
  if (!right || match === null) throw errors.field('code', 'lockers.wrong_code');
  return match.open();
}

export const lockerCodeEntered = defineOperation({
  name: 'locker_code_entered',
  summary: "A code typed on the locker's screen opens the compartments it belongs to.",
  description:
    "Called by the locker with its own device key. A courier's delivery code opens its delivery's compartments for the deposit (webhook event partner_locker.delivery.doors_opened); a recipient's pickup code opens them once the deposit is confirmed; `compartments` lists the doors to open. A code that opens nothing is VALIDATION_FAILED on `code`; 5 wrong codes within 10 minutes lock the screen for everyone, right codes included, for 10 minutes, then longer (TOO_MANY_ATTEMPTS; locker_code_lock_lift lifts it). A key of another locker answers NOT_FOUND.",
  tag: 'Lockers',
  roles: ['client_admin'],
  auth: 'device_key',
  business: true,
  rest: { method: 'POST', path: '/v1/lockers/{device_id}/code' },
  failures: {
    NOT_FOUND: NOT_THIS_DEVICE,
    TOO_MANY_ATTEMPTS: 'The screen is locked after repeated wrong codes, even for the right one; see Retry-After',
  },
  input: ScreenInput,
  output: ScreenAnswer,
  handler: (input, ctx) =>
    enterCode(ctx, ownDevice(ctx.caller, input.device_id), input.code, deviceKeySubject(ctx.caller.tokenHash)),
});

export const lockerCourierConfirmed = defineOperation({
  name: 'locker_courier_confirmed',
  summary: 'The courier pressed "done" on the locker\'s screen: the deposit is confirmed.',
  description:
    'Called by the locker with its own device key once the courier has put the parcels in. The delivery becomes delivered (confirmed_by courier_terminal): the webhook event partner_locker.delivery.delivered is sent and the recipient is mailed the pickup code. Refuses a delivery that is not into this locker, or a key of another locker (NOT_FOUND), and a delivery with no deposit under way (INVALID_TRANSITION). The provider confirms with locker_delivery_confirm instead.',
  tag: 'Lockers',
  roles: ['client_admin'],
  auth: 'device_key',
  business: true,
  rest: { method: 'POST', path: '/v1/lockers/{device_id}/confirm' },
  failures: {
    NOT_FOUND: `${NOT_THIS_DEVICE}, or no delivery into this locker has this id`,
    INVALID_TRANSITION: 'No deposit under way',
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
    let confirmed = false;
    for (const done of hooksOf('courierDone')) confirmed ||= await done(ctx, device, input.delivery_id);
    if (!confirmed) throw errors.notFound();
    return {
      result: true as const,
      delivery_id: input.delivery_id,
      status: 'delivered' as const,
      confirmed_by: 'courier_terminal' as const,
    };
  },
});
