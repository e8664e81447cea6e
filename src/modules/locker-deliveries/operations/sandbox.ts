/**
 * What a partner locker provider uses to find its lockers and to play its sandbox deliveries to the end without a
 * locker: on a sandbox locker it types the codes itself, and the simulator reports the doors
 * (docs/locker-deliveries.md, Sandbox).
 */
import { z } from 'zod';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { errors } from '../../../platform/errors.ts';
import { COMPARTMENT_SIZES, enterCode, ScreenAnswer, ScreenInput } from '../../lockers/index.ts';
import { findGrantedSandbox, listGrantedLockers } from '../repo/partners.ts';

const TAG = 'Partner Locker';
const PROVIDER = ['locker_provider'] as const;

export const partnerLockerList = defineOperation({
  name: 'partner_locker_list',
  summary: 'The lockers this provider may deliver into, sandbox lockers last, with their free compartments by size.',
  description:
    'Lists the lockers of every business that granted this provider, each with its device code (the `device_id` locker_delivery_create takes) and its free compartments per size right now. Deliveries into a sandbox locker (`sandbox: true`) are test deliveries: their events carry `livemode: false`, and partner_locker_sandbox_code plays the screen. An empty list means no business has granted this provider yet.',
  tag: TAG,
  roles: PROVIDER,
  business: true,
  rest: { method: 'GET', path: '/v1/partner-locker/lockers' },
  input: z.object({}).strict(),
  output: z.object({
    result: z.literal(true),
    lockers: z.array(
      z
        .object({
          device_id: z.string(),
          name: z.string(),
          sandbox: z.boolean().describe('A simulated locker: deliveries into it are sandbox deliveries'),
          free: z
            .object(
              Object.fromEntries(COMPARTMENT_SIZES.map((s) => [s, z.number().int()])) as Record<
                (typeof COMPARTMENT_SIZES)[number],
                z.ZodNumber
              >,
            )
            .strict()
            .describe('Free compartments by size'),
        })
        .strict(),
    ),
  }),
  async handler(_input, ctx) {
    return { result: true as const, lockers: await listGrantedLockers(ctx.em, ctx.caller.businessId) };
  },
});

export const partnerLockerSandboxCode = defineOperation({
  name: 'partner_locker_sandbox_code',
  summary: "Type a code on a sandbox locker's screen, as a courier or a recipient would.",
  description:
    "Use it to play a sandbox delivery to its end without a locker: a delivery code opens the deposit's doors, a pickup code (from the `delivered` event) opens them for the pickup, and the simulator reports each opened door closed 5 seconds later. A wrong code is VALIDATION_FAILED on `code`; 5 wrong codes within 10 minutes lock the screen (TOO_MANY_ATTEMPTS with Retry-After). A real locker, or one not granted to this provider, is NOT_FOUND.",
  tag: TAG,
  roles: PROVIDER,
  business: true,
  rest: { method: 'POST', path: '/v1/partner-locker/sandbox/{device_id}/code' },
  failures: {
    NOT_FOUND: 'No sandbox locker this provider may deliver into has this id',
    TOO_MANY_ATTEMPTS: 'The screen is locked after repeated wrong codes; see Retry-After',
  },
  input: ScreenInput,
  output: ScreenAnswer,
  async handler(input, ctx) {
    const device = await findGrantedSandbox(ctx.em, ctx.caller.businessId, input.device_id);
    if (!device) throw errors.notFound();
    return enterCode(ctx, device, input.code, `caller:${ctx.caller.id}`);
  },
});
