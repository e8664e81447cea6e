/**
 * The OTEP vocabulary: status codes, phases and incident reasons, with each code's projection to GS1 EPCIS
 * 2.0 (CBV bizStep + disposition), IATA ONE Record (eventCode) and UN/CEFACT (Rec. 24 transport status;
 * incident reasons as UN/EDIFACT 9013 status reason codes).
 * Published at GET /api/v1/otep/vocabulary and in docs/otep.md.
 *
 * Versioning (semantic): a published identifier never changes meaning and is never removed; adding a code,
 * reason or profile is a minor version; a fix to a projection that keeps every meaning is a patch.
 */
export const OTEP_VERSION = '1.0.0';

export const PHASES = [
  'pre_shipment',
  'pickup',
  'inbound',
  'transit',
  'out_for_delivery',
  'delivered',
  'closed',
] as const;
export type Phase = (typeof PHASES)[number];

export const PROFILES = {
  core: 'current',
  parcel: 'current',
  moving: 'announced',
  food_delivery: 'announced',
  storage: 'announced',
} as const;
export type Profile = keyof typeof PROFILES;

const CBV_BIZSTEP = 'urn:epcglobal:cbv:bizstep:';
const CBV_DISP = 'urn:epcglobal:cbv:disp:';

export interface Projection {
  /** GS1 CBV 2.0 business step and disposition, as standard URNs. */
  epcis: { bizStep: string; disposition: string };
  /**
   * IATA ONE Record LogisticsEvent eventCode from its status code list (Cargo-IMP style, best fit for
   * last-mile); null where that list has no code of this meaning (the projection then names the OTEP code).
   */
  onerecord: string | null;
  /** UN/CEFACT Recommendation 24 transport status code (best fit for last-mile); null where none fits. */
  uncefact: string | null;
}

export interface StatusCode {
  /** `otep:<profile>:<code>` */
  id: string;
  profile: 'core' | 'parcel';
  phase: Phase;
  /** Delivered, returned, rejected and cancelled end a journey. */
  terminal: boolean;
  /** A profile code names the universal code it refines, so a level-1 reader can fall back to it. */
  refines: string | null;
  label: string;
  projection: Projection;
  since: string;
}

type Row = [
  code: string,
  phase: Phase,
  label: string,
  bizStep: string,
  disposition: string,
  onerecord: string | null,
  uncefact: string | null,
  refines?: string,
];

const CORE: Row[] = [
  ['created', 'pre_shipment', 'Shipment information received', 'commissioning', 'active', 'BKD', '6'],
  ['picked_up', 'pickup', 'Picked up from the sender', 'accepting', 'in_transit', 'DPU', '13'],
  ['received_at_facility', 'inbound', 'Received at a facility', 'receiving', 'in_progress', 'FOH', '1'],
  ['departed_facility', 'transit', 'Departed a facility', 'departing', 'in_transit', 'DEP', '24'],
  ['in_transit', 'transit', 'In transit', 'transporting', 'in_transit', 'DEP', '31'],
  ['out_for_delivery', 'out_for_delivery', 'Out for delivery', 'loading', 'in_transit', 'FOW', '113'],
  ['delivery_failed', 'out_for_delivery', 'Delivery attempt failed', 'arriving', 'non_conformant', null, '210'],
  ['exception', 'transit', 'Exception; see the incident reason', 'inspecting', 'non_conformant', null, '20'],
  ['delivered', 'delivered', 'Delivered', 'accepting', 'completeness_verified', 'DDL', '21'],
  ['returned', 'closed', 'Returned to the sender', 'receiving', 'returned', null, '82'],
  ['rejected', 'closed', 'Refused by the recipient', 'arriving', 'returned', null, '276'],
  ['cancelled', 'closed', 'Cancelled', 'void_shipping', 'inactive', null, '7'],
];

const PARCEL: Row[] = [
  [
    'label_created',
    'pre_shipment',
    'Label created, awaiting the parcel',
    'commissioning',
    'active',
    'BKD',
    '6',
    'created',
  ],
  [
    'pickup_started',
    'pickup',
    'Driver on the way to pick up',
    'staging_outbound',
    'in_progress',
    null,
    null,
    'picked_up',
  ],
  [
    'at_warehouse',
    'inbound',
    'At the delivery warehouse',
    'storing',
    'in_progress',
    'FOH',
    '1',
    'received_at_facility',
  ],
  ['sorted', 'inbound', 'Sorted for its delivery route', 'picking', 'in_progress', 'FOH', '1', 'received_at_facility'],
  ['on_hold', 'inbound', 'Held until released', 'holding', 'sellable_not_accessible', null, '315', 'exception'],
  ['intercepted', 'inbound', 'Intercepted on request', 'holding', 'sellable_not_accessible', null, '315', 'exception'],
  [
    'at_pickup_point',
    'out_for_delivery',
    'Ready for collection at a pickup point or locker',
    'stocking',
    'sellable_accessible',
    'NFD',
    '112',
    'out_for_delivery',
  ],
  [
    'delivery_rescheduled',
    'out_for_delivery',
    'Delivery rescheduled',
    'arriving',
    'non_conformant',
    null,
    '209',
    'delivery_failed',
  ],
  [
    'collected',
    'delivered',
    'Collected by the recipient from a pickup point or locker',
    'retail_selling',
    'completeness_verified',
    'DLV',
    '21',
    'delivered',
  ],
  [
    'returned_to_sender',
    'closed',
    'Returned to the sender after failed delivery',
    'receiving',
    'returned',
    null,
    '82',
    'returned',
  ],
];

function build(profile: 'core' | 'parcel', rows: Row[]): StatusCode[] {
  return rows.map(([code, phase, label, bizStep, disposition, onerecord, uncefact, refines]) => ({
    id: `otep:${profile}:${code}`,
    profile,
    phase,
    terminal: phase === 'delivered' || phase === 'closed',
    refines: refines ? `otep:core:${refines}` : null,
    label,
    projection: { epcis: { bizStep: CBV_BIZSTEP + bizStep, disposition: CBV_DISP + disposition }, onerecord, uncefact },
    since: '1.0.0',
  }));
}

export const STATUS_CODES: readonly StatusCode[] = [...build('core', CORE), ...build('parcel', PARCEL)];
export const STATUS_BY_ID: ReadonlyMap<string, StatusCode> = new Map(STATUS_CODES.map((s) => [s.id, s]));

export interface IncidentReason {
  /** `otep:reason:<code>` */
  id: string;
  label: string;
  /** UN/EDIFACT data element 9013 status reason description code (best fit). */
  uncefact: string;
  since: string;
}

const REASONS: [code: string, label: string, uncefact: string][] = [
  ['recipient_absent', 'Recipient not at home', '6'],
  ['address_incorrect', 'Address incorrect or incomplete', '30'],
  ['address_inaccessible', 'Address could not be reached', '9'],
  ['refused', 'Refused by the recipient', '49'],
  ['damaged', 'Parcel damaged', '14'],
  ['lost', 'Parcel lost', '56'],
  ['weather', 'Delayed by weather', '63'],
  ['customs', 'Held by customs', '24'],
  ['reschedule_requested', 'Recipient asked for another date', '38'],
  ['label_failed', 'Carrier label could not be bought', '67'],
  ['other', 'Other reason', '62'],
];

export const INCIDENT_REASONS: readonly IncidentReason[] = REASONS.map(([code, label, uncefact]) => ({
  id: `otep:reason:${code}`,
  label,
  uncefact,
  since: '1.0.0',
}));
export const REASON_BY_ID: ReadonlyMap<string, IncidentReason> = new Map(INCIDENT_REASONS.map((r) => [r.id, r]));

export const phaseId = (phase: Phase) => `otep:phase:${phase}`;

/** What a status id names, parsed: profile, code and whether it is experimental (`x-` code). */
export function parseStatusId(id: string): { profile: string; code: string; experimental: boolean } | null {
  const m = /^otep:([a-z][a-z0-9_]*):((x-)?[a-z][a-z0-9_-]*)$/.exec(id);
  return m ? { profile: m[1]!, code: m[2]!, experimental: m[3] !== undefined } : null;
}

/** The vocabulary as published. */
export function vocabularyDocument() {
  return {
    otep_version: OTEP_VERSION,
    profiles: Object.entries(PROFILES).map(([id, state]) => ({ id, state })),
    phases: PHASES.map((p) => ({ id: phaseId(p), terminal: p === 'delivered' || p === 'closed' })),
    terminal_states: ['otep:core:delivered', 'otep:core:returned', 'otep:core:rejected', 'otep:core:cancelled'],
    status_codes: STATUS_CODES.map((s) => ({ ...s, phase: phaseId(s.phase) })),
    incident_reasons: INCIDENT_REASONS,
  };
}
