/**
 * Carrier accounts (docs/labels.md, "Carrier accounts"): a client admin connects the business to carriers. The
 * credentials are checked by the carrier's own schema, sealed before they are written, and never shown again: an
 * answer names the keys that are set (`credential_fields`).
 */
import { z } from 'zod';
import { errors } from '../../../platform/errors.ts';
import { pathId } from '../../../platform/catalog/schemas.ts';
import { parseInput } from '../../../platform/catalog/validate.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import type { Em } from '../../../platform/db/orm.ts';
import type { LabelParty } from '../carriers/adapter.ts';
import { SANDBOX_PARCEL, SANDBOX_SWIFT } from '../carriers/sandbox/tariffs.ts';
import { adapterFor, CARRIER_CODES } from '../carriers/registry.ts';
import { fail } from '../errorCodes.ts';
import {
  accountById,
  businessAccounts,
  credentialFields,
  deactivateAccount,
  insertAccount,
  updateAccount,
  type AccountRow,
} from '../repo/accounts.ts';
import { LabelPartyInput, partyOf, PartyView } from '../views.ts';

const TAG = 'Labels';

const AccountView = z.object({
  id: z.number().int(),
  carrier: z.string(),
  carrier_name: z.string(),
  name: z.string(),
  account_number: z.string(),
  credential_fields: z.array(z.string()).describe('The names of the credentials set; their values are never shown'),
  currency: z.string().describe('ISO 4217: the currency its rates are asked in'),
  default_shipper: PartyView.nullable().describe('Who sends a shipment rated without `shipper`'),
  active: z.boolean().describe('false once disconnected: no new rates; its labels stay readable and voidable'),
  created_at: z.string(),
  updated_at: z.string(),
});
type AccountView = z.input<typeof AccountView>;

const AccountAnswer = z.object({ result: z.literal(true), carrier_account: AccountView });

const name = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .describe('Your name for the account')
  .meta({ examples: ['Swift main'] });
const accountNumber = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .describe("The account's number at the carrier; a business connects a carrier and account number once")
  .meta({ examples: ['SWF-000123'] });
const credentials = z
  .record(z.string().min(1).max(64), z.string().max(2000))
  .describe("The carrier's credentials, checked by the carrier's schema; sealed at rest and never shown again")
  .meta({ examples: [{ api_key: 'sbx_demo' }] });
const currency = z
  .string()
  .regex(/^[A-Z]{3}$/, 'ISO 4217 code')
  .describe('ISO 4217 code, upper case: the currency the carrier prices in')
  .meta({ examples: ['EUR'] });

function present(ctx: BusinessContext, row: AccountRow): AccountView {
  return {
    id: row.id,
    carrier: row.carrier,
    carrier_name: adapterFor(row.carrier, ctx).name,
    name: row.name,
    account_number: row.account_number,
    credential_fields: credentialFields(row),
    currency: row.currency,
    default_shipper: row.default_shipper ? partyOf(row.default_shipper) : null,
    active: row.active,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** The credentials as the carrier's own schema reads them: 422 on `credentials.<key>` otherwise. */
function checkedCredentials(ctx: BusinessContext, carrier: string, given: Record<string, string>) {
  const schema = z.object({ credentials: adapterFor(carrier, ctx).credentials }).strict();
  return parseInput(schema, { credentials: given }).credentials;
}

export const carrierAccountList = defineOperation({
  name: 'labelservice_carrier_accounts',
  summary: "The business's carrier accounts, connected and disconnected; credentials are never shown.",
  description:
    'Every carrier account of the business, oldest first, with `active: false` for those disconnected (their labels stay readable). Credentials are never answered: `credential_fields` names the keys that are set.',
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'GET', path: '/v1/labelservice/carrier-accounts' },
  graphql: { name: 'carrierAccounts', kind: 'query' },
  input: z.object({}).strict(),
  output: z.object({ result: z.literal(true), carrier_accounts: z.array(AccountView) }),
  async handler(_input, ctx) {
    const rows = await businessAccounts(ctx.em, ctx.caller.businessId);
    return { result: true as const, carrier_accounts: rows.map((r) => present(ctx, r)) };
  },
});

export const carrierAccountCreate = defineOperation({
  name: 'labelservice_carrier_account_create',
  summary: 'Connect the business to a carrier with its account number and credentials.',
  description:
    "Checks `credentials` with the carrier's own schema (VALIDATION_FAILED on `credentials.<key>`; the sandbox carriers take an optional `api_key`, and `sbx_bad_key` makes every later carrier call fail AUTH_FAILED), seals them and answers 201 with the account (credentials never shown again). A carrier and account number the business has connected already is CARRIER_ACCOUNT_TAKEN; one it disconnected before is connected again with these fields. `currency` (EUR by default) is what the carrier prices in; `default_shipper` is used by rates asked without `shipper`.",
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'POST', path: '/v1/labelservice/carrier-accounts', status: 201 },
  graphql: { name: 'carrierAccountCreate', kind: 'mutation' },
  failures: { CARRIER_ACCOUNT_TAKEN: true },
  input: z
    .object({
      carrier: z.enum(CARRIER_CODES).describe('The carrier code'),
      name,
      account_number: accountNumber,
      credentials,
      currency: currency.optional(),
      default_shipper: LabelPartyInput.nullish(),
    })
    .strict(),
  output: AccountAnswer,
  async handler(input, ctx) {
    const row = await insertAccount(ctx.em, ctx.caller.businessId, {
      carrier: input.carrier,
      name: input.name,
      account_number: input.account_number,
      credentials: checkedCredentials(ctx, input.carrier, input.credentials),
      currency: input.currency ?? 'EUR',
      default_shipper: input.default_shipper ? partyOf(input.default_shipper) : null,
    });
    if (!row) throw fail('CARRIER_ACCOUNT_TAKEN', 'labels.carrier_account_taken');
    return { result: true as const, carrier_account: present(ctx, row) };
  },
});

export const carrierAccountUpdate = defineOperation({
  name: 'labelservice_carrier_account_update',
  summary: 'Change a connected carrier account: the fields sent; credentials replace the whole set.',
  description:
    "Changes only the fields sent; `credentials` replaces every credential (checked by the carrier's schema, VALIDATION_FAILED on `credentials.<key>`), and `default_shipper: null` removes the default shipper. Rates already made keep the account as it was asked. An account number the business has connected already for this carrier is CARRIER_ACCOUNT_TAKEN; an unknown id, another business's or a disconnected account is NOT_FOUND.",
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'PUT', path: '/v1/labelservice/carrier-accounts/{id}' },
  graphql: { name: 'carrierAccountUpdate', kind: 'mutation' },
  failures: { NOT_FOUND: 'No connected carrier account of the business has this id', CARRIER_ACCOUNT_TAKEN: true },
  input: z
    .object({
      id: pathId,
      name: name.optional(),
      account_number: accountNumber.optional(),
      credentials: credentials.optional(),
      currency: currency.optional(),
      default_shipper: LabelPartyInput.nullish(),
    })
    .strict(),
  output: AccountAnswer,
  async handler(input, ctx) {
    const businessId = ctx.caller.businessId;
    const current = await accountById(ctx.em, businessId, input.id);
    if (!current?.active) throw errors.notFound();
    const row = await updateAccount(ctx.em, businessId, input.id, {
      ...(input.name !== undefined && { name: input.name }),
      ...(input.account_number !== undefined && { account_number: input.account_number }),
      ...(input.credentials !== undefined && {
        credentials: checkedCredentials(ctx, current.carrier, input.credentials),
      }),
      ...(input.currency !== undefined && { currency: input.currency }),
      ...(input.default_shipper !== undefined && {
        default_shipper: input.default_shipper ? partyOf(input.default_shipper) : null,
      }),
    });
    if (row === 'taken') throw fail('CARRIER_ACCOUNT_TAKEN', 'labels.carrier_account_taken');
    if (!row) throw errors.notFound();
    return { result: true as const, carrier_account: present(ctx, row) };
  },
});

export const carrierAccountDelete = defineOperation({
  name: 'labelservice_carrier_account_delete',
  summary: 'Disconnect a carrier account: no new rates; its labels can still be read, voided and manifested.',
  description:
    'Sets the account inactive (it stays listed with `active: false`): it gives no new rates and its unused rates buy nothing (NO_CARRIER_ACCOUNT), while the labels bought with it can still be read, voided and handed over. Connecting the same carrier and account number again (create) reactivates it. An unknown id, another business’s or an account already disconnected is NOT_FOUND.',
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'DELETE', path: '/v1/labelservice/carrier-accounts/{id}' },
  graphql: { name: 'carrierAccountDelete', kind: 'mutation' },
  failures: { NOT_FOUND: 'No connected carrier account of the business has this id' },
  input: z.object({ id: pathId }).strict(),
  output: AccountAnswer,
  async handler(input, ctx) {
    const row = await deactivateAccount(ctx.em, ctx.caller.businessId, input.id);
    if (!row) throw errors.notFound();
    return { result: true as const, carrier_account: present(ctx, row) };
  },
});

/** Where the demo business ships from: its depot in Prague (src/main/seed.ts). */
export const DEMO_SHIPPER: LabelParty = {
  name: 'Demo Depot',
  company: 'Demo',
  phone: '+420 200 000 000',
  email: null,
  address: {
    line1: 'Wenceslas Square 1',
    line2: null,
    city: 'Prague',
    state: null,
    postal_code: '11000',
    country: 'CZ',
  },
};

/**
 * Connects both sandbox carriers to a business with a default shipper (the demo seed), so it can rate at once. An
 * account the business has (connected or disconnected) is left as it is: seeding again changes nothing.
 */
export async function connectSandboxCarriers(em: Em, businessId: number, shipper: LabelParty = DEMO_SHIPPER) {
  const existing = await businessAccounts(em, businessId);
  for (const { code: carrier, name } of [SANDBOX_SWIFT, SANDBOX_PARCEL]) {
    const accountNumber = `DEMO-${carrier.slice('sandbox_'.length).toUpperCase()}`;
    if (existing.some((a) => a.carrier === carrier && a.account_number === accountNumber)) continue;
    // Unsealed here: the seed runs before the start-up step, which seals it, and maybe where no key is installed.
    await insertAccount(
      em,
      businessId,
      {
        carrier,
        name: `${name} (demo)`,
        account_number: accountNumber,
        credentials: { api_key: 'sbx_demo' },
        currency: 'EUR',
        default_shipper: shipper,
      },
      { seal: false },
    );
  }
}
