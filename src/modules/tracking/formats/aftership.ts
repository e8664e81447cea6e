/**
 * `format=aftership`: the timeline as an AfterShip tracking object, with one checkpoint per event, for shops
 * and tools that already read AfterShip. Field names follow AfterShip's tracking and checkpoint models
 * (`country_iso3`, `coordinates` as [latitude, longitude]); tags and subtags are AfterShip's own codes.
 */
import type { OtepEvent, Timeline } from '../model.ts';
import {
  coordinates,
  eventText,
  placeText,
  platformValue,
  type ReasonTable,
  reasonValue,
  shippedEvent,
  type StatusTable,
  summaryEvent,
} from './platformShared.ts';
import type { Format } from './types.ts';

export const AFTERSHIP_TAGS = [
  'Pending',
  'InfoReceived',
  'InTransit',
  'OutForDelivery',
  'AttemptFail',
  'Delivered',
  'AvailableForPickup',
  'Exception',
  'Expired',
] as const;
export type AftershipTag = (typeof AFTERSHIP_TAGS)[number];

/** The AfterShip subtags this format emits, with AfterShip's message for each; the tag is the part before `_`. */
const SUBTAG_MESSAGES = {
  Pending_001: 'Pending',
  InfoReceived_001: 'Info Received',
  InTransit_001: 'In Transit',
  InTransit_002: 'Acceptance scan',
  InTransit_003: 'Arrival scan',
  InTransit_007: 'Departure Scan',
  OutForDelivery_001: 'Out for Delivery',
  AvailableForPickup_001: 'Available for pickup',
  AttemptFail_001: 'Failed Attempt',
  AttemptFail_002: 'Addressee not available',
  Delivered_001: 'Delivered',
  Delivered_002: 'Picked up by the customer',
  Exception_001: 'Exception',
  Exception_003: 'Customer refused delivery',
  Exception_004: 'Delayed (Customs clearance)',
  Exception_005: 'Delayed (External factors)',
  Exception_007: 'Incorrect Address',
  Exception_011: 'Returned to sender',
  Exception_012: 'Shipment damage',
  Exception_013: 'Shipment lost',
} as const;
export type AftershipSubtag = keyof typeof SUBTAG_MESSAGES;

export const AFTERSHIP_SUBTAGS: StatusTable<AftershipSubtag> = {
  core: {
    created: 'InfoReceived_001',
    picked_up: 'InTransit_002',
    received_at_facility: 'InTransit_003',
    departed_facility: 'InTransit_007',
    in_transit: 'InTransit_001',
    out_for_delivery: 'OutForDelivery_001',
    delivery_failed: 'AttemptFail_001',
    exception: 'Exception_001',
    delivered: 'Delivered_001',
    returned: 'Exception_011',
    rejected: 'Exception_003',
    // AfterShip has no cancelled subtag; a cancelled shipment is one of its "any shipping exceptions".
    cancelled: 'Exception_001',
  },
  refined: {
    // AfterShip's InfoReceived is "about to pick up the shipment", which is what pickup_started says.
    'otep:parcel:pickup_started': 'InfoReceived_001',
    'otep:parcel:at_pickup_point': 'AvailableForPickup_001',
    'otep:parcel:collected': 'Delivered_002',
  },
  unknown: 'Pending_001',
};

export const AFTERSHIP_REASONS: ReasonTable<AftershipSubtag> = {
  delivery_failed: { 'otep:reason:recipient_absent': 'AttemptFail_002' },
  exception: {
    'otep:reason:refused': 'Exception_003',
    'otep:reason:customs': 'Exception_004',
    'otep:reason:weather': 'Exception_005',
    'otep:reason:address_incorrect': 'Exception_007',
    'otep:reason:damaged': 'Exception_012',
    'otep:reason:lost': 'Exception_013',
  },
};

/** ISO 3166-1 alpha-2 to alpha-3 for the countries the service ships in and around; other countries give null. */
const ALPHA3: Readonly<Record<string, string>> = {
  AT: 'AUT',
  BE: 'BEL',
  BG: 'BGR',
  HR: 'HRV',
  CY: 'CYP',
  CZ: 'CZE',
  DK: 'DNK',
  EE: 'EST',
  FI: 'FIN',
  FR: 'FRA',
  DE: 'DEU',
  GR: 'GRC',
  HU: 'HUN',
  IE: 'IRL',
  IT: 'ITA',
  LV: 'LVA',
  LT: 'LTU',
  LU: 'LUX',
  MT: 'MLT',
  NL: 'NLD',
  PL: 'POL',
  PT: 'PRT',
  RO: 'ROU',
  SK: 'SVK',
  SI: 'SVN',
  ES: 'ESP',
  SE: 'SWE',
  IS: 'ISL',
  LI: 'LIE',
  NO: 'NOR',
  CH: 'CHE',
  GB: 'GBR',
  US: 'USA',
  CA: 'CAN',
  MX: 'MEX',
  CN: 'CHN',
  HK: 'HKG',
  TW: 'TWN',
  JP: 'JPN',
  KR: 'KOR',
  SG: 'SGP',
  AU: 'AUS',
  NZ: 'NZL',
};

export function alpha3(country: string | null | undefined): string | null {
  const code = country?.toUpperCase();
  return code && Object.hasOwn(ALPHA3, code) ? ALPHA3[code]! : null;
}

export interface AftershipCheckpoint {
  checkpoint_time: string;
  created_at: string;
  tag: AftershipTag;
  subtag: AftershipSubtag;
  subtag_message: string;
  message: string;
  location: string | null;
  city: string | null;
  state: null;
  zip: string | null;
  country_iso3: string | null;
  /** [latitude, longitude], or empty when the event has no position. */
  coordinates: [number, number] | [];
}

export interface AftershipTracking {
  tracking_number: string;
  tag: AftershipTag;
  subtag: AftershipSubtag;
  subtag_message: string;
  shipment_pickup_date: string | null;
  shipment_delivery_date: string | null;
  checkpoints: AftershipCheckpoint[];
}

export const tagOf = (subtag: AftershipSubtag) => subtag.slice(0, subtag.indexOf('_')) as AftershipTag;

function subtagOf(e: OtepEvent): AftershipSubtag {
  return reasonValue(e, AFTERSHIP_REASONS) ?? platformValue(e.status_code, AFTERSHIP_SUBTAGS);
}

export function aftershipCheckpoint(e: OtepEvent): AftershipCheckpoint {
  const subtag = subtagOf(e);
  const position = coordinates(e.location);
  return {
    checkpoint_time: e.occurred_at,
    created_at: e.recorded_at,
    tag: tagOf(subtag),
    subtag,
    subtag_message: SUBTAG_MESSAGES[subtag],
    message: eventText(e),
    location: placeText(e.location),
    city: e.location?.city ?? null,
    state: null,
    zip: e.location?.postal_code ?? null,
    country_iso3: alpha3(e.location?.country),
    coordinates: position ? [position.lat, position.lng] : [],
  };
}

export function aftershipTracking(t: Timeline): AftershipTracking {
  const latest = summaryEvent(t);
  const subtag = latest ? subtagOf(latest) : AFTERSHIP_SUBTAGS.unknown;
  const tag = tagOf(subtag);
  return {
    tracking_number: t.tracking_number,
    tag,
    subtag,
    subtag_message: SUBTAG_MESSAGES[subtag],
    shipment_pickup_date: shippedEvent(t)?.occurred_at ?? null,
    shipment_delivery_date: latest && tag === 'Delivered' ? latest.occurred_at : null,
    checkpoints: t.events.map(aftershipCheckpoint),
  };
}

export const aftership: Format = {
  id: 'aftership',
  mediaType: 'application/json',
  project: (t) => aftershipTracking(t),
  projectEvents: (t) => ({ checkpoints: t.events.map(aftershipCheckpoint) }),
};
