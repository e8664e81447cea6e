/**
 * The wallet's operations (docs/customer-services.md, "Operations"): the customer reads its own wallet, a client
 * admin tops one up, staff read any customer's of the business. Every read and write is scoped to the caller's
 * business; a customer id that is not a customer account of it is 404.
 */
import { owedBy } from '../hooks.ts';
import { z } from 'zod';
import { intParam, pathId } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import type { Em } from '../../../platform/db/orm.ts';
import type { PriceFamily } from '../../../platform/db/outbox.ts';
import { errors } from '../../../platform/errors.ts';
import { formatDecimal, minorDigits, parseDecimal } from '../../delivery-prices/index.ts';
import { transfer } from '../ledger.ts';
import {
  businessCurrency,
  customerOfBusiness,
  hiddenFamiliesOf,
  newestEntries,
  walletAccounts,
  type AccountRow,
} from '../repo/ledger.ts';
import { CreditsAnswer, CustomerWalletAnswer, TopUpView, WalletBalanceView, type EntryView } from '../views.ts';

const TAG = 'Wallet';

const entriesLimit = intParam(100)
  .default(20)
  .describe('How many of the newest entries to answer, 1 to 100 (20 by default)');

function balanceOf(currency: string, row: AccountRow | undefined): WalletBalanceView {
  const scale = minorDigits(currency);
  const balance = row ? row.credits_posted - row.debits_posted : 0n;
  const held = row ? row.debits_pending : 0n;
  return {
    currency,
    balance: formatDecimal(balance, scale),
    available: formatDecimal(balance - held, scale),
    held: formatDecimal(held, scale),
  };
}

/** The price family of what a transfer names (docs/customer-services.md, "Price hiding"); top-ups name nothing. */
const FAMILY_OF_REFERENCE: Readonly<Record<string, PriceFamily>> = {
  shipping_order: 'shipping_service',
  storage_order: 'storage_services',
  shipout: 'storage_services',
  storage_fee: 'storage_services',
};

/**
 * The wallet answer of one customer. `owed` and `in_arrears` are the storage fees the wallet could not pay, in the
 * current currency: the storage module keeps them on its fee rows and reports them through the walletOwed hook.
 * `hidden` are the price families the business hides from the reader (none for staff): an entry naming an order or
 * fee of one carries no amount and no balance_after but `price_hidden: true`, and `owed` is left out while storage
 * services are hidden; the balances and `in_arrears` stay.
 */
async function creditsOf(
  em: Em,
  businessId: number,
  customerId: number,
  limit: number,
  hidden: readonly PriceFamily[],
) {
  const currency = await businessCurrency(em, businessId);
  const accounts = await walletAccounts(em, businessId, customerId);
  const entries = await newestEntries(
    em,
    accounts.map((a) => a.id),
    limit,
  );
  const owed = (await owedBy(em, businessId, customerId)).get(currency) ?? 0n;
  const current = balanceOf(
    currency,
    accounts.find((a) => a.currency === currency),
  );
  const familyHidden = (type: string | null) => {
    const family = type === null ? undefined : FAMILY_OF_REFERENCE[type];
    return family !== undefined && hidden.includes(family);
  };
  return {
    ...current,
    ...(hidden.includes('storage_services') ? {} : { owed: formatDecimal(owed, minorDigits(currency)) }),
    in_arrears: owed > 0n,
    currencies: accounts.map((a) => balanceOf(a.currency, a)),
    entries: entries.map((e): EntryView => ({
      id: e.id,
      transfer_id: e.transfer_id,
      code: e.code,
      currency: e.currency,
      ...(familyHidden(e.reference_type)
        ? { price_hidden: true as const }
        : {
            amount: formatDecimal(e.amount, minorDigits(e.currency)),
            balance_after: formatDecimal(e.balance_after, minorDigits(e.currency)),
          }),
      reference: e.reference_type && e.reference_id ? { type: e.reference_type, id: e.reference_id } : null,
      memo: e.memo,
      created_at: e.created_at,
    })),
  };
}

async function customerOf(ctx: BusinessContext, id: number): Promise<number> {
  if (!(await customerOfBusiness(ctx.em, ctx.caller.businessId, id))) throw errors.notFound();
  return id;
}

const CREDITS_EXAMPLE = {
  result: true as const,
  currency: 'USD',
  balance: '40.00',
  available: '25.00',
  held: '15.00',
  owed: '0.00',
  in_arrears: false,
  currencies: [{ currency: 'USD', balance: '40.00', available: '25.00', held: '15.00' }],
  entries: [
    {
      id: 12,
      transfer_id: 7,
      code: 'payment' as const,
      currency: 'USD',
      amount: '-10.00',
      balance_after: '40.00',
      reference: { type: 'shipping_order', id: '31' },
      memo: null,
      created_at: '2026-12-10T09:30:00.000Z',
    },
    {
      id: 10,
      transfer_id: 6,
      code: 'top_up' as const,
      currency: 'USD',
      amount: '50.00',
      balance_after: '50.00',
      reference: null,
      memo: 'Bank transfer 2026-12-09',
      created_at: '2026-12-10T09:00:00.000Z',
    },
  ],
};

export const getAccountCredits = defineOperation({
  name: 'get_account_credits',
  summary: "The customer's wallet: balance, available and held amounts, what is owed, and the newest entries.",
  description:
    "For a customer account only (staff read a customer's wallet with get_customer_wallet). `balance` is what was credited less what was paid; `available` is the balance less `held` (pending payments such as a paid ship-out not handed over yet); `owed` is storage fees the wallet could not pay, and `in_arrears` is true while anything is owed. The amounts are in the business's customer-services currency; `currencies` lists every currency the customer holds a wallet in. `entries` are the newest ledger entries across them, newest first (`entries_limit`, 1 to 100, 20 by default). The balances are the customer's own money and are always shown; when the business hides a service family's prices from the customer (shipping_service: shipping orders; storage_services: storage orders, ship-outs, storage fees), an entry naming an order or fee of that family leaves out `amount` and `balance_after` and carries `price_hidden: true`, and `owed` is left out while storage services are hidden (`in_arrears` stays). A hold's post names the hold's order.",
  tag: TAG,
  roles: ['customer'],
  business: true,
  rest: { method: 'GET', path: '/v1/customer/credits' },
  graphql: { name: 'accountCredits', kind: 'query' },
  mcp: { scope: 'analytics:read', risk: 'low' },
  input: z.object({ entries_limit: entriesLimit }).strict(),
  output: CreditsAnswer,
  examples: { input: { entries_limit: 20 }, output: CREDITS_EXAMPLE },
  async handler(input, ctx) {
    const businessId = ctx.caller.businessId;
    const hidden = await hiddenFamiliesOf(ctx.em, businessId, ctx.caller.id);
    const credits = await creditsOf(ctx.em, businessId, ctx.caller.id, input.entries_limit, hidden);
    return { result: true as const, ...credits };
  },
});

export const getCustomerWallet = defineOperation({
  name: 'get_customer_wallet',
  summary: "One customer's wallet, as the customer reads it with get_account_credits.",
  description:
    "The answer of get_account_credits for one customer account of the caller's business, with its `customer_id`; staff see every amount, whatever prices the business hides from the customer. An id that is not a customer of the business (another business's, a staff account, unknown) is NOT_FOUND.",
  tag: TAG,
  roles: ['client_admin', 'employee'],
  business: true,
  rest: { method: 'GET', path: '/v1/client/customers/{id}/wallet' },
  graphql: { name: 'customerWallet', kind: 'query' },
  failures: { NOT_FOUND: 'No customer account of the business has this id.' },
  input: z.object({ id: pathId.describe('The customer account'), entries_limit: entriesLimit }).strict(),
  output: CustomerWalletAnswer,
  examples: { input: { id: 42, entries_limit: 20 }, output: { ...CREDITS_EXAMPLE, customer_id: 42 } },
  async handler(input, ctx) {
    const id = await customerOf(ctx, input.id);
    const credits = await creditsOf(ctx.em, ctx.caller.businessId, id, input.entries_limit, []);
    return { result: true as const, customer_id: id, ...credits };
  },
});

const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,128}$/;

/** The most one top-up credits, in major units of the currency. */
const TOP_UP_LIMIT = 1_000_000n;

export const creditCustomerWallet = defineOperation({
  name: 'credit_customer_wallet',
  summary: "Top up a customer's wallet with money received offline, once per idempotency key.",
  description:
    "Credits `amount` (a decimal string > 0 with the currency's decimals, at most 1000000 in the currency's major units: above is 422 on `amount`) to the wallet of a customer account of the business, in the business's customer-services currency: a transfer `top_up` from the business's funding account. `idempotency_key` (1 to 128 printable characters, unique per business) makes it happen once: the same request again answers the same transfer with `repeated: true` (200 both times), and the key with another customer, amount, currency or memo is 409 TRANSFER_KEY_REUSED. An id that is not a customer of the business is NOT_FOUND. A top-up that would take a ledger account above 10^15 minor units (the business's funding account counts every top-up) is 422 on `amount`, nothing moved.",
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'POST', path: '/v1/client/customers/{id}/wallet/credits' },
  graphql: { name: 'customerWalletCredit', kind: 'mutation' },
  failures: {
    NOT_FOUND: 'No customer account of the business has this id.',
    TRANSFER_KEY_REUSED: true,
  },
  input: z
    .object({
      id: pathId.describe('The customer account'),
      amount: z
        .string()
        .regex(/^\d{1,15}(\.\d{1,4})?$/, 'a decimal string')
        .describe("The amount to credit, > 0 and at most 1000000, with at most the currency's decimals")
        .meta({ examples: ['50.00'] }),
      idempotency_key: z
        .string()
        .regex(IDEMPOTENCY_KEY, '1 to 128 printable characters')
        .describe('Makes the top-up happen once: a repeat with the same fields answers the same transfer')
        .meta({ examples: ['bank-2026-12-09-0042'] }),
      memo: z.string().trim().min(1).max(500).optional().describe('Shown with the entry in the statement'),
    })
    .strict(),
  output: z.object({
    result: z.literal(true),
    repeated: z.boolean().describe('true when the key named this top-up already: nothing moved this time'),
    transfer: TopUpView,
    wallet: WalletBalanceView,
  }),
  examples: {
    input: { id: 42, amount: '50.00', idempotency_key: 'bank-2026-12-09-0042', memo: 'Bank transfer 2026-12-09' },
    output: {
      result: true,
      repeated: false,
      transfer: {
        id: 6,
        idempotency_key: 'bank-2026-12-09-0042',
        code: 'top_up',
        currency: 'USD',
        amount: '50.00',
        memo: 'Bank transfer 2026-12-09',
        created_at: '2026-12-10T09:00:00.000Z',
      },
      wallet: { currency: 'USD', balance: '50.00', available: '50.00', held: '0.00' },
    },
  },
  async handler(input, ctx) {
    const businessId = ctx.caller.businessId;
    const id = await customerOf(ctx, input.id);
    const currency = await businessCurrency(ctx.em, businessId);
    const scale = minorDigits(currency);
    const amount = parseDecimal(input.amount, scale);
    if (amount === null) throw errors.field('amount', 'wallet.amount_format', { digits: scale, currency });
    if (amount <= 0n) throw errors.field('amount', 'wallet.amount_positive');
    const cap = TOP_UP_LIMIT * 10n ** BigInt(scale);
    if (amount > cap) {
      throw errors.field('amount', 'wallet.top_up_limit', { limit: formatDecimal(cap, scale), currency });
    }
    const done = await ctx.em.transactional(async (em) => {
      const result = await transfer(em, {
        businessId,
        key: `top_up:${input.idempotency_key}`,
        currency,
        code: 'top_up',
        amount,
        debit: { kind: 'funding' },
        credit: { kind: 'wallet', customerId: id },
        memo: input.memo,
      });
      const wallet = (await walletAccounts(em, businessId, id)).find((a) => a.currency === result.transfer.currency);
      return { ...result, wallet: balanceOf(result.transfer.currency, wallet) };
    });
    return {
      result: true as const,
      repeated: done.repeated,
      transfer: {
        id: done.transfer.id,
        idempotency_key: input.idempotency_key,
        code: 'top_up' as const,
        currency: done.transfer.currency,
        amount: formatDecimal(done.transfer.amount, minorDigits(done.transfer.currency)),
        memo: input.memo ?? null,
        created_at: done.transfer.created_at,
      },
      wallet: done.wallet,
    };
  },
});

export const WALLET_OPERATIONS = [getAccountCredits, creditCustomerWallet, getCustomerWallet];
