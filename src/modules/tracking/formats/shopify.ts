/**
 * `format=shopify`: the timeline as Shopify fulfillment events (Admin REST `FulfillmentEvent`), ready to be
 * posted to a fulfillment, with the fulfillment's `shipment_status` for the whole timeline. Statuses are the
 * REST enumeration, which is also what `shipment_status` takes.
 */
import type { OtepEvent, Timeline } from '../model.ts';
import {
  coordinates,
  eventText,
  platformValue,
  type StatusTable,
  summaryEvent,
  trackingLink,
} from './platformShared.ts';
import type { Format, ProjectionContext } from './types.ts';

export const SHOPIFY_STATUSES = [
  'label_printed',
  'label_purchased',
  'attempted_delivery',
  'ready_for_pickup',
  'confirmed',
  'in_transit',
  'out_for_delivery',
  'delivered',
  'failure',
] as const;
export type ShopifyStatus = (typeof SHOPIFY_STATUSES)[number];

export const SHOPIFY_EVENT_STATUSES: StatusTable<ShopifyStatus> = {
  core: {
    created: 'confirmed',
    picked_up: 'in_transit',
    received_at_facility: 'in_transit',
    departed_facility: 'in_transit',
    in_transit: 'in_transit',
    out_for_delivery: 'out_for_delivery',
    delivery_failed: 'attempted_delivery',
    // The REST enumeration has no "delayed" or "returned": every other end or hold is a failure.
    exception: 'failure',
    delivered: 'delivered',
    returned: 'failure',
    rejected: 'failure',
    cancelled: 'failure',
  },
  refined: {
    'otep:parcel:label_created': 'label_purchased',
    // Not with the carrier yet: Shopify's "confirmed" rather than the in_transit of picked_up.
    'otep:parcel:pickup_started': 'confirmed',
    'otep:parcel:at_pickup_point': 'ready_for_pickup',
  },
  // Shopify's own default "when no other information is available".
  unknown: 'confirmed',
};

export interface ShopifyFulfillmentEvent {
  status: ShopifyStatus;
  happened_at: string;
  message: string;
  city: string | null;
  province: null;
  zip: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string | null;
  latitude: number | null;
  longitude: number | null;
}

export interface ShopifyFulfillment {
  tracking_number: string;
  tracking_url: string;
  shipment_status: ShopifyStatus;
  fulfillment_events: ShopifyFulfillmentEvent[];
}

export function shopifyEvent(e: OtepEvent): ShopifyFulfillmentEvent {
  const position = coordinates(e.location);
  return {
    status: platformValue(e.status_code, SHOPIFY_EVENT_STATUSES),
    happened_at: e.occurred_at,
    message: eventText(e),
    city: e.location?.city ?? null,
    province: null,
    zip: e.location?.postal_code ?? null,
    country: e.location?.country ?? null,
    latitude: position?.lat ?? null,
    longitude: position?.lng ?? null,
  };
}

export function shopifyFulfillment(t: Timeline, ctx: ProjectionContext): ShopifyFulfillment {
  const latest = summaryEvent(t);
  return {
    tracking_number: t.tracking_number,
    tracking_url: trackingLink(t, ctx),
    shipment_status: latest
      ? platformValue(latest.status_code, SHOPIFY_EVENT_STATUSES)
      : SHOPIFY_EVENT_STATUSES.unknown,
    fulfillment_events: t.events.map(shopifyEvent),
  };
}

export const shopify: Format = {
  id: 'shopify',
  mediaType: 'application/json',
  project: shopifyFulfillment,
  projectEvents: (t) => ({ fulfillment_events: t.events.map(shopifyEvent) }),
};
