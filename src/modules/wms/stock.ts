/**
 * What the storage and ship-out modules do to stored packages (wms/index.ts exports these): every function joins
 * the caller's transaction through its `em` and opens none.
 */
import type { Em } from '../../platform/db/orm.ts';
import { fail } from './errorCodes.ts';
import {
  declarePackages as insertPackages,
  lockPackages,
  markReserved,
  openForReceiving as openOrder,
  releaseOrderPackages,
  releaseShipoutPackages,
  shipShipoutPackages,
  type DeclareInput,
  type StoredPackageRow,
} from './repo/packages.ts';

/** A storage order's packages, `expected`, each with a new SP tracking number, in the order given. */
export const declarePackages = (em: Em, input: DeclareInput): Promise<StoredPackageRow[]> => insertPackages(em, input);

/** The storage order is paid: its expected packages may be received. */
export const openForReceiving = (em: Em, input: { businessId: number; storageOrderId: number }): Promise<void> =>
  openOrder(em, input.businessId, input.storageOrderId);

export interface ReserveInput {
  businessId: number;
  customerId: number;
  warehouseId: number;
  shipoutId: number;
  packageIds: readonly number[];
}

/**
 * Reserves the customer's stored packages for a ship-out: locks them (for update, in id order), then refuses with
 * 422 PACKAGE_NOT_AVAILABLE (an id that is not the customer's, or a package not `stored`, or reserved by another
 * ship-out) or 422 PACKAGES_IN_SEVERAL_WAREHOUSES (a package of another warehouse than `warehouseId`), both AppErrors
 * with the package id in the message, nothing written. Packages already reserved by this ship-out pass (a retry).
 */
export async function reservePackages(em: Em, input: ReserveInput): Promise<void> {
  const ids = [...new Set(input.packageIds)];
  const rows = await lockPackages(em, input.businessId, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const id of ids) {
    const row = byId.get(id);
    if (!row || row.customer_id !== input.customerId)
      throw fail('PACKAGE_NOT_AVAILABLE', 'wms.package_not_yours', { id });
  }
  for (const row of rows) {
    if (row.warehouse_id !== input.warehouseId)
      throw fail('PACKAGES_IN_SEVERAL_WAREHOUSES', 'wms.package_other_warehouse', { id: row.id });
  }
  for (const row of rows) {
    if (row.state === 'reserved' && row.shipout_id === input.shipoutId) continue;
    if (row.state !== 'stored')
      throw fail('PACKAGE_NOT_AVAILABLE', `wms.package_${row.state === 'reserved' ? 'reserved' : 'not_stored'}`, {
        id: row.id,
      });
  }
  await markReserved(em, input.businessId, input.shipoutId, ids);
}

/** A storage order's expected packages -> released, or a ship-out's reserved ones -> stored; answers how many. */
export function releasePackages(
  em: Em,
  input: { businessId: number; storageOrderId: number } | { businessId: number; shipoutId: number },
): Promise<number> {
  return 'storageOrderId' in input
    ? releaseOrderPackages(em, input.businessId, input.storageOrderId)
    : releaseShipoutPackages(em, input.businessId, input.shipoutId);
}

/** A ship-out's reserved packages -> shipped; answers how many. */
export const shipPackages = (em: Em, input: { businessId: number; shipoutId: number }): Promise<number> =>
  shipShipoutPackages(em, input.businessId, input.shipoutId);
