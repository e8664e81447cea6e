/**
 * Places, carrier supplier accounts, and the distribution steps of a package (the specification's "Carrier package
 * distribution" table) with how a scan is judged against them (docs/distribution.md). Pure and deterministic: the
 * package's workflow runs the judgement.
 */
export const PLACE_KINDS = ['warehouse', 'locker', 'store'] as const;
export type PlaceKind = (typeof PLACE_KINDS)[number];

/** A place code or member number: letters, digits, `-` and `_`, starting with a letter or digit. */
export const CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;

/**
 * A GS1 SGLN in its pure identity URN: a company prefix of 6 to 12 digits and a location reference making 12
 * digits with it, then an extension (`0` for none; here letters and digits only). Written out per prefix length
 * so that the OpenAPI pattern is exactly as strict as this check.
 */
export const SGLN_PATTERN =
  /^urn:epc:id:sgln:(?:[0-9]{6}\.[0-9]{6}|[0-9]{7}\.[0-9]{5}|[0-9]{8}\.[0-9]{4}|[0-9]{9}\.[0-9]{3}|[0-9]{10}\.[0-9]{2}|[0-9]{11}\.[0-9]|[0-9]{12}\.)\.[0-9A-Za-z]{1,20}$/;

/** Our own identifier of a place that has no SGLN. */
export const ownPlaceUrn = (businessCode: string, placeCode: string) => `urn:tms:place:${businessCode}:${placeCode}`;

// --- distribution steps ---------------------------------------------------------------------------------

export const DISTRIBUTION_STATUSES = ['created', 'in_transit', 'delivered', 'shelved', 'removed'] as const;
export type DistributionStatus = (typeof DISTRIBUTION_STATUSES)[number];

/** What a scan says happened: each moves the package to one status. */
export const SCAN_ACTIONS = ['received', 'loaded', 'delivered', 'shelved', 'removed'] as const;
export type ScanAction = (typeof SCAN_ACTIONS)[number];

/** Who sent a scan: a scanner (staff or a place's key), a carrier's tracking (OTEP, EPCIS), or the order's cancellation. */
export const SCAN_SOURCES = ['scanner', 'otep', 'epcis', 'cancellation'] as const;
export type ScanSource = (typeof SCAN_SOURCES)[number];

/**
 * Why a scan was kept on the package's history without moving it:
 * - `not_received`: the package was never received at a warehouse;
 * - `does_not_fit`: the step is not one the package's status allows (loaded after delivered);
 * - `out_of_order`: it happened before the last step applied, so applying it would move the package backwards;
 * - `wrong_place`: loaded or removed at another warehouse than the package's, delivered or shelved at another
 *   place than its destination;
 * - `compartment_occupied`: shelved into a locker compartment that holds another parcel;
 * - `process_ended`: the package's distribution had ended (shelved) when the scan came.
 */
export const SCAN_FLAGS = [
  'not_received',
  'does_not_fit',
  'out_of_order',
  'wrong_place',
  'compartment_occupied',
  'process_ended',
] as const;
export type ScanFlag = (typeof SCAN_FLAGS)[number];

/** Which kinds of place each action happens at; checked on input, before anything is written. */
export const ACTION_PLACE_KINDS: Record<ScanAction, readonly ('warehouse' | 'locker' | 'store')[]> = {
  received: ['warehouse'],
  loaded: ['warehouse'],
  removed: ['warehouse'],
  delivered: ['locker', 'store'],
  shelved: ['locker', 'store'],
};

const STEPS: Record<ScanAction, { from: readonly (DistributionStatus | null)[]; to: DistributionStatus }> = {
  // A removed package is back on a warehouse's list: it may be received again elsewhere, or loaded again.
  received: { from: [null, 'removed'], to: 'created' },
  loaded: { from: ['created', 'removed'], to: 'in_transit' },
  removed: { from: ['created', 'in_transit'], to: 'removed' },
  delivered: { from: ['in_transit'], to: 'delivered' },
  shelved: { from: ['delivered'], to: 'shelved' },
};

/** Shelved ends a package's distribution: a device order or the store's counter takes it from there. */
export const isFinal = (status: DistributionStatus | null): boolean => status === 'shelved';

/** Where a package stands, as its workflow holds it. */
export interface PackageState {
  status: DistributionStatus | null;
  warehouseId: number | null;
  destinationId: number | null;
  /** When the last applied scan happened (ISO 8601); null before the first. */
  lastStepAt: string | null;
}

export interface ScanFacts {
  action: ScanAction;
  placeId: number;
  scannedAt: string;
  /** A received scan may name where the package goes. */
  destinationId?: number | null;
}

export type Judgement = { applied: true; status: DistributionStatus } | { applied: false; flag: ScanFlag };

/** Whether the scan moves the package, and where to; a scan that does not fit is flagged, never applied. */
export function judgeScan(state: PackageState, scan: ScanFacts): Judgement {
  if (isFinal(state.status)) return { applied: false, flag: 'process_ended' };
  const step = STEPS[scan.action];
  if (!step.from.includes(state.status))
    return { applied: false, flag: state.status === null ? 'not_received' : 'does_not_fit' };
  if (state.lastStepAt !== null && Date.parse(scan.scannedAt) < Date.parse(state.lastStepAt))
    return { applied: false, flag: 'out_of_order' };
  const atWarehouse = scan.action === 'loaded' || scan.action === 'removed';
  const expected = atWarehouse ? state.warehouseId : scan.action === 'received' ? null : state.destinationId;
  if (expected !== null && expected !== scan.placeId) return { applied: false, flag: 'wrong_place' };
  return { applied: true, status: step.to };
}

/** The state after an applied scan. */
export function stateAfter(state: PackageState, scan: ScanFacts, status: DistributionStatus): PackageState {
  return {
    status,
    warehouseId: scan.action === 'received' ? scan.placeId : state.warehouseId,
    destinationId:
      scan.action === 'received'
        ? (scan.destinationId ?? state.destinationId)
        : scan.action === 'delivered'
          ? scan.placeId
          : state.destinationId,
    lastStepAt: scan.scannedAt,
  };
}

/**
 * What a carrier's or scanner's tracking event at a place of the business does to the package's distribution, by
 * its status code: arriving at or stored in a warehouse receives it there, leaving one loads it, arriving at a
 * locker or store delivers it there, ready for collection there shelves it. Removal is a warehouse scan only.
 */
export function actionOfStatus(statusCode: string, placeKind: PlaceKind): ScanAction | null {
  const code = statusCode.slice(statusCode.lastIndexOf(':') + 1);
  if (placeKind === 'warehouse') {
    if (['received_at_facility', 'at_warehouse', 'sorted'].includes(code)) return 'received';
    if (['departed_facility', 'out_for_delivery', 'in_transit'].includes(code)) return 'loaded';
    return null;
  }
  if (code === 'received_at_facility') return 'delivered';
  if (code === 'at_pickup_point') return 'shelved';
  return null;
}

/**
 * The place identifiers a location id may name, most exact first, each with the sub-location it adds: an SGLN
 * whose extension is not `0` may be a compartment or shelf of the place with extension `0`, and our own URN with a
 * third segment (`urn:tms:place:<business>:<place>:<sub-location>`) one of that place.
 */
export function placeCandidates(locationId: string): { identifier: string; sub: string | null }[] {
  const sgln = /^(urn:epc:id:sgln:[0-9]+\.[0-9]*)\.([0-9A-Za-z]{1,20})$/.exec(locationId);
  if (sgln && sgln[2] !== '0')
    return [
      { identifier: locationId, sub: null },
      { identifier: `${sgln[1]}.0`, sub: sgln[2]! },
    ];
  const own = /^(urn:tms:place:[^:]+:[^:]+):([^:]+)$/.exec(locationId);
  if (own)
    return [
      { identifier: locationId, sub: null },
      { identifier: own[1]!, sub: own[2]! },
    ];
  return [{ identifier: locationId, sub: null }];
}
