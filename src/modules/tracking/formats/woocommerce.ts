/**
 * `format=woocommerce`: what a WooCommerce store holds about the shipment: the order `status` (core order
 * statuses only) and the tracking items of the Shipment Tracking extension, as its REST API returns them.
 * WooCommerce orders know no transit steps, so a whole journey reads processing, then completed on delivery.
 */
import type { Timeline } from '../model.ts';
import {
  carrierName,
  localDate,
  platformValue,
  shippedEvent,
  type StatusTable,
  summaryEvent,
  trackingLink,
  utcNaive,
} from './platformShared.ts';
import type { Format, ProjectionContext } from './types.ts';

export const WOOCOMMERCE_STATUSES = [
  'pending',
  'processing',
  'on-hold',
  'completed',
  'cancelled',
  'refunded',
  'failed',
  'checkout-draft',
] as const;
export type WoocommerceStatus = (typeof WOOCOMMERCE_STATUSES)[number];

export const WOOCOMMERCE_ORDER_STATUSES: StatusTable<WoocommerceStatus> = {
  core: {
    created: 'processing',
    picked_up: 'processing',
    received_at_facility: 'processing',
    departed_facility: 'processing',
    in_transit: 'processing',
    out_for_delivery: 'processing',
    delivery_failed: 'processing',
    // A transit problem is not an order state; on-hold means "awaiting payment" to WooCommerce.
    exception: 'processing',
    delivered: 'completed',
    // Ended without delivery: failed, never refunded, since money is not a transport fact.
    returned: 'failed',
    rejected: 'failed',
    cancelled: 'cancelled',
  },
  // "Paid, awaiting fulfilment": what a store shows until something is known.
  unknown: 'processing',
};

/** One item of the Shipment Tracking extension, as its REST endpoint returns it. */
export interface WoocommerceTrackingItem {
  tracking_provider: string;
  tracking_link: string;
  tracking_number: string;
  /** YYYY-MM-DD, where the parcel left the sender. */
  date_shipped: string;
}

export interface WoocommerceOrder {
  status: WoocommerceStatus;
  /** When the order became completed (delivered), GMT without a zone as WooCommerce writes it. */
  date_completed_gmt: string | null;
  shipment_trackings: WoocommerceTrackingItem[];
}

export function woocommerceOrder(t: Timeline, ctx: ProjectionContext): WoocommerceOrder {
  const latest = summaryEvent(t);
  const status = latest
    ? platformValue(latest.status_code, WOOCOMMERCE_ORDER_STATUSES)
    : WOOCOMMERCE_ORDER_STATUSES.unknown;
  const shipped = shippedEvent(t);
  return {
    status,
    date_completed_gmt: latest && status === 'completed' ? utcNaive(latest.occurred_at, 'T') : null,
    shipment_trackings: shipped
      ? [
          {
            tracking_provider: carrierName(ctx),
            tracking_link: trackingLink(t, ctx),
            tracking_number: t.tracking_number,
            date_shipped: localDate(shipped.occurred_at),
          },
        ]
      : [],
  };
}

export const woocommerce: Format = {
  id: 'woocommerce',
  mediaType: 'application/json',
  project: woocommerceOrder,
};
