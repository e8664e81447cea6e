/** The order's shapes: what create reads, what every order answer shows. */
import { z } from 'zod';
import { addressInput, addressView, emailParam } from '../../platform/catalog/schemas.ts';
import { statusCodeOf } from './domain.ts';
import type { OrderListRow } from './repo/orders.ts';

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
  self_delivery: z.boolean(),
  route_id: z.number().int().nullable(),
  created_at: z.string(),
});
export type OrderView = z.input<typeof OrderView>;

export function presentOrder(o: OrderListRow): OrderView {
  const a = o.recipient.address;
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
      address: {
        line1: a.line1,
        line2: a.line2 ?? null,
        city: a.city,
        postal_code: a.postal_code,
        country: a.country,
        lat: a.lat ?? null,
        lng: a.lng ?? null,
      },
    },
    note: o.note ?? null,
    self_delivery: o.selfDelivery,
    route_id: o.routeId ?? null,
    created_at: new Date(o.createdAt).toISOString(),
  };
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
