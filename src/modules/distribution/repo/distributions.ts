import type { Em } from '../../../platform/db/orm.ts';
import { openSecret, purposeOf, sealSecret, type SealedColumn } from '../../../platform/secretBox.ts';
import type { Recipient } from '../../orders/index.ts';
import type { DistributionStatus, PackageState, PlaceKind, ScanAction, ScanFlag, ScanSource } from '../domain.ts';

/** The pickup code of a package shelved into a locker, kept sealed until its notice has gone out. */
export const SHELF_PICKUP_CODE: SealedColumn = { table: 'package_distribution', column: 'pickup_code_sealed' };

export interface ScanPackage {
  id: number;
  number: string;
  orderId: number;
  state: PackageState;
  places: { warehouse: string | null; destination: string | null };
}

interface PackageStateRow {
  id: number;
  package_number: string;
  order_id: number;
  status: DistributionStatus | null;
  warehouse_id: number | null;
  destination_id: number | null;
  last_step_at: Date | null;
  warehouse_code: string | null;
  destination_code: string | null;
}

/** The columns of PackageStateRow, from order_package pk and package_distribution pd with its places w and d. */
const PACKAGE_STATE = `pk.id, pk.package_number, pk.order_id, pd.status, pd.warehouse_id, pd.destination_id, pd.last_step_at,
  w.code as warehouse_code, d.code as destination_code`;
const WITH_DISTRIBUTION = `left join package_distribution pd on pd.package_id = pk.id
  left join place w on w.id = pd.warehouse_id left join place d on d.id = pd.destination_id`;

function scanPackageOf(r: PackageStateRow): ScanPackage {
  const lastStepAt = r.last_step_at ? new Date(r.last_step_at).toISOString() : null;
  return {
    id: r.id,
    number: r.package_number,
    orderId: r.order_id,
    state: { status: r.status, warehouseId: r.warehouse_id, destinationId: r.destination_id, lastStepAt },
    places: { warehouse: r.warehouse_code, destination: r.destination_code },
  };
}

/** The business's package of this number, with where its distribution stands (all null before its first scan). */
export async function findScanPackage(em: Em, businessId: number, packageNumber: string): Promise<ScanPackage | null> {
  const [row] = await em.execute<PackageStateRow[]>(
    `select ${PACKAGE_STATE} from order_package pk ${WITH_DISTRIBUTION} where pk.business_id = ? and pk.package_number = ?`,
    [businessId, packageNumber],
  );
  return row ? scanPackageOf(row) : null;
}

/** The business's packages of these numbers, keyed by number (a batch of scans reads them in one statement). */
export async function findScanPackages(
  em: Em,
  businessId: number,
  numbers: readonly string[],
): Promise<Map<string, ScanPackage>> {
  const found = new Map<string, ScanPackage>();
  if (numbers.length === 0) return found;
  const rows = await em.execute<PackageStateRow[]>(
    `select ${PACKAGE_STATE} from order_package pk ${WITH_DISTRIBUTION} where pk.business_id = ? and pk.package_number in (?)`,
    [businessId, [...new Set(numbers)]],
  );
  for (const r of rows) found.set(r.package_number, scanPackageOf(r));
  return found;
}

export interface ScanPlace {
  id: number;
  kind: PlaceKind;
  code: string;
  /** The device code of a locker place. */
  deviceCode: string | null;
  /** Whether the locker has a compartment of the grid code asked about. */
  gridKnown: boolean;
}

/** A place of the business named by its code (any case) or its identifier. */
export async function findScanPlace(
  em: Em,
  businessId: number,
  ref: string,
  gridCode: string | null = null,
): Promise<ScanPlace | null> {
  const [row] = await em.execute<
    { id: number; kind: PlaceKind; code: string; device_code: string | null; grid_known: boolean }[]
  >(
    `select p.id, p.kind, p.code, d.code as device_code,
       exists (select 1 from compartment c where c.device_id = p.device_id and c.grid_code = ?) as grid_known
     from place p left join device d on d.id = p.device_id
     where p.business_id = ? and (p.code = upper(?) or p.identifier = ?)`,
    [gridCode, businessId, ref, ref],
  );
  return row
    ? { id: row.id, kind: row.kind, code: row.code, deviceCode: row.device_code, gridKnown: row.grid_known }
    : null;
}

export interface NewScan {
  businessId: number;
  packageId: number;
  key: string;
  source: ScanSource;
  action: ScanAction;
  placeId: number;
  destinationId: number | null;
  gridCode: string | null;
  shelfCode: string | null;
  scannedAt: string;
  actorId: number | null;
  flag: ScanFlag | null;
  statusAfter: DistributionStatus | null;
}

/** Keeps the scan on the package's history; null when a scan of this key is there already. */
export async function insertScan(em: Em, s: NewScan): Promise<string | null> {
  const rows = await em.execute<{ id: string }[]>(
    `insert into distribution_scan (business_id, package_id, scan_key, source, action, place_id, destination_id, grid_code, shelf_code, scanned_at, actor_id, outcome, flag, status_after)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (package_id, scan_key) do nothing returning id`,
    [
      s.businessId,
      s.packageId,
      s.key,
      s.source,
      s.action,
      s.placeId,
      s.destinationId,
      s.gridCode,
      s.shelfCode,
      s.scannedAt,
      s.actorId,
      s.flag === null ? 'applied' : 'flagged',
      s.flag,
      s.statusAfter,
    ],
  );
  return rows[0]?.id ?? null;
}

/** A flagged scan counts on its package, so that the operator's view shows it. */
export async function countFlagged(em: Em, packageId: number): Promise<void> {
  await em.execute(
    'update package_distribution set flagged_scans = flagged_scans + 1, updated_at = now() where package_id = ?',
    [packageId],
  );
}

export interface AppliedStep {
  businessId: number;
  packageId: number;
  orderId: number;
  action: ScanAction;
  state: PackageState;
  at: string;
  gridId: number | null;
  gridCode: string | null;
  shelfCode: string | null;
  deviceOrderId: number | null;
  pickupCode: string | null;
  removalReason: 'removed' | 'cancelled';
}

/**
 * Writes the package's distribution after an applied step: a received package is (back) on its warehouse's list
 * with its later steps cleared; every other step sets its own time and fields.
 */
export async function writeStep(em: Em, s: AppliedStep): Promise<void> {
  const sealed = s.pickupCode === null ? null : sealSecret(purposeOf(SHELF_PICKUP_CODE), s.pickupCode);
  const st = s.state;
  await em.execute(
    `insert into package_distribution as pd (package_id, business_id, order_id, status, warehouse_id, destination_id, last_step_at)
     values (?, ?, ?, ?, ?, ?, ?)
     on conflict (package_id) do update set
       status = excluded.status, warehouse_id = excluded.warehouse_id, destination_id = excluded.destination_id, last_step_at = excluded.last_step_at,
       loaded_at = case ?::text when 'received' then null when 'loaded' then excluded.last_step_at else pd.loaded_at end,
       delivered_at = case ?::text when 'received' then null when 'delivered' then excluded.last_step_at else pd.delivered_at end,
       removed_at = case ?::text when 'received' then null when 'removed' then excluded.last_step_at else pd.removed_at end,
       removal_reason = case ?::text when 'removed' then ? when 'received' then null else pd.removal_reason end,
       shelved_at = case ?::text when 'shelved' then excluded.last_step_at else pd.shelved_at end,
       grid_id = coalesce(?, pd.grid_id), grid_code = coalesce(?, pd.grid_code), shelf_code = coalesce(?, pd.shelf_code),
       device_order_id = coalesce(?, pd.device_order_id), pickup_code_sealed = coalesce(?, pd.pickup_code_sealed), updated_at = now()`,
    [
      s.packageId,
      s.businessId,
      s.orderId,
      st.status,
      st.warehouseId,
      st.destinationId,
      s.at,
      s.action,
      s.action,
      s.action,
      s.action,
      s.removalReason,
      s.action,
      s.gridId,
      s.gridCode,
      s.shelfCode,
      s.deviceOrderId,
      sealed,
    ],
  );
}

/** What a scan of this key answered when it was first kept, for a scan sent again. */
export async function findScanOutcome(
  em: Em,
  packageId: number,
  key: string,
): Promise<{ id: string; status: DistributionStatus | null } | null> {
  const [row] = await em.execute<{ id: string; status: DistributionStatus | null }[]>(
    `select s.id, pd.status from distribution_scan s left join package_distribution pd on pd.package_id = s.package_id
     where s.package_id = ? and s.scan_key = ?`,
    [packageId, key],
  );
  return row ?? null;
}

export interface CarrierEventFacts {
  packageNumber: string;
  carrierReference: string | null;
  carrierId: number;
  memberNumber: string;
  orderRef: string | null;
  status: DistributionStatus;
  loadedAt: Date | null;
  deliveredAt: Date | null;
  removalReason: 'removed' | 'cancelled' | null;
  gridId: number | null;
  gridCode: string | null;
  shelfCode: string | null;
  origin: PlaceFacts;
  destination: PlaceFacts | null;
}

export interface PlaceFacts {
  code: string;
  kind: PlaceKind;
  name: string;
  identifier: string;
}

/** What a carrier's distribution event says, or null when the package's carrier has no active supplier account here. */
export async function findCarrierEventFacts(em: Em, packageId: number): Promise<CarrierEventFacts | null> {
  const [row] = await em.execute<
    {
      package_number: string;
      carrier_reference: string | null;
      carrier_id: number;
      member_number: string;
      order_ref: string | null;
      status: DistributionStatus;
      loaded_at: Date | null;
      delivered_at: Date | null;
      removal_reason: 'removed' | 'cancelled' | null;
      grid_id: number | null;
      grid_code: string | null;
      shelf_code: string | null;
      origin: PlaceFacts;
      destination: PlaceFacts | null;
    }[]
  >(
    `select pk.package_number, pk.carrier_reference, a.carrier_id, a.member_number, o.order_ref, pd.status, pd.loaded_at, pd.delivered_at,
       pd.removal_reason, pd.grid_id, pd.grid_code, pd.shelf_code,
       (select json_build_object('code', w.code, 'kind', w.kind, 'name', w.name, 'identifier', w.identifier) from place w where w.id = pd.warehouse_id) as origin,
       (select json_build_object('code', d.code, 'kind', d.kind, 'name', d.name, 'identifier', d.identifier) from place d where d.id = pd.destination_id) as destination
     from package_distribution pd join order_package pk on pk.id = pd.package_id join delivery_order o on o.id = pd.order_id
     join carrier_supplier_account a on a.business_id = pd.business_id and a.carrier_id = o.carrier_provider_id and a.ended_at is null
     where pd.package_id = ?`,
    [packageId],
  );
  if (!row) return null;
  return {
    packageNumber: row.package_number,
    carrierReference: row.carrier_reference,
    carrierId: row.carrier_id,
    memberNumber: row.member_number,
    orderRef: row.order_ref,
    status: row.status,
    loadedAt: row.loaded_at,
    deliveredAt: row.delivered_at,
    removalReason: row.removal_reason,
    gridId: row.grid_id,
    gridCode: row.grid_code,
    shelfCode: row.shelf_code,
    origin: row.origin,
    destination: row.destination,
  };
}

export interface ShelvedNoticeFacts {
  businessId: number;
  packageNumber: string;
  recipient: Recipient;
  place: { name: string; kind: PlaceKind; address: { line1: string; city: string } | null };
  gridCode: string | null;
  shelfCode: string | null;
  dueAt: Date | null;
  pickupCode: () => string | null;
}

/** What the recipient's pickup notice says of a shelved package: where, and the pickup code for a locker. */
export async function findShelvedNoticeFacts(em: Em, packageId: number): Promise<ShelvedNoticeFacts | null> {
  const [row] = await em.execute<
    {
      business_id: number;
      package_number: string;
      recipient: Recipient;
      name: string;
      kind: PlaceKind;
      address: { line1: string; city: string } | null;
      grid_code: string | null;
      shelf_code: string | null;
      due_at: Date | null;
      pickup_code_sealed: string | null;
    }[]
  >(
    `select pd.business_id, pk.package_number, o.recipient, p.name, p.kind, p.address, pd.grid_code, pd.shelf_code, dor.due_at, pd.pickup_code_sealed
     from package_distribution pd join order_package pk on pk.id = pd.package_id join delivery_order o on o.id = pd.order_id
     join place p on p.id = pd.destination_id left join device_order dor on dor.id = pd.device_order_id
     where pd.package_id = ? and pd.status = 'shelved'`,
    [packageId],
  );
  if (!row) return null;
  const sealed = row.pickup_code_sealed;
  return {
    businessId: row.business_id,
    packageNumber: row.package_number,
    recipient: row.recipient,
    place: { name: row.name, kind: row.kind, address: row.address },
    gridCode: row.grid_code,
    shelfCode: row.shelf_code,
    dueAt: row.due_at,
    pickupCode: () => (sealed === null ? null : openSecret(purposeOf(SHELF_PICKUP_CODE), sealed)),
  };
}

export interface IngestTarget {
  businessId: number;
  pkg: ScanPackage;
  place: Omit<ScanPlace, 'gridKnown'>;
  /** The compartment or shelf the location id adds to the place's identifier. */
  sub: string | null;
}

/** The packages of these numbers whose distribution is under way (received, and not removed), with their business. */
export async function findDistributedPackages(
  em: Em,
  numbers: readonly string[],
): Promise<Map<string, { businessId: number; pkg: ScanPackage }>> {
  const found = new Map<string, { businessId: number; pkg: ScanPackage }>();
  if (numbers.length === 0) return found;
  const rows = await em.execute<(PackageStateRow & { business_id: number })[]>(
    `select pk.business_id, ${PACKAGE_STATE} from order_package pk ${WITH_DISTRIBUTION}
     where pk.package_number in (?) and pd.status is not null and pd.status <> 'removed'`,
    [[...new Set(numbers)]],
  );
  for (const r of rows) found.set(r.package_number, { businessId: r.business_id, pkg: scanPackageOf(r) });
  return found;
}

/**
 * For each (package number, place identifier) asked about, the package and the place of the package's own business
 * with that identifier, when both exist; keyed by the item's index.
 */
export async function findIngestTargets(
  em: Em,
  items: readonly { i: number; packageNumber: string; identifier: string; sub: string | null }[],
): Promise<Map<number, IngestTarget>> {
  const found = new Map<number, IngestTarget>();
  if (items.length === 0) return found;
  const rows = await em.execute<
    (PackageStateRow & {
      i: number;
      sub: string | null;
      business_id: number;
      place_id: number;
      kind: PlaceKind;
      code: string;
      device_code: string | null;
    })[]
  >(
    `select x.i, x.sub, pk.business_id, ${PACKAGE_STATE}, p.id as place_id, p.kind, p.code, dv.code as device_code
     from jsonb_to_recordset(?::jsonb) as x(i int, package_number text, identifier text, sub text)
     join order_package pk on pk.package_number = x.package_number
     join place p on p.business_id = pk.business_id and p.identifier = x.identifier
     left join device dv on dv.id = p.device_id
     ${WITH_DISTRIBUTION}`,
    [
      JSON.stringify(
        items.map((t) => ({ i: t.i, package_number: t.packageNumber, identifier: t.identifier, sub: t.sub })),
      ),
    ],
  );
  for (const r of rows) {
    found.set(r.i, {
      businessId: r.business_id,
      pkg: scanPackageOf(r),
      place: { id: r.place_id, kind: r.kind, code: r.code, deviceCode: r.device_code },
      sub: r.sub,
    });
  }
  return found;
}
