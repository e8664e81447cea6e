import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { timestamps } from '../../platform/db/base.ts';

export interface Address {
  line1: string;
  line2?: string | null;
  city: string;
  postal_code: string;
  country: string;
  lat?: number | null;
  lng?: number | null;
}

export interface Recipient {
  name: string;
  phone?: string | null;
  email?: string | null;
  address: Address;
}

export const Order = defineEntity({
  name: 'Order',
  tableName: 'delivery_order',
  properties: {
    id: p.integer().primary(),
    businessId: p.integer(),
    type: p.enum(['D', 'P', 'P2P'] as const),
    orderRef: p.string().nullable(),
    trackingNumber: p.string().unique(),
    statusId: p.integer(),
    scheduledDate: p.string().columnType('date'),
    recipient: p.json<Recipient>(),
    note: p.text().nullable(),
    /** What the driver should know to deliver it (gate code, where to leave it); update_delivery_instruction. */
    deliveryInstruction: p.text().nullable(),
    /** When the recipient can receive it; update_time_window_by_refs. Both set or both null, the end after the start. */
    timeWindowStart: p.datetime().nullable(),
    timeWindowEnd: p.datetime().nullable(),
    /** False for orders fulfilled by a carrier label rather than the business's own drivers. */
    selfDelivery: p.boolean().default(true),
    /** The third-party delivery provider (a provider account's business) currently carrying the order. */
    carrierProviderId: p.integer().nullable(),
    /** Where a P2P order is collected (docs/routes.md, Orders as planning reads them); its pickup precedes its delivery. */
    pickup: p.json<Recipient>().nullable(),
    /** The skills its driver must have (refrigerated, two_person...). */
    requiredSkills: p.array().default([]),
    /** How long its stop takes; the route build's default when null. */
    serviceMinutes: p.integer().nullable(),
    routeId: p.integer().nullable(),
    /** The driver account carrying the order, once one is assigned; it may then see the order (orderVisibleTo). */
    driverId: p.integer().nullable(),
    /** The customer account (B2C) the order is for, when it has one; it may then see the order (orderVisibleTo). */
    customerId: p.integer().nullable(),
    /**
     * What the order was priced at when it was created (docs/orders.md, Local prices): tax included, exact decimals;
     * null, with tax, currency and price details, for an order that was not priced.
     */
    shippingPrice: p.decimal('string').nullable(),
    tax: p.decimal('string').nullable(),
    currency: p.string().nullable(),
    /** The price's line items (base fee, distance, weight, surcharges) before tax. */
    priceDetails: p.json<Record<string, unknown>[]>().nullable(),
    /** Whose prices these are for price hiding (docs/webhooks.md): label orders are label_service. */
    priceFamily: p
      .enum(['local_delivery', 'label_service', 'shipping_service', 'storage_services'] as const)
      .default('local_delivery'),
    ...timestamps,
  },
});
export type Order = InferEntity<typeof Order>;
