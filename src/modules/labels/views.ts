/**
 * The labels module's shapes (docs/labels.md): the rate input, rates, the label of an order, and the purchase's
 * answer. Every price field is optional: an account the business hides label prices from gets them left out, with
 * `price_hidden: true`; a missing figure never means free.
 */
import { z } from 'zod';
import { addressInput, dateParam, eachOnce, emailParam } from '../../platform/catalog/schemas.ts';
import type { LabelParty } from './carriers/adapter.ts';
import { CARRIER_CODES } from './carriers/registry.ts';
import { LABEL_FORMATS, LABEL_STATES, MAX_PARCELS } from './domain.ts';

const text = (max: number) => z.string().trim().min(1).max(max);
export const optionalText = (max: number) => z.string().trim().max(max).nullish();

const phone = z
  .string()
  .trim()
  .regex(/^\+?[0-9 ()-]{5,32}$/, 'phone number');

/** A party of a shipment: who sends it or who receives it. */
export const LabelPartyInput = z
  .object({
    name: text(255).meta({ examples: ['Jana Novakova'] }),
    company: optionalText(255),
    phone: phone.nullish(),
    email: emailParam().nullish(),
    address: addressInput()
      .omit({ lat: true, lng: true })
      .extend({
        state: z.string().trim().max(100).nullish().describe('State, province or region, where the country uses one'),
      }),
  })
  .strict();
export type LabelPartyInput = z.output<typeof LabelPartyInput>;

/** A party as answers show it: every field present, null when not given. */
export const PartyView = z.object({
  name: z.string(),
  company: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  address: z.object({
    line1: z.string(),
    line2: z.string().nullable(),
    city: z.string(),
    state: z.string().nullable(),
    postal_code: z.string(),
    country: z.string().describe('ISO 3166-1 alpha-2'),
  }),
});

/** A party with every optional field present (null when not given), as stored and as answered. */
export const partyOf = (p: LabelPartyInput | LabelParty): LabelParty & z.input<typeof PartyView> => ({
  name: p.name,
  company: p.company ?? null,
  phone: p.phone ?? null,
  email: p.email ?? null,
  address: {
    line1: p.address.line1,
    line2: p.address.line2 ?? null,
    city: p.address.city,
    state: p.address.state ?? null,
    postal_code: p.address.postal_code,
    country: p.address.country,
  },
});

/** Contact fields a purchase may add to a party the rate left without them. */
export const ContactInput = z.object({ phone: phone.nullish(), email: emailParam().nullish() }).strict();

export const ParcelInput = z
  .object({
    weight_grams: z.number().int().min(1).max(1_000_000).describe('What the parcel weighs, in grams'),
    length_mm: z.number().int().min(1).max(10_000).nullish(),
    width_mm: z.number().int().min(1).max(10_000).nullish(),
    height_mm: z.number().int().min(1).max(10_000).nullish(),
    reference: optionalText(100).describe('Printed on its label instead of the shipment reference'),
  })
  .strict();

/** What a rate is asked for (labelservice rate, compare, quote-and-ship; uniorder's label rates). */
export const RateInputShape = {
  shipper: LabelPartyInput.nullish().describe("Who sends it; the carrier account's default shipper when absent"),
  recipient: LabelPartyInput,
  parcels: z
    .array(ParcelInput)
    .min(1)
    .max(MAX_PARCELS)
    .describe(`The parcels, 1 to ${MAX_PARCELS}: one label page each`),
  ship_date: dateParam()
    .optional()
    .describe("When it is handed to the carrier; today in the business's timezone when absent; never a past date"),
  reference: optionalText(100).describe(
    'Your reference, printed on the labels. The sandbox carriers read their trigger inputs from it (docs/labels.md)',
  ),
  carriers: eachOnce(z.array(z.enum(CARRIER_CODES)).min(1).max(CARRIER_CODES.length), 'labels.duplicate_carrier')
    .optional()
    .describe('Ask only these carriers'),
  services: eachOnce(z.array(z.string().trim().min(1).max(64)).min(1).max(50), 'labels.duplicate_service')
    .optional()
    .describe('Answer only these services'),
};
export const RateInput = z.object(RateInputShape).strict();
export type RateInput = z.output<typeof RateInput>;

const Charge = z.object({ code: z.string(), name: z.string(), amount: z.string() });

const priceField = (what: string) => z.string().optional().describe(`${what}; absent when price_hidden`);

export const RateView = z.object({
  rate_id: z.string().describe('Buy the label with it (submitOrder) before expires_at; it buys one label'),
  carrier: z.string(),
  carrier_name: z.string(),
  carrier_account_id: z.number().int(),
  service: z.string(),
  service_name: z.string(),
  currency: priceField('ISO 4217'),
  base_charge: priceField('The fixed part and the weight, an exact decimal string'),
  extra_charges: z.array(Charge).optional().describe('Surcharges (zone, fuel); absent when price_hidden'),
  total_charge: priceField('What the label costs, an exact decimal string'),
  transit_days: z.number().int().describe('Business days from the ship date'),
  estimated_delivery: z.string().describe('YYYY-MM-DD'),
  expires_at: z.string(),
  price_hidden: z.literal(true).optional(),
});
export type RateView = z.input<typeof RateView>;

export const CarrierMessage = z.object({
  carrier: z.string(),
  code: z.string().describe("The carrier's code (ADDRESS_INVALID, AUTH_FAILED, TIMEOUT, WEIGHT_LIMIT, ...)"),
  message: z.string().describe("The carrier's message"),
});

export const CarrierErrorView = CarrierMessage.extend({
  retryable: z.boolean().describe('Whether the same request may succeed later unchanged (a timeout, an outage)'),
});

export const LabelView = z.object({
  state: z.enum(LABEL_STATES),
  carrier: z.string(),
  carrier_name: z.string(),
  service: z.string(),
  service_name: z.string(),
  carrier_tracking_numbers: z.array(z.string()).describe("One per parcel, the carrier's"),
  carrier_shipment_id: z.string().nullable(),
  formats: z.array(z.enum(LABEL_FORMATS)),
  purchased_at: z.string().nullable(),
  submitted_at: z.string().nullable(),
  manifest_id: z.number().int().nullable(),
  voided_at: z.string().nullable(),
  label_error: CarrierErrorView.extend({ at: z.string() })
    .nullable()
    .describe('Why the last purchase failed (state failed)'),
});
export type LabelView = z.input<typeof LabelView>;

export const PriceDetail = z.object({
  code: z.string(),
  quantity: z.string(),
  unit: z.string(),
  unit_amount: z.string(),
  amount: z.string(),
});

/** The price fields of a label order's answers, all optional. */
export const LabelPriceShape = {
  currency: priceField('ISO 4217'),
  shipping_price: priceField('What the label cost, an exact decimal string'),
  tax: priceField('The tax in shipping_price'),
  price_details: z.array(PriceDetail).optional().describe('The lines (base, zone, fuel); absent when price_hidden'),
  price_hidden: z.literal(true).optional().describe('Present when the business hides label prices from you'),
};

export const PurchaseAnswer = z.object({
  result: z.literal(true),
  replayed: z.boolean().describe('true when the idempotency key named an earlier purchase: this is its answer'),
  order_id: z.number().int(),
  tracking_number: z.string(),
  status_id: z.number().int(),
  status: z.string(),
  label: LabelView,
  rate_id: z.string().nullable(),
  ...LabelPriceShape,
});
export type PurchaseAnswer = z.input<typeof PurchaseAnswer>;

/** Label keys the service's own purchases use (`tms:so-<id>`, `tms:sho-<id>`): no caller may choose one. */
const RESERVED_KEY_PREFIX = 'tms:';

export const PurchaseInputShape = {
  idempotency_key: z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/, '1 to 255 printable ASCII characters')
    .refine((k) => !k.toLowerCase().startsWith(RESERVED_KEY_PREFIX), { params: { key: 'labels.reserved_key' } })
    .optional()
    .describe(
      'Names the purchase: the same key again answers the first purchase (replayed) and buys nothing. Keys starting with `tms:` are reserved (VALIDATION_FAILED)',
    ),
  label_format: z.enum(LABEL_FORMATS).optional().describe('The format the label is kept in first; PDF by default'),
  shipper_contact: ContactInput.optional().describe('Contact fields the rate left empty'),
  recipient_contact: ContactInput.optional().describe('Contact fields the rate left empty'),
  customer_id: z
    .number()
    .int()
    .min(1)
    .max(2_147_483_647)
    .optional()
    .describe('The customer account the order is placed for (staff only); a customer account places for itself'),
};
