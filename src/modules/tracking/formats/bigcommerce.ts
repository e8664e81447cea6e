/**
 * `format=bigcommerce`: what a BigCommerce store holds about the shipment: the order `status_id` with its
 * `status` name (BigCommerce's fixed order statuses) and the order shipment with its tracking number, as
 * the v2 Orders API writes them (dates in RFC 2822, "" while unset).
 */
import type { Timeline } from '../model.ts';
import { platformValue, shippedEvent, type StatusTable, summaryEvent, trackingLink } from './platformShared.ts';
import type { Format, ProjectionContext } from './types.ts';

export const BIGCOMMERCE_STATUSES = {
  0: 'Incomplete',
  1: 'Pending',
  2: 'Shipped',
  3: 'Partially Shipped',
  4: 'Refunded',
  5: 'Cancelled',
  6: 'Declined',
  7: 'Awaiting Payment',
  8: 'Awaiting Pickup',
  9: 'Awaiting Shipment',
  10: 'Completed',
  11: 'Awaiting Fulfillment',
  12: 'Manual Verification Required',
  13: 'Disputed',
  14: 'Partially Refunded',
} as const;
export type BigcommerceStatusId = keyof typeof BIGCOMMERCE_STATUSES;

export const BIGCOMMERCE_ORDER_STATUSES: StatusTable<BigcommerceStatusId> = {
  core: {
    // Shipment information is with the carrier, the parcel not yet: packed and awaiting collection.
    created: 9,
    picked_up: 2,
    received_at_facility: 2,
    departed_facility: 2,
    in_transit: 2,
    out_for_delivery: 2,
    delivery_failed: 2,
    exception: 2,
    delivered: 10,
    // Ended without delivery; "Refunded" would claim a payment fact the timeline does not have.
    returned: 6,
    rejected: 6,
    cancelled: 5,
  },
  refined: {
    'otep:parcel:pickup_started': 9,
    'otep:parcel:at_pickup_point': 8,
  },
  // Paid and awaiting fulfilment: what a store shows until something is known.
  unknown: 11,
};

export interface BigcommerceShipment {
  tracking_number: string;
  /** Empty with an empty tracking_carrier: a custom carrier, tracked through tracking_link. */
  shipping_provider: '';
  tracking_carrier: '';
  tracking_link: string;
  date_created: string;
}

export interface BigcommerceOrder {
  status_id: BigcommerceStatusId;
  status: (typeof BIGCOMMERCE_STATUSES)[BigcommerceStatusId];
  /** When the parcel left the sender, RFC 2822 in UTC; "" until then. */
  date_shipped: string;
  shipments: BigcommerceShipment[];
}

/** RFC 2822 as BigCommerce writes dates: Tue, 17 Nov 2026 15:30:00 +0000. */
export function rfc2822(time: string): string {
  return new Date(time).toUTCString().replace(/GMT$/, '+0000');
}

export function bigcommerceOrder(t: Timeline, ctx: ProjectionContext): BigcommerceOrder {
  const latest = summaryEvent(t);
  const statusId = latest
    ? platformValue(latest.status_code, BIGCOMMERCE_ORDER_STATUSES)
    : BIGCOMMERCE_ORDER_STATUSES.unknown;
  const shipped = shippedEvent(t);
  const dateShipped = shipped ? rfc2822(shipped.occurred_at) : '';
  return {
    status_id: statusId,
    status: BIGCOMMERCE_STATUSES[statusId],
    date_shipped: dateShipped,
    shipments: shipped
      ? [
          {
            tracking_number: t.tracking_number,
            shipping_provider: '',
            tracking_carrier: '',
            tracking_link: trackingLink(t, ctx),
            date_created: dateShipped,
          },
        ]
      : [],
  };
}

export const bigcommerce: Format = {
  id: 'bigcommerce',
  mediaType: 'application/json',
  project: bigcommerceOrder,
};
