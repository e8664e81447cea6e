/**
 * The catalog's shapes (docs/customer-services.md, "The catalog"). Every price field of PriceView is optional: an
 * answer to a customer whose family is price-hidden leaves them out (with `price_hidden: true`, which the answering
 * module adds); a missing figure never means free.
 */
import { z } from 'zod';
import { WarehouseView } from '../wms/index.ts';

export const CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{0,31}$/;

export const serviceCode = z
  .string()
  .regex(CODE_PATTERN, 'A-Z, 0-9, _ and -, up to 32, starting with a letter or digit')
  .describe('Unique in the business among services of its kind: upper-case letters, digits, _ and -, up to 32')
  .meta({ examples: ['EXPRESS'] });

const money = z
  .string()
  .regex(/^\d{1,9}(\.\d{1,4})?$/, 'a decimal string, up to 4 decimals')
  .describe(
    'A decimal string in the business’s currency, up to 4 decimals (each price line is rounded to the currency’s minor unit)',
  );
const taxRate = z
  .string()
  .regex(/^\d{1,3}(\.\d{1,3})?$/, 'a percent, up to 3 decimals')
  .refine((v) => Number(v) <= 100, { params: { key: 'customer_services.tax_rate_range' } })
  .describe('Percent of the subtotal, up to 3 decimals, at most 100')
  .meta({ examples: ['21'] });
const kg = z
  .string()
  .regex(/^\d{1,6}(\.\d{1,3})?$/, 'kilograms, up to 3 decimals')
  .describe('Kilograms, up to 3 decimals');

export const MoneyInput = money;
export const TaxRateInput = taxRate;

/** How a shipment is priced: the delivery price model's figures (docs/orders.md, "Local prices"). */
export const ServicePricingInput = z
  .object({
    base_fee: money.meta({ examples: ['4.90'] }).describe('Charged once per shipment'),
    per_package: money.meta({ examples: ['1.00'] }).describe('Charged per package'),
    per_kg: money
      .meta({ examples: ['0.80'] })
      .describe('Per started kilogram the packages together weigh above included_weight_kg'),
    included_weight_kg: kg.meta({ examples: ['2'] }),
    tax_rate: taxRate,
  })
  .strict();

export const ServicePricingView = z.object({
  base_fee: z.string(),
  per_package: z.string(),
  per_kg: z.string(),
  included_weight_kg: z.string(),
  tax_rate: z.string(),
});

export const FulfilmentInput = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('own_fleet') }).strict(),
    z
      .object({
        kind: z.literal('carrier'),
        carrier: z
          .string()
          .min(1)
          .max(64)
          .describe('A carrier code of the labels module')
          .meta({ examples: ['sandbox_swift'] }),
        service: z
          .string()
          .min(1)
          .max(64)
          .describe('One of the carrier’s service codes')
          .meta({ examples: ['swift_express'] }),
      })
      .strict(),
  ])
  .describe('Who carries it: the business’s own fleet (a delivery order), or a carrier label bought for it');

export const FulfilmentView = z.union([
  z.object({ kind: z.literal('own_fleet') }),
  z.object({ kind: z.literal('carrier'), carrier: z.string(), service: z.string() }),
]);

export const PriceLineView = z.object({
  code: z.string().describe('base_fee, per_package, weight, handling_fee, storage'),
  description: z.string(),
  quantity: z.number().int(),
  unit_amount: z.string().describe('Exact, with at least the currency’s decimals'),
  amount: z.string().describe('The line, rounded half-up once to the currency’s minor unit'),
});

/** The price fields of an answer; each is left out when the caller's family is price-hidden. */
export const PriceView = z.object({
  currency: z.string().optional().describe('ISO 4217'),
  total: z.string().optional().describe('Subtotal of the lines plus tax'),
  tax: z.string().optional().describe('Taken once on the subtotal, rounded half-up'),
  price_details: z.array(PriceLineView).optional(),
});

export const SettingsView = z.object({
  currency: z.string().describe('ISO 4217: the wallets and prices of the customer services'),
  unpaid_expiry_seconds: z.number().int().describe('An unpaid order expires this long after it was made'),
  storage_day_seconds: z.number().int().describe('The length of a storage day (shorter ones compress time for tests)'),
});

const base = {
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  active: z.boolean().describe('false: not offered to customers; orders made with it stay'),
  created_at: z.string(),
  updated_at: z.string(),
};

export const ShippingServiceView = z.object({
  ...base,
  pricing: ServicePricingView.optional().describe('Left out when price-hidden'),
  fulfilment: FulfilmentView,
  max_packages: z.number().int(),
  max_weight_grams: z.number().int().nullable().describe('The largest package; null: no limit'),
});

export const StorageServiceView = z.object({
  ...base,
  warehouse_id: z.number().int(),
  warehouse: WarehouseView.optional(),
  period: z.enum(['day', 'month']).describe('A month is 30 storage days'),
  price_per_period: z.string().optional().describe('Per package and period started; left out when price-hidden'),
  handling_fee: z.string().optional().describe('Per package, charged with the order; left out when price-hidden'),
  tax_rate: z.string().optional(),
});

export const ShipoutServiceView = z.object({
  ...base,
  warehouse_id: z.number().int(),
  warehouse: WarehouseView.optional(),
  pricing_method: z
    .union([z.literal(1), z.literal(2)])
    .describe('1: priced at once by `pricing`; 2: priced later by staff'),
  pricing: ServicePricingView.nullable()
    .optional()
    .describe('For method 1; null for method 2; left out when price-hidden'),
  fulfilment: FulfilmentView,
});
