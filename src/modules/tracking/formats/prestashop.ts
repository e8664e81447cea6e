/**
 * `format=prestashop`: what a PrestaShop store holds about the shipment: the order's `current_state`, an id
 * of PrestaShop's default order states (installed with every shop), and its `shipping_number`.
 */
import type { Timeline } from '../model.ts';
import { platformValue, shippedEvent, type StatusTable, summaryEvent } from './platformShared.ts';
import type { Format } from './types.ts';

/** PrestaShop's default order states by id, with their English names. */
export const PRESTASHOP_STATES = {
  1: 'Awaiting check payment',
  2: 'Payment accepted',
  3: 'Processing in progress',
  4: 'Shipped',
  5: 'Delivered',
  6: 'Canceled',
  7: 'Refunded',
  8: 'Payment error',
  9: 'On backorder (paid)',
  10: 'Awaiting bank wire payment',
  11: 'Remote payment accepted',
  12: 'On backorder (not paid)',
  13: 'Awaiting Cash On Delivery validation',
} as const;
export type PrestashopStateId = keyof typeof PRESTASHOP_STATES;

export const PRESTASHOP_ORDER_STATES: StatusTable<PrestashopStateId> = {
  core: {
    created: 3,
    picked_up: 4,
    received_at_facility: 4,
    departed_facility: 4,
    in_transit: 4,
    out_for_delivery: 4,
    delivery_failed: 4,
    exception: 4,
    delivered: 5,
    // PrestaShop has no returned state (returns are a separate process): the order ends canceled.
    returned: 6,
    rejected: 6,
    cancelled: 6,
  },
  refined: { 'otep:parcel:pickup_started': 3 },
  unknown: 3,
};

export interface PrestashopOrder {
  current_state: PrestashopStateId;
  /** The tracking number once the parcel has left the sender; "" until then, as PrestaShop keeps it. */
  shipping_number: string;
}

export function prestashopOrder(t: Timeline): PrestashopOrder {
  const latest = summaryEvent(t);
  return {
    current_state: latest
      ? platformValue(latest.status_code, PRESTASHOP_ORDER_STATES)
      : PRESTASHOP_ORDER_STATES.unknown,
    shipping_number: shippedEvent(t) ? t.tracking_number : '',
  };
}

export const prestashop: Format = {
  id: 'prestashop',
  mediaType: 'application/json',
  project: (t) => prestashopOrder(t),
};
