/**
 * Stored packages (docs/customer-services.md, "Warehouses and stored packages"): the physical parcels, written by
 * the storage and ship-out modules only through wms/index.ts, and by receiving.
 */
import { randomInt } from 'node:crypto';
import { executeBound, type Em } from '../../../platform/db/orm.ts';

export type StoredPackageState = 'expected' | 'stored' | 'reserved' | 'shipped' | 'released';

export interface PackageInput {
  reference: string | null;
  description: string | null;
  weight_grams: number | null;
  length_mm: number | null;
  width_mm: number | null;
  height_mm: number | null;
}

export interface StoredPackageRow extends PackageInput {
  id: number;
  business_id: number;
  customer_id: number;
  warehouse_id: number;
  storage_order_id: number;
  tracking_number: string;
  state: StoredPackageState;
  receivable: boolean;
  received_at: string | null;
  location: string | null;
  shipout_id: number | null;
  fees_charged_periods: number;
}

export const PACKAGE_COLUMNS = `p.id, p.business_id, p.customer_id, p.warehouse_id, p.storage_order_id, p.reference,
  p.description, p.weight_grams, p.length_mm, p.width_mm, p.height_mm, p.tracking_number, p.state, p.receivable,
  to_json(p.received_at) #>> '{}' as received_at, p.location, p.shipout_id, p.fees_charged_periods`;

/** SP and ten random digits: printed on the inbound label, scanned at receiving. */
const newTrackingNumber = (): string => `SP${String(randomInt(0, 10_000_000_000)).padStart(10, '0')}`;

export interface DeclareInput {
  businessId: number;
  customerId: number;
  warehouseId: number;
  storageOrderId: number;
  packages: PackageInput[];
}

/**
 * Inserts the packages `expected`, each with a new tracking number; a number the business holds already is drawn
 * again (on conflict do nothing, then another draw for those left), so the answer is in the order given.
 */
export async function declarePackages(em: Em, input: DeclareInput): Promise<StoredPackageRow[]> {
  const numbers: string[] = new Array<string>(input.packages.length);
  let left = input.packages.map((_, i) => i);
  for (let attempt = 0; left.length > 0; attempt++) {
    if (attempt === 20) throw new Error('no free stored package tracking number after 20 draws');
    const drawn = new Set<string>();
    const rows = left.map((i) => {
      let n = newTrackingNumber();
      while (drawn.has(n)) n = newTrackingNumber();
      drawn.add(n);
      return { ...input.packages[i]!, i, tracking_number: n };
    });
    const inserted = await executeBound<{ tracking_number: string }>(
      em,
      `insert into stored_package (business_id, customer_id, warehouse_id, storage_order_id, reference, description,
         weight_grams, length_mm, width_mm, height_mm, tracking_number)
       select $1, $2, $3, $4, r.reference, r.description, r.weight_grams, r.length_mm, r.width_mm, r.height_mm,
         r.tracking_number
       from jsonb_to_recordset($5::jsonb) as r(i int, reference text, description text, weight_grams int,
         length_mm int, width_mm int, height_mm int, tracking_number text)
       order by r.i
       on conflict (business_id, tracking_number) do nothing
       returning tracking_number`,
      [input.businessId, input.customerId, input.warehouseId, input.storageOrderId, JSON.stringify(rows)],
    );
    const done = new Set(inserted.map((r) => r.tracking_number));
    for (const r of rows) if (done.has(r.tracking_number)) numbers[r.i] = r.tracking_number;
    left = rows.filter((r) => !done.has(r.tracking_number)).map((r) => r.i);
  }
  const rows = await executeBound<StoredPackageRow>(
    em,
    `select ${PACKAGE_COLUMNS} from stored_package p where p.business_id = $1 and p.tracking_number = any($2)`,
    [input.businessId, numbers],
  );
  const byNumber = new Map(rows.map((r) => [r.tracking_number, r]));
  return numbers.map((n) => byNumber.get(n)!);
}

/** The storage order is paid: its expected packages may be received. */
export async function openForReceiving(em: Em, businessId: number, storageOrderId: number): Promise<void> {
  await executeBound(
    em,
    `update stored_package set receivable = true, updated_at = now()
     where business_id = $1 and storage_order_id = $2 and state = 'expected' and not receivable`,
    [businessId, storageOrderId],
  );
}

export interface PackagesFilter {
  businessId: number;
  storageOrderId?: number;
  shipoutId?: number;
  customerId?: number;
  ids?: readonly number[];
}

/** The business's packages matching every filter given, by id. */
export function packagesOf(em: Em, f: PackagesFilter): Promise<StoredPackageRow[]> {
  return executeBound<StoredPackageRow>(
    em,
    `select ${PACKAGE_COLUMNS} from stored_package p
     where p.business_id = $1 and ($2::int is null or p.storage_order_id = $2) and ($3::int is null or p.shipout_id = $3)
       and ($4::int is null or p.customer_id = $4) and ($5::int[] is null or p.id = any($5))
     order by p.id`,
    [f.businessId, f.storageOrderId ?? null, f.shipoutId ?? null, f.customerId ?? null, f.ids ? [...f.ids] : null],
  );
}

/** The packages of these ids in the business, locked for update in id order (no deadlock between two reservers). */
export function lockPackages(em: Em, businessId: number, ids: readonly number[]): Promise<StoredPackageRow[]> {
  return executeBound<StoredPackageRow>(
    em,
    `select ${PACKAGE_COLUMNS} from stored_package p where p.business_id = $1 and p.id = any($2) order by p.id for update`,
    [businessId, [...ids]],
  );
}

/** stored -> reserved for the ship-out (the caller checked and locked them). */
export async function markReserved(em: Em, businessId: number, shipoutId: number, ids: readonly number[]) {
  await executeBound(
    em,
    `update stored_package set state = 'reserved', shipout_id = $2, updated_at = now()
     where business_id = $1 and id = any($3) and state = 'stored'`,
    [businessId, shipoutId, [...ids]],
  );
}

/** Moves the business's packages `where` says (`$2` is `key`) on with `sets`; answers how many. */
async function movePackages(em: Em, businessId: number, key: number, sets: string, where: string): Promise<number> {
  const rows = await executeBound<{ id: number }>(
    em,
    `update stored_package set ${sets}, updated_at = now() where business_id = $1 and ${where} returning id`,
    [businessId, key],
  );
  return rows.length;
}
const ORDER_EXPECTED = `storage_order_id = $2 and state = 'expected'`;
const SHIPOUT_RESERVED = `shipout_id = $2 and state = 'reserved'`;

/** A storage order's expected packages -> released; answers how many. */
export const releaseOrderPackages = (em: Em, businessId: number, storageOrderId: number): Promise<number> =>
  movePackages(em, businessId, storageOrderId, `state = 'released', receivable = false`, ORDER_EXPECTED);

/** A ship-out's reserved packages -> stored again, shipout_id cleared; answers how many. */
export const releaseShipoutPackages = (em: Em, businessId: number, shipoutId: number): Promise<number> =>
  movePackages(em, businessId, shipoutId, `state = 'stored', shipout_id = null`, SHIPOUT_RESERVED);

/** A ship-out's reserved packages -> shipped; answers how many. */
export const shipShipoutPackages = (em: Em, businessId: number, shipoutId: number): Promise<number> =>
  movePackages(em, businessId, shipoutId, `state = 'shipped'`, SHIPOUT_RESERVED);

/** The business's package with this tracking number, locked for the scan, or null. */
export async function packageByNumberForUpdate(
  em: Em,
  businessId: number,
  trackingNumber: string,
): Promise<StoredPackageRow | null> {
  const rows = await executeBound<StoredPackageRow>(
    em,
    `select ${PACKAGE_COLUMNS} from stored_package p where p.business_id = $1 and p.tracking_number = $2 for update`,
    [businessId, trackingNumber],
  );
  return rows[0] ?? null;
}

/** expected -> stored: storage time starts now. */
export async function markReceived(
  em: Em,
  id: number,
  by: number,
  location: string | null,
  weightGrams: number | null,
): Promise<StoredPackageRow> {
  const rows = await executeBound<StoredPackageRow>(
    em,
    `update stored_package p set state = 'stored', received_at = now(), received_by = $2,
       location = coalesce($3, location), weight_grams = coalesce($4, weight_grams), updated_at = now()
     where p.id = $1 returning ${PACKAGE_COLUMNS}`,
    [id, by, location, weightGrams],
  );
  return rows[0]!;
}
