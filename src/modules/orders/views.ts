/** The order's shapes: what create reads, what every order answer shows. */
import { z } from 'zod';
import { addressInput, addressView, emailParam, timeParam } from '../../platform/catalog/schemas.ts';
import { customerStatusOf, statusCodeOf } from './domain.ts';
import type { Address } from './entities.ts';
import type { OrderListRow } from './repo/orders.ts';
import type { PriceFamily } from '../../platform/db/outbox.ts';

export const text = (max: number) => z.string().trim().min(1).max(max);
export const optionalText = (max: number) => z.string().trim().max(max).nullish();

export const RecipientInput = z
  .object({
    name: text(255).meta({ examples: ['Jana Novakova'] }),
    phone: z
      .string()
      .trim()
      .regex(/^\+?[0-9 ()-]{5,32}$/, 'phone number')
      .nullish(),
    email: emailParam().nullish(),
    address: addressInput(),
  })
  .strict();

/** When the recipient can receive the order: both ends, the end after the start. */
export const TimeWindowView = z.object({ start: z.string(), end: z.string() });

/** A time window as callers give it; the operation checks that the end is later than the start. */
export const TimeWindowInput = z
  .object({
    start: timeParam().describe('From when the recipient can receive it, with its offset'),
    end: timeParam().describe('Until when; later than start'),
  })
  .strict();

/** A skill a driver has and an order may require: one lowercase word. */
export const SkillInput = z
  .string()
  .regex(/^[a-z0-9_-]{1,40}$/, 'one lowercase word: letters, digits, _ and -')
  .meta({ examples: ['refrigerated'] });

export const OrderView = z.object({
  id: z.number().int(),
  type: z.enum(['D', 'P', 'P2P']),
  order_ref: z.string().nullable(),
  tracking_number: z.string().meta({ examples: ['TMS3F9A1C7B2E04'] }),
  status_id: z.number().int(),
  status: z.string(),
  scheduled_date: z.string(),
  recipient: z.object({
    name: z.string(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    address: addressView,
  }),
  note: z.string().nullable(),
  delivery_instruction: z
    .string()
    .nullable()
    .describe('What the driver should know to deliver it; update_delivery_instruction changes it'),
  time_window: TimeWindowView.nullable().describe(
    'When the recipient can receive it; update_time_window_by_refs changes it',
  ),
  self_delivery: z.boolean(),
  pickup: z
    .object({
      name: z.string(),
      phone: z.string().nullable(),
      email: z.string().nullable(),
      address: addressView,
    })
    .nullable()
    .describe("Where a P2P order is collected; its pickup comes before its delivery on the driver's route"),
  required_skills: z.array(z.string()).describe("Skills the order's driver must have"),
  service_minutes: z.number().int().nullable().describe("How long the stop takes; the route build's default when null"),
  route_id: z.number().int().nullable(),
  driver_id: z.number().int().nullable().describe('The driver carrying the order, once one is assigned'),
  created_at: z.string(),
  customer_id: z
    .number()
    .int()
    .nullable()
    .describe('The customer account (a B2B sub-account of the business) the order was placed by or for'),
  shipping_price: z
    .string()
    .nullable()
    .optional()
    .describe(
      "What the delivery was priced at when the order was created, tax included: an exact decimal string with the currency's decimals. Null when it was not priced; absent when price_hidden",
    )
    .meta({ examples: ['14.28'] }),
  tax: z.string().nullable().optional().describe('The tax in shipping_price; absent when price_hidden'),
  currency: z.string().nullable().optional().describe('ISO 4217; absent when price_hidden'),
  price_details: z
    .array(
      z.object({
        code: z.string(),
        quantity: z.string(),
        unit: z.string(),
        unit_amount: z.string(),
        amount: z.string(),
      }),
    )
    .nullable()
    .optional()
    .describe('The lines before tax (base fee, distance, weight, surcharges); absent when price_hidden'),
  price_hidden: z
    .literal(true)
    .optional()
    .describe('Present when the business hides its local delivery prices from you: the price fields are left out'),
});
export type OrderView = z.input<typeof OrderView>;

/** The price fields of an order answer, which presentTo leaves out for an account prices are hidden from. */
const PRICE_FIELDS = ['shipping_price', 'tax', 'currency', 'price_details'] as const;

/**
 * An order answer as this account may see it: for an account the business hides local delivery prices from
 * (localPricesHiddenFrom), without the price fields and with `price_hidden: true`. Left out, never 0 or null, since
 * a missing figure must not read as free.
 */
export function presentTo<T extends OrderView>(view: T, pricesHidden: boolean): T {
  if (!pricesHidden) return view;
  const hidden: T = { ...view, price_hidden: true };
  for (const key of PRICE_FIELDS) delete hidden[key];
  return hidden;
}

/**
 * Whom an order answer is for, as orderAudienceOf(em, caller) answers it: the price families the business hides from
 * the account (an order's prices are left out when its own family is among them: a label order's are label_service,
 * every other order's local_delivery), and whether the carrier is masked for it (a customer account: a carrier's
 * status reads as ours, CARRIER_STATUSES, as in its webhooks). Required by presentOrder, so that no answer can forget
 * either.
 */
export interface OrderAudience {
  hiddenFamilies: readonly PriceFamily[];
  carrierMasked: boolean;
}

/** An order as every answer shows it to this audience: without what is hidden or masked from it. */
export function presentOrder(o: OrderListRow, audience: OrderAudience): OrderView {
  const hidden = audience.hiddenFamilies.includes(o.priceFamily ?? 'local_delivery');
  const view = presentTo(orderWithPrices(o), hidden);
  if (!audience.carrierMasked) return view;
  const statusId = customerStatusOf(view.status_id);
  return { ...view, status_id: statusId, status: statusCodeOf(statusId) };
}

function orderWithPrices(o: OrderListRow): OrderView {
  const price = {
    shipping_price: o.shippingPrice ?? null,
    tax: o.tax ?? null,
    currency: o.currency ?? null,
    price_details: (o.priceDetails as OrderView['price_details']) ?? null,
  };
  const a = o.recipient.address;
  const pickup = o.pickup ?? null;
  return {
    id: o.id,
    type: o.type,
    order_ref: o.orderRef ?? null,
    tracking_number: o.trackingNumber,
    status_id: o.statusId,
    status: statusCodeOf(o.statusId),
    scheduled_date:
      typeof o.scheduledDate === 'string' ? o.scheduledDate : new Date(o.scheduledDate).toISOString().slice(0, 10),
    recipient: {
      name: o.recipient.name,
      phone: o.recipient.phone ?? null,
      email: o.recipient.email ?? null,
      address: addressOf(a),
    },
    note: o.note ?? null,
    delivery_instruction: o.deliveryInstruction ?? null,
    time_window:
      o.timeWindowStart && o.timeWindowEnd
        ? { start: new Date(o.timeWindowStart).toISOString(), end: new Date(o.timeWindowEnd).toISOString() }
        : null,
    self_delivery: o.selfDelivery,
    pickup: pickup && {
      name: pickup.name,
      phone: pickup.phone ?? null,
      email: pickup.email ?? null,
      address: addressOf(pickup.address),
    },
    required_skills: o.requiredSkills ?? [],
    service_minutes: o.serviceMinutes ?? null,
    route_id: o.routeId ?? null,
    driver_id: o.driverId ?? null,
    created_at: new Date(o.createdAt).toISOString(),
    customer_id: o.customerId ?? null,
    ...price,
  };
}

function addressOf(a: Address) {
  return {
    line1: a.line1,
    line2: a.line2 ?? null,
    city: a.city,
    postal_code: a.postal_code,
    country: a.country,
    lat: a.lat ?? null,
    lng: a.lng ?? null,
  };
}

/** An order's packages as this audience sees them: the carrier's reference of each is not shown where the carrier is masked. */
export function presentPackages<P extends { carrier_reference: string | null }>(
  packages: P[],
  audience: OrderAudience,
): P[] {
  return audience.carrierMasked ? packages.map((p) => ({ ...p, carrier_reference: null })) : packages;
}

const measure = (max: number) => z.number().int().min(1).max(max).nullish();
export const PackageInput = z
  .object({
    weight_grams: measure(1_000_000),
    length_mm: measure(10_000),
    width_mm: measure(10_000),
    height_mm: measure(10_000),
    carrier_reference: optionalText(100),
  })
  .strict();

export const PackageView = z.object({
  position: z.number().int(),
  package_number: z.string(),
  weight_grams: z.number().int().nullable(),
  length_mm: z.number().int().nullable(),
  width_mm: z.number().int().nullable(),
  height_mm: z.number().int().nullable(),
  carrier_reference: z.string().nullable(),
});
