import type { Em } from '../../../platform/db/orm.ts';
import type { DistributionStatus, ScanAction, ScanFlag, ScanSource } from '../domain.ts';

export interface DistributionRow {
  package_id: number;
  package_number: string;
  order_id: number;
  order_ref: string | null;
  status: DistributionStatus;
  warehouse: string;
  destination: string | null;
  loaded_at: Date | null;
  delivered_at: Date | null;
  shelved_at: Date | null;
  removed_at: Date | null;
  removal_reason: 'removed' | 'cancelled' | null;
  grid_id: number | null;
  grid_code: string | null;
  shelf_code: string | null;
  device_order_id: number | null;
  flagged_scans: number;
  last_step_at: Date;
  updated_at: Date;
}

export interface ScanRow {
  id: string;
  package_number: string;
  source: ScanSource;
  action: ScanAction;
  location: string;
  destination: string | null;
  grid_code: string | null;
  shelf_code: string | null;
  scanned_at: Date;
  recorded_at: Date;
  outcome: 'applied' | 'flagged';
  flag: ScanFlag | null;
  status_after: DistributionStatus | null;
}

const SELECT_DISTRIBUTION = `select pd.package_id, pk.package_number, pd.order_id, o.order_ref, pd.status, w.code as warehouse, d.code as destination,
    pd.loaded_at, pd.delivered_at, pd.shelved_at, pd.removed_at, pd.removal_reason, pd.grid_id, pd.grid_code, pd.shelf_code, pd.device_order_id,
    pd.flagged_scans, pd.last_step_at, pd.updated_at
  from package_distribution pd join order_package pk on pk.id = pd.package_id join delivery_order o on o.id = pd.order_id
    join place w on w.id = pd.warehouse_id left join place d on d.id = pd.destination_id`;

const SELECT_SCAN = `select s.id, pk.package_number, s.source, s.action, p.code as location, d.code as destination, s.grid_code, s.shelf_code,
    s.scanned_at, s.recorded_at, s.outcome, s.flag, s.status_after
  from distribution_scan s join order_package pk on pk.id = s.package_id join place p on p.id = s.place_id left join place d on d.id = s.destination_id`;

/** The business's package of this number with its distribution and every scan it received (oldest first); null when it was never scanned. */
export async function findDistribution(
  em: Em,
  businessId: number,
  packageNumber: string,
): Promise<{ distribution: DistributionRow | null; scans: ScanRow[] } | null> {
  const [pkg] = await em.execute<{ id: number }[]>(
    'select id from order_package where business_id = ? and package_number = ?',
    [businessId, packageNumber],
  );
  if (!pkg) return null;
  const [distribution] = await em.execute<DistributionRow[]>(`${SELECT_DISTRIBUTION} where pd.package_id = ?`, [
    pkg.id,
  ]);
  const scans = await em.execute<ScanRow[]>(`${SELECT_SCAN} where s.package_id = ? order by s.scanned_at, s.id`, [
    pkg.id,
  ]);
  return { distribution: distribution ?? null, scans };
}

/**
 * A warehouse's distribution list: the packages waiting there to be loaded (received, or removed from a truck),
 * oldest step first. Null when the business has no warehouse of this code.
 */
export async function listWarehousePackages(
  em: Em,
  businessId: number,
  warehouseCode: string,
  limit: number,
  offset: number,
): Promise<{ total: number; items: DistributionRow[] } | null> {
  const [place] = await em.execute<{ id: number }[]>(
    "select id from place where business_id = ? and code = ? and kind = 'warehouse'",
    [businessId, warehouseCode],
  );
  if (!place) return null;
  const where = "pd.business_id = ? and pd.warehouse_id = ? and pd.status in ('created', 'removed')";
  const [count] = await em.execute<{ n: string }[]>(
    `select count(*) as n from package_distribution pd where ${where}`,
    [businessId, place.id],
  );
  const items = await em.execute<DistributionRow[]>(
    `${SELECT_DISTRIBUTION} where ${where} order by pd.last_step_at, pd.package_id limit ? offset ?`,
    [businessId, place.id, limit, offset],
  );
  return { total: Number(count!.n), items };
}

/** The business's flagged scans, newest first: what the operator has to look at. */
export async function listFlaggedScans(
  em: Em,
  businessId: number,
  limit: number,
  offset: number,
): Promise<{ total: number; items: ScanRow[] }> {
  const [count] = await em.execute<{ n: string }[]>(
    "select count(*) as n from distribution_scan where business_id = ? and outcome = 'flagged'",
    [businessId],
  );
  const items = await em.execute<ScanRow[]>(
    `${SELECT_SCAN} where s.business_id = ? and s.outcome = 'flagged' order by s.id desc limit ? offset ?`,
    [businessId, limit, offset],
  );
  return { total: Number(count!.n), items };
}
