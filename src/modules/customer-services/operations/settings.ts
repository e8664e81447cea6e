/** The business's customer-services settings (docs/customer-services.md, "The catalog"): client admins only. */
import { z } from 'zod';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { customerServiceSettings, setSettings } from '../repo/settings.ts';
import { SettingsView } from '../views.ts';

const TAG = 'Customer services';

/** ISO 4217 codes of money, as the delivery price model takes them. */
const CURRENCIES: ReadonlySet<string> = new Set(
  Intl.supportedValuesOf('currency').filter(
    (c) => /^[A-Z]{3}$/.test(c) && !/^X(AG|AU|BA|BB|BC|BD|DR|PD|PT|SU|TS|UA|XX)$/.test(c),
  ),
);

const SettingsAnswer = z.object({ result: z.literal(true), settings: SettingsView });
const EXAMPLE = { currency: 'USD', unpaid_expiry_seconds: 86_400, storage_day_seconds: 86_400 };

export const getSettings = defineOperation({
  name: 'get_customer_service_settings',
  summary: 'The currency, unpaid expiry and storage day of the customer services.',
  description:
    'The business’s customer-services settings: `currency` (wallets and prices; USD until set), `unpaid_expiry_seconds` (an unpaid order expires then; 86400 until set) and `storage_day_seconds` (the length of a storage day; 86400 until set). Client admins only.',
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'GET', path: '/v1/client/customer-services/settings' },
  graphql: { name: 'customerServiceSettings', kind: 'query' },
  input: z.object({}).strict(),
  output: SettingsAnswer,
  examples: { input: {}, output: { result: true, settings: EXAMPLE } },
  async handler(_input, ctx) {
    return { result: true as const, settings: await customerServiceSettings(ctx.em, ctx.caller.businessId) };
  },
});

export const setSettingsOp = defineOperation({
  name: 'set_customer_service_settings',
  summary: 'Change the customer-services settings: the fields sent.',
  description:
    'Changes only the fields sent and answers the settings. `currency` is an ISO 4217 code of money; a new currency applies to orders and wallets made after (wallets already held keep theirs). `unpaid_expiry_seconds` and `storage_day_seconds` are at least 1 (a shorter storage day compresses storage time for tests and demos); they apply to orders made after. Client admins only.',
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'PUT', path: '/v1/client/customer-services/settings' },
  graphql: { name: 'customerServiceSettingsSet', kind: 'mutation' },
  input: z
    .object({
      currency: z
        .string()
        .regex(/^[A-Z]{3}$/, 'ISO 4217 code')
        .refine((c) => CURRENCIES.has(c), { params: { key: 'customer_services.unknown_currency' } })
        .optional()
        .describe('ISO 4217, upper case')
        .meta({ examples: ['EUR'] }),
      unpaid_expiry_seconds: z.number().int().min(1).max(31_536_000).optional(),
      storage_day_seconds: z.number().int().min(1).max(31_536_000).optional(),
    })
    .strict(),
  output: SettingsAnswer,
  examples: { input: { currency: 'EUR' }, output: { result: true, settings: { ...EXAMPLE, currency: 'EUR' } } },
  async handler(input, ctx) {
    return { result: true as const, settings: await setSettings(ctx.em, ctx.caller.businessId, input) };
  },
});
