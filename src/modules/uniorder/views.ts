/**
 * Uniorder's shapes (docs/uniorder.md): the rate input spanning both kinds, the create input, rates of either kind,
 * the order view of either kind, and the batches. Every price field is optional: a rate or order whose family the
 * business hides from the account leaves them out, with `price_hidden: true`.
 */
import { z } from 'zod';
import { addressInput, addressView, timeParam } from '../../platform/catalog/schemas.ts';
import { CarrierMessage, PurchaseInputShape, RateInputShape } from '../labels/index.ts';
import { BATCH_LIMIT } from './domain.ts';

/** A party with an address that may carry coordinates (the local price model measures the distance with them). */
const PartyInput = RateInputShape.recipient.extend({
  address: addressInput().extend({
    state: z.string().trim().max(100).nullish().describe('State, province or region, where the country uses one'),
  }),
});

const TimeWindowInput = z
  .object({ start: timeParam(), end: timeParam() })
  .strict()
  .refine((w) => Date.parse(w.end) > Date.parse(w.start), {
    path: ['end'],
    params: { key: 'field.time_window_reversed' },
  });

export const UniorderRateInput = z
  .object({
    type: z
      .enum(['D', 'P', 'P2P'])
      .describe('D delivery, P collection (no label rates), P2P collected at `pickup` and delivered to `recipient`'),
    shipper: PartyInput.nullish().describe(
      "Who sends a D shipment (label rates); the carrier account's default shipper when absent",
    ),
    recipient: PartyInput.describe("Who receives it (a P order's sender); lat and lng for per-km price models"),
    pickup: PartyInput.nullish().describe('Where a P2P order is collected; the labels ship from it. Only for P2P'),
    parcels: RateInputShape.parcels,
    time_window: TimeWindowInput.nullish().describe('When the recipient can receive it (local delivery surcharge)'),
    ship_date: RateInputShape.ship_date,
    reference: RateInputShape.reference,
    quote_labels: z.boolean().default(false).describe('Also ask every connected label carrier'),
    carriers: RateInputShape.carriers,
    services: RateInputShape.services,
  })
  .strict()
  .superRefine((o, ctx) => {
    if (o.pickup && o.type !== 'P2P')
      ctx.addIssue({ code: 'custom', path: ['pickup'], params: { key: 'field.pickup_only_p2p' } });
    if (!o.pickup && o.type === 'P2P')
      ctx.addIssue({ code: 'custom', path: ['pickup'], params: { key: 'field.required' } });
  });
export type UniorderRateInput = z.output<typeof UniorderRateInput>;

const Charge = z.object({ code: z.string(), name: z.string(), amount: z.string() });
const priceField = (what: string) => z.string().optional().describe(`${what}; absent when price_hidden`);
const PriceLine = z.record(z.string(), z.string());

export const UniorderRateView = z.object({
  rate_id: z.string().describe('Create the order with it (uniorder_create) before expires_at; it creates one order'),
  kind: z.enum(['self_delivery', 'label']),
  carrier: z.string().describe('`self` for the business’s own fleet, else the carrier code'),
  carrier_name: z.string(),
  carrier_account_id: z.number().int().optional().describe('Label rates only'),
  service: z.string().describe('local_D, local_P, local_P2P, or the carrier’s service code'),
  service_name: z.string(),
  currency: priceField('ISO 4217'),
  total_charge: priceField('What it costs, an exact decimal string (tax included for self delivery)'),
  tax: priceField('The tax in total_charge (self delivery)'),
  price_details: z.array(PriceLine).optional().describe('The local price lines (self delivery)'),
  base_charge: priceField('The fixed part and the weight (label rates)'),
  extra_charges: z.array(Charge).optional().describe('Surcharges (label rates)'),
  transit_days: z.number().int(),
  estimated_delivery: z.string().describe('YYYY-MM-DD'),
  expires_at: z.string(),
  price_hidden: z.literal(true).optional(),
});
export type UniorderRateView = z.input<typeof UniorderRateView>;

export const UniorderRateAnswer = z.object({
  result: z.literal(true),
  rates: z.array(UniorderRateView).describe('Self delivery first, then label rates by total_charge'),
  messages: z.array(CarrierMessage).describe('Why a kind or a carrier gave no rate, each with its code'),
  price_hidden: z.literal(true).optional().describe('Present when any rate is hidden'),
});
export type UniorderRateAnswer = z.input<typeof UniorderRateAnswer>;

export const UniorderCreateInput = z
  .object({
    rate_id: z.string().min(1).max(64).describe('An sr_ or lr_ rate_id from uniorder_rate, not expired and not used'),
    reference: z.string().trim().max(100).nullish().describe("The order's reference; the rate's when absent"),
    note: z.string().trim().max(1000).nullish().describe('A note for the driver (self delivery orders)'),
    ...PurchaseInputShape,
  })
  .strict();
export type UniorderCreateInput = z.output<typeof UniorderCreateInput>;

const PartyView = z.object({
  name: z.string(),
  company: z.string().nullable().optional(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  address: addressView.partial({ lat: true, lng: true }).extend({ state: z.string().nullable().optional() }),
});

export const UniorderOrderView = z.object({
  result: z.literal(true),
  order_id: z.number().int(),
  kind: z.enum(['self_delivery', 'label']),
  type: z.string(),
  order_ref: z.string().nullable(),
  tracking_number: z.string(),
  status_id: z.number().int(),
  status: z.string(),
  scheduled_date: z.string(),
  shipper: PartyView.nullable().describe('Label orders: the shipper; P2P: where it is collected; else null'),
  recipient: PartyView,
  parcels: z.array(
    z.object({
      position: z.number().int(),
      package_number: z.string(),
      carrier_tracking_number: z.string().nullable(),
    }),
  ),
  rate_id: z.string().nullable().describe('The rate it was created at; null for an order made elsewhere'),
  currency: priceField('ISO 4217'),
  shipping_price: priceField('What it costs, an exact decimal string'),
  tax: priceField('The tax in shipping_price'),
  price_details: z.array(PriceLine).optional(),
  label: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe('Label orders: the label as labelservice_submit_order answers it, with label_error; else null'),
  created_at: z.string(),
  price_hidden: z.literal(true).optional(),
});
export type UniorderOrderView = z.input<typeof UniorderOrderView>;

/** Batch items are objects judged one by one; only a non-object or the count makes the whole call invalid. */
const batchItems = (limit: number) =>
  z.array(z.record(z.string(), z.unknown())).min(1).max(limit).describe(`1 to ${limit} items, each judged on its own`);

export const RateBatchInput = z.object({ items: batchItems(BATCH_LIMIT) }).strict();
export const CreateBatchInput = z.object({ items: batchItems(BATCH_LIMIT) }).strict();

const ItemErrors = z.array(z.object({ field: z.string(), message: z.string() }));

export const RateBatchAnswer = z.object({
  result: z.literal(true),
  results: z.array(
    z.union([
      UniorderRateAnswer.omit({ result: true }).extend({ index: z.number().int(), result: z.literal(true) }),
      z.object({
        index: z.number().int(),
        result: z.literal(false),
        code: z.string(),
        message: z.string(),
        errors: ItemErrors.optional(),
      }),
    ]),
  ),
});

export const CreateBatchAnswer = z.object({
  result: z.literal(true),
  total: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  results: z.array(
    z.union([
      z.object({ index: z.number().int(), result: z.literal(true), order: UniorderOrderView }),
      z.object({
        index: z.number().int(),
        result: z.literal(false),
        order_id: z.number().int().optional(),
        code: z.string(),
        message: z.string(),
        errors: ItemErrors.optional(),
      }),
    ]),
  ),
});
