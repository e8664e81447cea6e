/**
 * The ship-out's shapes (docs/customer-services.md, "Ship-outs"). Every price field is optional: a customer the
 * business hides storage services' prices from gets them left out, with `price_hidden: true`; a missing figure never
 * means free.
 */
import { z } from 'zod';
import { eachOnce, pageParams } from '../../platform/catalog/schemas.ts';
import { PriceLineView, ShipoutServiceView as CatalogShipoutServiceView } from '../customer-services/index.ts';
import { PartyView, RateInputShape } from '../labels/index.ts';
import { SHIPOUT_STATUSES } from './contract.ts';

const optionalText = (max: number) => z.string().trim().max(max).nullish();
const idempotencyKey = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, '1 to 255 printable ASCII characters')
  .optional()
  .describe('The same key answers the same ship-out (nothing is reserved twice)');

/** The recipient: a party as in docs/labels.md. */
export const RecipientInput = RateInputShape.recipient;

export const ShipoutInputShape = {
  package_ids: eachOnce(
    z.array(z.number().int().min(1).max(2_147_483_647)).min(1).max(100),
    'shipouts.duplicate_package',
  ).describe('Your stored packages to send, 1 to 100, each once: all `stored`, all in the service’s warehouse'),
  recipient: RecipientInput,
  reference: optionalText(100).describe('Your reference, kept with the ship-out and its outbound order'),
};

const priceField = (what: string) => z.string().optional().describe(`${what}; absent when price_hidden`);

/** The price fields of an answer, each left out when prices are hidden. */
export const PriceFields = {
  currency: z.string().optional().describe('ISO 4217; absent when price_hidden'),
  total: priceField('The price, tax included, once priced (null before)').nullable(),
  tax: priceField('Its tax, once priced (null before)').nullable(),
  price_details: z.array(PriceLineView).nullable().optional().describe('Its lines; absent when price_hidden'),
  price_hidden: z.literal(true).optional().describe('Prices of storage services are hidden from this account'),
};

export const ShipoutPackageView = z.object({
  id: z.number().int(),
  tracking_number: z.string(),
  reference: z.string().nullable(),
  description: z.string().nullable(),
  weight_grams: z.number().int().nullable(),
  state: z.string().describe('reserved while the ship-out is open, shipped once handed over, stored after a cancel'),
  location: z.string().nullable(),
});

export const OutboundOrderView = z.object({
  id: z.number().int(),
  tracking_number: z.string(),
  status_id: z.number().int(),
  status: z.string(),
});

export const ShipoutView = z.object({
  id: z.number().int(),
  service_code: z.string(),
  warehouse_id: z.number().int(),
  pricing_method: z.union([z.literal(1), z.literal(2)]).describe('1: priced at once; 2: priced later by the business'),
  status: z.enum(SHIPOUT_STATUSES),
  reference: z.string().nullable(),
  recipient: PartyView,
  packages: z.array(ShipoutPackageView),
  ...PriceFields,
  paid_amount: priceField('What the wallet holds for it (posted at hand-over)'),
  balance_due: priceField('What is left to pay (the total until priced is unknown: null)').nullable(),
  settled_offline: z.boolean().describe('The business recorded the payment outside the wallet'),
  expires_at: z.string().nullable().describe('When an unpaid ship-out expires (its packages are released)'),
  order: OutboundOrderView.nullable().describe('The outbound delivery or label order, once handed over'),
  can_pay: z.boolean(),
  can_cancel: z.boolean(),
  workflow_id: z.string(),
  picked_at: z.string().nullable(),
  packed_at: z.string().nullable(),
  handed_over_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ShipoutView = z.input<typeof ShipoutView>;

export const ShipoutAnswer = z.object({ result: z.literal(true), shipout: ShipoutView });

export const CreateShipoutInput = z
  .object({ service_code: z.string().min(1).max(32), ...ShipoutInputShape, idempotency_key: idempotencyKey })
  .strict();

export const EstimateInput = z.object({ service_code: z.string().min(1).max(32), ...ShipoutInputShape }).strict();

export const EstimateAnswer = z.object({
  result: z.literal(true),
  service_code: z.string(),
  pricing_method: z.union([z.literal(1), z.literal(2)]),
  priced_later: z.boolean().describe('true: the business prices it after creation; the price fields are null'),
  packages: z.number().int(),
  ...PriceFields,
});

export const ListShipoutsInput = z
  .object({ ...pageParams, status: z.enum(SHIPOUT_STATUSES).optional().describe('Only ship-outs in this status') })
  .strict();

/** A ship-out service as a customer sees it: the catalog's, its warehouse with it. */
export const ShipoutServiceView = CatalogShipoutServiceView.extend({
  price_hidden: z.literal(true).optional().describe('`pricing` is left out: storage prices are hidden from you'),
});
