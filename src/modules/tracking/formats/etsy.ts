/**
 * `format=etsy`: what an Etsy shop receipt holds about the shipment: the receipt `status` and `is_shipped`
 * of the Open API v3 ShopReceipt, and its shipment (`tracking_code`, `carrier_name`,
 * `shipment_notification_timestamp` in epoch seconds). Etsy follows a shipment in steps of its own
 * (`current_step` with `current_step_date`), which the shipment carries too.
 */
import type { Timeline } from '../model.ts';
import {
  carrierName,
  platformValue,
  shippedEvent,
  type StatusTable,
  summaryEvent,
  unixSeconds,
} from './platformShared.ts';
import type { Format, ProjectionContext } from './types.ts';

export const ETSY_RECEIPT_STATUSES = [
  'open',
  'paid',
  'completed',
  'payment processing',
  'canceled',
  'fully refunded',
  'partially refunded',
] as const;
export type EtsyReceiptStatus = (typeof ETSY_RECEIPT_STATUSES)[number];

export const ETSY_SHIPMENT_STEPS = [
  'unknown',
  'not_shipped',
  'shipped',
  'in_transit',
  'out_for_delivery',
  'delivered',
] as const;
export type EtsyShipmentStep = (typeof ETSY_SHIPMENT_STEPS)[number];

export const ETSY_RECEIPT_STATUS: StatusTable<EtsyReceiptStatus> = {
  core: {
    // Paid and ready for shipping.
    created: 'paid',
    // Etsy calls a receipt completed once it has shipped.
    picked_up: 'completed',
    received_at_facility: 'completed',
    departed_facility: 'completed',
    in_transit: 'completed',
    out_for_delivery: 'completed',
    delivery_failed: 'completed',
    exception: 'completed',
    delivered: 'completed',
    // Ended without delivery: Etsy's only such status.
    returned: 'canceled',
    rejected: 'canceled',
    cancelled: 'canceled',
  },
  refined: { 'otep:parcel:pickup_started': 'paid' },
  unknown: 'paid',
};

export const ETSY_STEPS: StatusTable<EtsyShipmentStep> = {
  core: {
    created: 'not_shipped',
    picked_up: 'shipped',
    received_at_facility: 'in_transit',
    departed_facility: 'in_transit',
    in_transit: 'in_transit',
    out_for_delivery: 'out_for_delivery',
    delivery_failed: 'in_transit',
    exception: 'in_transit',
    delivered: 'delivered',
    // Etsy's steps stop at delivery; a parcel on its way back is none of them.
    returned: 'unknown',
    rejected: 'unknown',
    cancelled: 'not_shipped',
  },
  refined: {
    'otep:parcel:pickup_started': 'not_shipped',
    'otep:parcel:at_pickup_point': 'out_for_delivery',
  },
  unknown: 'unknown',
};

export interface EtsyShipment {
  tracking_code: string;
  carrier_name: string;
  /** When the parcel left the sender (Etsy tells the buyer then), epoch seconds. */
  shipment_notification_timestamp: number;
  current_step: EtsyShipmentStep;
  /** Epoch seconds of the event the step comes from. */
  current_step_date: number;
}

export interface EtsyReceipt {
  status: EtsyReceiptStatus;
  is_shipped: boolean;
  shipments: EtsyShipment[];
}

export function etsyReceipt(t: Timeline, ctx: ProjectionContext): EtsyReceipt {
  const latest = summaryEvent(t);
  const shipped = shippedEvent(t);
  return {
    status: latest ? platformValue(latest.status_code, ETSY_RECEIPT_STATUS) : ETSY_RECEIPT_STATUS.unknown,
    is_shipped: shipped !== null,
    // A shipped event exists, so the summary event does too.
    shipments:
      shipped && latest
        ? [
            {
              tracking_code: t.tracking_number,
              carrier_name: carrierName(ctx),
              shipment_notification_timestamp: unixSeconds(shipped.occurred_at),
              current_step: platformValue(latest.status_code, ETSY_STEPS),
              current_step_date: unixSeconds(latest.occurred_at),
            },
          ]
        : [],
  };
}

export const etsy: Format = {
  id: 'etsy',
  mediaType: 'application/json',
  project: etsyReceipt,
};
