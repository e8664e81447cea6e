/**
 * The wallet's answers (docs/customer-services.md, "Operations"): money as exact decimal strings. For a customer
 * whose business hides a price family from it, what would show that family's prices is left out ("Price hiding").
 */
import { z } from 'zod';

const money = (what: string) =>
  z
    .string()
    .describe(`${what}, a decimal string with the currency's decimals`)
    .meta({ examples: ['25.00'] });

/** A figure a price-hidden answer leaves out. */
const hiddenMoney = (what: string) =>
  z
    .string()
    .optional()
    .describe(`${what}, a decimal string with the currency's decimals`)
    .meta({ examples: ['25.00'] });

export const WalletBalanceView = z.object({
  currency: z.string().describe('ISO 4217'),
  balance: money('Posted credits less posted debits'),
  available: money('What may be spent now: the balance less what is held'),
  held: money('Held by pending payments (holds) until they are posted or voided'),
});
export type WalletBalanceView = z.input<typeof WalletBalanceView>;

export const EntryView = z.object({
  id: z.number().int(),
  transfer_id: z.number().int(),
  code: z
    .enum(['top_up', 'payment', 'refund', 'storage_fee', 'hold', 'hold_post', 'hold_void'])
    .describe('What moved the money'),
  currency: z.string(),
  amount: z
    .string()
    .optional()
    .describe(
      'Signed: positive raises the wallet, negative takes from it; absent when price_hidden (the entry pays, refunds or charges a service family whose prices the business hides from you)',
    )
    .meta({ examples: ['-12.50'] }),
  balance_after: hiddenMoney('The balance after this entry; absent when price_hidden'),
  price_hidden: z
    .literal(true)
    .optional()
    .describe(
      "Present when the entry's order or fee belongs to a service family whose prices the business hides from you: amount and balance_after are left out",
    ),
  reference: z
    .object({ type: z.string(), id: z.string() })
    .nullable()
    .describe(
      "What the transfer pays, holds, refunds or charges (shipping_order, storage_order, shipout, storage_fee), when it names one; a hold_post names its hold's",
    ),
  memo: z.string().nullable(),
  created_at: z.string(),
});
export type EntryView = z.input<typeof EntryView>;

export const CreditsShape = {
  ...WalletBalanceView.shape,
  currency: z.string().describe("ISO 4217: the business's customer-services currency, which new payments use"),
  owed: hiddenMoney(
    'Storage fees due that the wallet could not pay yet; absent while the business hides storage service prices from you',
  ),
  in_arrears: z.boolean().describe('true while anything is owed'),
  currencies: z
    .array(WalletBalanceView)
    .describe(
      'Every currency the customer holds a wallet in (a business that changed its currency leaves the old one)',
    ),
  entries: z.array(EntryView).describe('The newest entries across the currencies, newest first'),
};

export const CreditsAnswer = z.object({ result: z.literal(true), ...CreditsShape });
export const CustomerWalletAnswer = z.object({
  result: z.literal(true),
  customer_id: z.number().int(),
  ...CreditsShape,
});

export const TopUpView = z.object({
  id: z.number().int(),
  idempotency_key: z.string(),
  code: z.literal('top_up'),
  currency: z.string(),
  amount: money('What was credited'),
  memo: z.string().nullable(),
  created_at: z.string(),
});
