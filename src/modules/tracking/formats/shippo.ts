/**
 * `format=shippo`: the timeline as a Shippo track: `tracking_status` (the latest event) and
 * `tracking_history`, each entry with Shippo's status, substatus and UTC `status_date`, so code written
 * against Shippo's tracking API and webhooks reads it unchanged.
 */
import type { OtepEvent, Timeline } from '../model.ts';
import {
  eventText,
  platformValue,
  type ReasonTable,
  reasonValue,
  type StatusTable,
  summaryEvent,
  utcIso,
} from './platformShared.ts';
import type { Format } from './types.ts';

export const SHIPPO_STATUSES = ['PRE_TRANSIT', 'TRANSIT', 'DELIVERED', 'RETURNED', 'FAILURE', 'UNKNOWN'] as const;
export type ShippoStatus = (typeof SHIPPO_STATUSES)[number];

/** The Shippo substatuses this format emits: text, and whether Shippo flags it as needing action. */
const SUBSTATUSES = {
  information_received: ['Shipment information received by the carrier', false],
  package_accepted: ['Accepted into the carrier network', false],
  package_arrived: ['Arrived at a carrier facility', false],
  package_processed: ['Processed at a carrier facility', false],
  package_departed: ['Departed a carrier facility', false],
  package_held: ['Held at a carrier location', true],
  delayed: ['Delivery delayed', false],
  address_issue: ['Address information is incorrect', true],
  location_inaccessible: ['Delivery location inaccessible', true],
  contact_carrier: ['Contact the carrier for details', true],
  out_for_delivery: ['Out for delivery', false],
  pickup_available: ['Available for pickup at a carrier location', true],
  delivery_attempted: ['Delivery attempted', true],
  delivery_rescheduled: ['Delivery rescheduled', false],
  package_damaged: ['Package damaged', true],
  package_lost: ['Package lost', true],
  delivered: ['Delivered', false],
  return_to_sender: ['Returned to the sender', false],
  package_undeliverable: ['Package could not be delivered', true],
  other: ['Unrecognized carrier status', false],
} as const satisfies Record<string, readonly [string, boolean]>;
export type ShippoSubstatusCode = keyof typeof SUBSTATUSES;

/** Status and substatus; a null substatus where Shippo has no finer word for the event. */
export type ShippoEntry = readonly [ShippoStatus, ShippoSubstatusCode | null];

export const SHIPPO_ENTRIES: StatusTable<ShippoEntry> = {
  core: {
    created: ['PRE_TRANSIT', 'information_received'],
    picked_up: ['TRANSIT', 'package_accepted'],
    received_at_facility: ['TRANSIT', 'package_arrived'],
    departed_facility: ['TRANSIT', 'package_departed'],
    in_transit: ['TRANSIT', null],
    out_for_delivery: ['TRANSIT', 'out_for_delivery'],
    // Shippo keeps a failed attempt in TRANSIT: the parcel is still on its way.
    delivery_failed: ['TRANSIT', 'delivery_attempted'],
    exception: ['TRANSIT', 'contact_carrier'],
    delivered: ['DELIVERED', 'delivered'],
    returned: ['RETURNED', 'return_to_sender'],
    rejected: ['FAILURE', 'package_undeliverable'],
    cancelled: ['FAILURE', null],
  },
  refined: {
    'otep:parcel:pickup_started': ['PRE_TRANSIT', 'information_received'],
    'otep:parcel:sorted': ['TRANSIT', 'package_processed'],
    'otep:parcel:on_hold': ['TRANSIT', 'package_held'],
    'otep:parcel:intercepted': ['TRANSIT', 'package_held'],
    'otep:parcel:at_pickup_point': ['TRANSIT', 'pickup_available'],
    'otep:parcel:delivery_rescheduled': ['TRANSIT', 'delivery_rescheduled'],
  },
  unknown: ['UNKNOWN', 'other'],
};

export const SHIPPO_REASONS: ReasonTable<ShippoEntry> = {
  delivery_failed: {
    'otep:reason:address_incorrect': ['TRANSIT', 'address_issue'],
    'otep:reason:address_inaccessible': ['TRANSIT', 'location_inaccessible'],
  },
  exception: {
    'otep:reason:address_incorrect': ['TRANSIT', 'address_issue'],
    'otep:reason:address_inaccessible': ['TRANSIT', 'location_inaccessible'],
    'otep:reason:damaged': ['TRANSIT', 'package_damaged'],
    'otep:reason:lost': ['FAILURE', 'package_lost'],
    'otep:reason:weather': ['TRANSIT', 'delayed'],
    'otep:reason:customs': ['TRANSIT', 'delayed'],
  },
};

export interface ShippoTrackingStatus {
  object_id: string | null;
  object_created: string | null;
  object_updated: string | null;
  status: ShippoStatus;
  substatus: { code: ShippoSubstatusCode; text: string; action_required: boolean } | null;
  status_details: string;
  /** UTC, as Shippo shows it. */
  status_date: string | null;
  location: { city: string | null; state: null; zip: string | null; country: string | null } | null;
}

export interface ShippoTrack {
  tracking_number: string;
  tracking_status: ShippoTrackingStatus;
  tracking_history: ShippoTrackingStatus[];
}

function substatus(code: ShippoSubstatusCode | null): ShippoTrackingStatus['substatus'] {
  if (!code) return null;
  const [text, actionRequired] = SUBSTATUSES[code];
  return { code, text, action_required: actionRequired };
}

export function shippoStatus(e: OtepEvent): ShippoTrackingStatus {
  const [status, sub] = reasonValue(e, SHIPPO_REASONS) ?? platformValue(e.status_code, SHIPPO_ENTRIES);
  const recorded = utcIso(e.recorded_at);
  return {
    object_id: e.id,
    object_created: recorded,
    object_updated: recorded,
    status,
    substatus: substatus(sub),
    status_details: eventText(e),
    status_date: utcIso(e.occurred_at),
    location: e.location
      ? {
          city: e.location.city ?? null,
          state: null,
          zip: e.location.postal_code ?? null,
          country: e.location.country ?? null,
        }
      : null,
  };
}

/** Shippo's answer for a tracking number it has nothing about yet. */
function noInformation(): ShippoTrackingStatus {
  const [status, sub] = SHIPPO_ENTRIES.unknown;
  return {
    object_id: null,
    object_created: null,
    object_updated: null,
    status,
    substatus: substatus(sub),
    status_details: 'No tracking information yet',
    status_date: null,
    location: null,
  };
}

export function shippoTrack(t: Timeline): ShippoTrack {
  const latest = summaryEvent(t);
  return {
    tracking_number: t.tracking_number,
    tracking_status: latest ? shippoStatus(latest) : noInformation(),
    tracking_history: t.events.map(shippoStatus),
  };
}

export const shippo: Format = {
  id: 'shippo',
  mediaType: 'application/json',
  project: (t) => shippoTrack(t),
  projectEvents: (t) => ({ tracking_history: t.events.map(shippoStatus) }),
};
