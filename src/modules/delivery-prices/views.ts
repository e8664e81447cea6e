/** The shapes of local delivery prices: the price model as it is set and read, a quote as rate answers it. */
import { z } from 'zod';
import { addressInput, timeParam } from '../../platform/catalog/schemas.ts';
import { LIMITS, PRICING_CURRENCIES, type PriceModel } from './domain.ts';
import type { StoredPriceModel } from './repo.ts';

const money = (what: string, example: string) =>
  z
    .string()
    .regex(LIMITS.moneyPattern, 'a decimal string of at most 6 digits and 4 decimals, such as "4.90"')
    .describe(`${what}, in the model's currency: an exact decimal string (at most 999999.9999)`)
    .meta({ examples: [example] });

const coordinates = z
  .object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) })
  .strict()
  .describe('The depot the deliveries start from (a pickup ends there): the distance is measured from it')
  .meta({ examples: [{ lat: 48.8566, lng: 2.3522 }] });

export const PriceModelInput = z
  .object({
    currency: z
      .enum(PRICING_CURRENCIES)
      .describe('ISO 4217 code (upper case) of every amount of the model and of the prices it makes')
      .meta({ examples: ['EUR'] }),
    base_fee: money('Charged on every delivery', '4.90'),
    per_km: money(
      'Charged per kilometre from the origin to the recipient, to the metre; "0" prices no distance',
      '0.85',
    ),
    per_kg: money('Charged per started kilogram of the packages together above included_weight_kg', '0.50').default(
      '0',
    ),
    included_weight_kg: z
      .string()
      .regex(LIMITS.weightPattern, 'a decimal string from 0 to 100000 with at most 3 decimals')
      .describe('Kilograms the base fee covers (an exact decimal string, at most 100000)')
      .meta({ examples: ['5'] })
      .default('0'),
    p2p_surcharge: money('Added to a peer-to-peer order (type P2P)', '2.00').default('0'),
    time_window_surcharge: money('Added when the delivery has a time window', '3.00').default('0'),
    extra_package_surcharge: money('Added per package beyond the first', '1.00').default('0'),
    tax_rate: z
      .string()
      .regex(LIMITS.taxPattern, 'a percentage from 0 to 100 with at most 3 decimals, such as "20" or "8.875"')
      .describe('Tax in percent of the subtotal (an exact decimal string, 0 to 100)')
      .meta({ examples: ['20'] })
      .default('0'),
    origin: coordinates,
  })
  .strict();

export const PriceModelView = z.object({
  currency: z.string(),
  base_fee: z.string(),
  per_km: z.string(),
  per_kg: z.string(),
  included_weight_kg: z.string(),
  p2p_surcharge: z.string(),
  time_window_surcharge: z.string(),
  extra_package_surcharge: z.string(),
  tax_rate: z.string(),
  origin: z.object({ lat: z.number(), lng: z.number() }),
  updated_at: z.string(),
});

export const presentModel = (m: StoredPriceModel): z.input<typeof PriceModelView> => ({
  currency: m.currency,
  base_fee: m.base_fee,
  per_km: m.per_km,
  per_kg: m.per_kg,
  included_weight_kg: m.included_weight_kg,
  p2p_surcharge: m.p2p_surcharge,
  time_window_surcharge: m.time_window_surcharge,
  extra_package_surcharge: m.extra_package_surcharge,
  tax_rate: m.tax_rate,
  origin: m.origin,
  updated_at: new Date(m.updated_at).toISOString(),
});

export type PriceModelInput = z.output<typeof PriceModelInput>;
export const modelOfInput = (i: PriceModelInput): PriceModel => ({ ...i });

/** One line of price_details. */
export const PriceLineView = z.object({
  code: z
    .enum(['base_fee', 'distance', 'weight', 'p2p_surcharge', 'time_window_surcharge', 'extra_package_surcharge'])
    .describe('What the line charges'),
  quantity: z.string().describe('How much of it: 1 delivery, kilometres to the metre, started kilograms, packages'),
  unit: z.enum(['delivery', 'km', 'kg', 'package']),
  unit_amount: z.string().describe("The model's figure per unit, four decimals"),
  amount: z.string().describe("What the line charges, rounded half-up to the currency's minor unit"),
});

export const RateInput = z
  .object({
    type: z.enum(['D', 'P', 'P2P']),
    address: addressInput().describe(
      "The recipient's address (a pickup's sender); lat and lng are needed when the model charges per kilometre",
    ),
    packages: z
      .array(
        z
          .object({
            weight_grams: z.number().int().min(1).max(1_000_000).nullish(),
            length_mm: z.number().int().min(1).max(10_000).nullish(),
            width_mm: z.number().int().min(1).max(10_000).nullish(),
            height_mm: z.number().int().min(1).max(10_000).nullish(),
          })
          .strict(),
      )
      .min(1)
      .max(50)
      .optional()
      .describe('The parcels, as client_order_create takes them; one unmeasured package when absent'),
    time_window: z
      .object({ start: timeParam(), end: timeParam() })
      .strict()
      .refine((w) => Date.parse(w.end) > Date.parse(w.start), { message: 'end after start', path: ['end'] })
      .optional()
      .describe('When the recipient can receive it; adds the time window surcharge'),
  })
  .strict();

export const RateOutput = z.object({
  result: z.literal(true),
  shipping_price: z.string().optional().describe('What the delivery costs, tax included; absent when price_hidden'),
  tax: z.string().optional(),
  currency: z.string().optional(),
  price_details: z
    .array(PriceLineView)
    .optional()
    .describe('The lines before tax; they add up to shipping_price - tax'),
  price_hidden: z
    .literal(true)
    .optional()
    .describe('Present when the business hides its local delivery prices from you'),
  distance_km: z
    .string()
    .nullable()
    .describe('The distance priced, to the metre; null when the model prices no distance'),
  distance_source: z.enum(['road', 'great_circle']).nullable(),
  chargeable_weight_kg: z.number().int(),
});
