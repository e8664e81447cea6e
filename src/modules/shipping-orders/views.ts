/**
 * The shipping orders' shapes (docs/customer-services.md, "Shipping orders"). Parties are the labels module's
 * (docs/labels.md); every price field is optional: a customer the business hides shipping_service prices from gets
 * them left out, with `price_hidden: true`.
 */
import { z } from 'zod';
import { pathCode, pathId } from '../../platform/catalog/schemas.ts';
import { PriceView, ShippingServiceView } from '../customer-services/index.ts';
import { PartyView, RateInputShape } from '../labels/index.ts';
import { CANCEL_REASONS } from './domain.ts';

export const SERVICE_CODE = pathCode(32).describe('The shipping service’s code');

export const PackageInput = z
  .object({
    weight_grams: z.number().int().min(1).max(1_000_000).describe('What the package weighs, in grams'),
    length_mm: z.number().int().min(1).max(10_000).nullish(),
    width_mm: z.number().int().min(1).max(10_000).nullish(),
    height_mm: z.number().int().min(1).max(10_000).nullish(),
    description: z.string().trim().max(255).nullish().describe('What it holds'),
  })
  .strict();

/** What estimate and create take: the shipment. */
export const ShipmentShape = {
  service_code: SERVICE_CODE,
  sender: RateInputShape.shipper.describe(
    "Who sends it; the business's default shipper when absent (a carrier service's account default)",
  ),
  recipient: RateInputShape.recipient,
  packages: z
    .array(PackageInput)
    .min(1)
    .max(50)
    .describe("The packages, 1 to the service's max_packages, each at most its max_weight_grams"),
  reference: z.string().trim().max(100).nullish().describe('Your reference'),
};
export const EstimateInput = z.object(ShipmentShape).strict();
export type EstimateInput = z.output<typeof EstimateInput>;

export const CreateInput = z
  .object({
    ...ShipmentShape,
    idempotency_key: z
      .string()
      .regex(/^[\x21-\x7e]{1,255}$/, '1 to 255 printable ASCII characters')
      .optional()
      .describe(
        'The same key with the same request answers the first order created with it, creating nothing; with another service or shipment it is IDEMPOTENCY_KEY_REUSED',
      ),
  })
  .strict();
export type CreateInput = z.output<typeof CreateInput>;

export const IdInput = z.object({ id: pathId }).strict();

const priceField = (what: string) => z.string().optional().describe(`${what}; absent when price_hidden`);

/** The price fields of an answer, every one absent when the prices are hidden. */
export const PriceShape = {
  ...PriceView.shape,
  price_hidden: z.literal(true).optional().describe('Present when the business hides these prices from you'),
};

/** A shipping service as a customer sees it: its pricing left out when price-hidden. */
export const ServiceView = ShippingServiceView.extend({
  price_hidden: z.literal(true).optional().describe('Present when the business hides these prices from you'),
});

export const ServiceConfigView = ServiceView.extend({
  currency: z.string().optional().describe('The currency orders are priced in; absent when price_hidden'),
  unpaid_expiry_seconds: z.number().int().describe('How long an unpaid order waits for its payment'),
  sender_required: z.boolean().describe('false: the sender may be left out (the business’s default shipper is used)'),
  input_rules: z.object({
    packages: z.object({ min: z.number().int(), max: z.number().int() }),
    weight_grams: z.object({ min: z.number().int(), max: z.number().int() }),
    dimensions_mm: z.object({ min: z.number().int(), max: z.number().int() }),
  }),
});

export type PartyView = z.input<typeof PartyView>;

export const PackageView = z.object({
  weight_grams: z.number().int(),
  length_mm: z.number().int().nullable(),
  width_mm: z.number().int().nullable(),
  height_mm: z.number().int().nullable(),
  description: z.string().nullable(),
});
export type PackageView = z.input<typeof PackageView>;

export const ShippingOrderView = z.object({
  id: z.number().int(),
  service_code: z.string(),
  status: z.enum(['pending_payment', 'confirmed', 'cancelled', 'expired']),
  reference: z.string().nullable(),
  sender: PartyView.nullable().describe("null: the business's default shipper"),
  recipient: PartyView,
  packages: z.array(PackageView),
  ...PriceShape,
  paid_amount: priceField('What was paid so far'),
  balance_due: priceField('What is still due'),
  settled_offline: z.boolean().describe('The business recorded its payment offline'),
  expires_at: z.string().describe('When it expires unless paid'),
  order: z
    .object({
      id: z.number().int(),
      tracking_number: z.string(),
      status: z.string(),
      status_name: z.string(),
    })
    .nullable()
    .describe('Its delivery order once placed (own fleet or carrier label), else null'),
  cancel_reason: z
    .enum(CANCEL_REASONS)
    .nullable()
    .describe(
      'Why a cancelled order was cancelled, else null: `customer` (you cancelled it, or its delivery order), `delivery_cancelled` (the business cancelled its delivery order, or the delivery provider holding it accepted a cancel) or `no_rate` (the carrier gave no rate for the service, so no delivery order could be placed). Everything the wallet paid is refunded to it.',
    ),
  can_cancel: z.boolean(),
  workflow_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ShippingOrderView = z.input<typeof ShippingOrderView>;

export const OrderAnswer = z.object({ result: z.literal(true), shipping_order: ShippingOrderView });

export const EstimateAnswer = z.object({
  result: z.literal(true),
  service_code: z.string(),
  ...PriceShape,
});
