/**
 * What a business decides about partner deliveries into its lockers (client admin): which providers may deliver,
 * and the timers each new delivery copies (docs/locker-deliveries.md, Timers and business settings).
 */
import { z } from 'zod';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { pathCode } from '../../../platform/catalog/schemas.ts';
import { errors } from '../../../platform/errors.ts';
import { LOCKER_SETTING_BOUNDS, LOCKER_SETTING_NAMES, type LockerSettings } from '../domain.ts';
import {
  findLockerProvider,
  grantLockerPartner,
  listLockerPartners,
  readLockerSettings,
  revokeLockerPartner,
  writeLockerSettings,
} from '../repo/partners.ts';

const TAG = 'Lockers';
const ADMIN = ['client_admin'] as const;

const SETTING_TEXT: Record<keyof LockerSettings, string> = {
  delivery_code_ttl_hours: 'An unused delivery code expires after this many hours',
  deposit_timeout_minutes:
    'After this many minutes since the last opening, a deposit whose doors are all closed settles (timeout_door_closed)',
  pickup_ttl_hours: 'An uncollected deposit expires after this many hours',
  correction_window_minutes:
    'The courier may reopen compartments this many minutes after the deposit is confirmed (0: never)',
  code_rotation_hours:
    "A delivered deposit's pickup code is replaced every this many hours and the recipient told (0: never)",
};
const setting = (k: keyof LockerSettings) =>
  z
    .number()
    .int()
    .min(LOCKER_SETTING_BOUNDS[k].min)
    .max(LOCKER_SETTING_BOUNDS[k].max)
    .describe(`${SETTING_TEXT[k]}; default ${LOCKER_SETTING_BOUNDS[k].default}`);
const SettingsView = z
  .object(
    Object.fromEntries(LOCKER_SETTING_NAMES.map((k) => [k, setting(k)])) as Record<
      keyof LockerSettings,
      ReturnType<typeof setting>
    >,
  )
  .strict();
const settingsResult = z.object({ result: z.literal(true), settings: SettingsView });

export const lockerSettingsGet = defineOperation({
  name: 'locker_settings_get',
  summary: "The business's timers for partner deliveries into its lockers, each its default until set.",
  description:
    "Answers the five timers every new partner delivery into the business's lockers copies: how long a delivery code stays valid, when a deposit with its doors closed settles by itself, how long a deposit waits for its recipient, the courier's correction window and the periodic pickup-code rotation. Deliveries already made keep their own copy. Change them with locker_settings_update.",
  tag: TAG,
  roles: ADMIN,
  business: true,
  rest: { method: 'GET', path: '/v1/locker-settings' },
  input: z.object({}).strict(),
  output: settingsResult,
  async handler(_input, ctx) {
    return { result: true as const, settings: await readLockerSettings(ctx.em, ctx.caller.businessId) };
  },
});

export const lockerSettingsUpdate = defineOperation({
  name: 'locker_settings_update',
  summary: "Change the business's timers for partner deliveries into its lockers; fields left out keep their value.",
  description:
    'Each value is an integer within its bounds (hours 1 to 720, the deposit timeout 1 to 1440 minutes, the correction window 0 to 1440 minutes, the rotation 0 to 720 hours; 0 turns the last two off); a value outside answers VALIDATION_FAILED naming the field. Deliveries under way keep the timers they started with; new ones copy these. Answers every setting. Sending the same values again changes nothing.',
  tag: TAG,
  roles: ADMIN,
  business: true,
  rest: { method: 'PUT', path: '/v1/locker-settings' },
  input: SettingsView.partial(),
  output: settingsResult,
  async handler(input, ctx) {
    return { result: true as const, settings: await writeLockerSettings(ctx.em, ctx.caller.businessId, input) };
  },
});

const PartnerView = z
  .object({
    provider_code: z.string().describe("The provider account's code"),
    provider_name: z.string(),
    granted_at: z.string().meta({ format: 'date-time' }),
  })
  .strict();
const providerCode = pathCode(64).describe("The locker provider account's code");

export const lockerPartnerList = defineOperation({
  name: 'locker_partner_list',
  summary: "The partner locker providers that may deliver into the business's lockers.",
  description:
    "Each entry is a provider account's code and name, and when it was granted. A granted provider may create deliveries into any locker of the business, so review the list when a partnership ends. Grant with locker_partner_grant and revoke with locker_partner_revoke.",
  tag: TAG,
  roles: ADMIN,
  business: true,
  rest: { method: 'GET', path: '/v1/locker-partners' },
  input: z.object({}).strict(),
  output: z.object({ result: z.literal(true), partners: z.array(PartnerView) }),
  async handler(_input, ctx) {
    return { result: true as const, partners: await listLockerPartners(ctx.em, ctx.caller.businessId) };
  },
});

export const lockerPartnerGrant = defineOperation({
  name: 'locker_partner_grant',
  summary: "Let a partner locker provider deliver into the business's lockers (idempotent).",
  description:
    "`provider_code` is the code of a locker provider's account (role `locker_provider`). From then on that provider sees the business's lockers and may create deliveries into them. Granting again changes nothing and answers `granted: false`. Refuses a code that belongs to no locker provider account (NOT_FOUND).",
  tag: TAG,
  roles: ADMIN,
  business: true,
  rest: { method: 'PUT', path: '/v1/locker-partners/{provider_code}' },
  failures: { NOT_FOUND: 'No locker provider account has this code' },
  input: z.object({ provider_code: providerCode }).strict(),
  output: z.object({
    result: z.literal(true),
    granted: z.boolean().describe('False when the provider could already deliver'),
  }),
  async handler(input, ctx) {
    const provider = await findLockerProvider(ctx.em, input.provider_code);
    if (!provider) throw errors.notFound();
    return { result: true as const, granted: await grantLockerPartner(ctx.em, ctx.caller.businessId, provider.id) };
  },
});

export const lockerPartnerRevoke = defineOperation({
  name: 'locker_partner_revoke',
  summary: "Stop a provider's new deliveries into the business's lockers; those under way go on to their end.",
  description:
    "The provider no longer sees the business's lockers and cannot create deliveries into them; deliveries already created go on to their end, and the business still confirms or reads them. Refuses a provider that holds no grant here, or a code of no provider (NOT_FOUND), so a second revoke answers NOT_FOUND.",
  tag: TAG,
  roles: ADMIN,
  business: true,
  rest: { method: 'DELETE', path: '/v1/locker-partners/{provider_code}' },
  failures: { NOT_FOUND: "This provider may not deliver into the business's lockers" },
  input: z.object({ provider_code: providerCode }).strict(),
  output: z.object({ result: z.literal(true) }),
  async handler(input, ctx) {
    const provider = await findLockerProvider(ctx.em, input.provider_code);
    if (!provider || !(await revokeLockerPartner(ctx.em, ctx.caller.businessId, provider.id))) throw errors.notFound();
    return { result: true as const };
  },
});
