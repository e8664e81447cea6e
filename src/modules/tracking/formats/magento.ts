/**
 * `format=magento`: what a Magento (Adobe Commerce) store holds about the shipment: the order `state` with
 * its default `status`, and the shipment track (`track_number`, `title`, `carrier_code`) of its REST API.
 */
import type { Timeline } from '../model.ts';
import {
  carrierName,
  platformValue,
  shippedEvent,
  type StatusTable,
  summaryEvent,
  utcNaive,
} from './platformShared.ts';
import type { Format, ProjectionContext } from './types.ts';

/** Magento's order states, each with the default status Magento assigns to it. */
export const MAGENTO_STATES = {
  new: 'pending',
  pending_payment: 'pending_payment',
  processing: 'processing',
  complete: 'complete',
  closed: 'closed',
  canceled: 'canceled',
  holded: 'holded',
  payment_review: 'payment_review',
} as const;
export type MagentoState = keyof typeof MAGENTO_STATES;

export const MAGENTO_ORDER_STATES: StatusTable<MagentoState> = {
  core: {
    created: 'processing',
    picked_up: 'processing',
    received_at_facility: 'processing',
    departed_facility: 'processing',
    in_transit: 'processing',
    out_for_delivery: 'processing',
    delivery_failed: 'processing',
    // A transit problem is not an order state; "holded" is a merchant's hold that blocks the order.
    exception: 'processing',
    // Complete once the customer has the parcel, not when Magento would (at shipment creation), so that
    // "complete" here always means delivered.
    delivered: 'complete',
    // Closed: Magento's end for an order that was shipped but did not stay with the customer.
    returned: 'closed',
    rejected: 'closed',
    cancelled: 'canceled',
  },
  unknown: 'processing',
};

export interface MagentoTrack {
  track_number: string;
  title: string;
  /** Magento's code for a carrier entered by hand. */
  carrier_code: 'custom';
  /** When the parcel left the sender, UTC as Magento stores it. */
  created_at: string;
}

export interface MagentoOrder {
  state: MagentoState;
  status: (typeof MAGENTO_STATES)[MagentoState];
  tracks: MagentoTrack[];
}

export function magentoOrder(t: Timeline, ctx: ProjectionContext): MagentoOrder {
  const latest = summaryEvent(t);
  const state = latest ? platformValue(latest.status_code, MAGENTO_ORDER_STATES) : MAGENTO_ORDER_STATES.unknown;
  const shipped = shippedEvent(t);
  return {
    state,
    status: MAGENTO_STATES[state],
    tracks: shipped
      ? [
          {
            track_number: t.tracking_number,
            title: carrierName(ctx),
            carrier_code: 'custom',
            created_at: utcNaive(shipped.occurred_at, ' '),
          },
        ]
      : [],
  };
}

export const magento: Format = {
  id: 'magento',
  mediaType: 'application/json',
  project: magentoOrder,
};
