/** The inventory read (docs/customer-services.md, "Inventory"): stored packages by warehouse, customer, state, age. */
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import { PACKAGE_COLUMNS, type StoredPackageRow, type StoredPackageState } from './packages.ts';

export interface InventoryFilter {
  businessId: number;
  warehouseId?: number;
  customerId?: number;
  states: readonly StoredPackageState[];
  minAgeDays?: number;
  maxAgeDays?: number;
}

export interface InventoryRow extends StoredPackageRow {
  customer_name: string;
  customer_email: string;
  warehouse_code: string;
  /** Whole days since received_at; null when not received. */
  age_days: number | null;
}

export interface InventorySummaryRow {
  warehouse_id: number;
  warehouse_code: string;
  customer_id: number;
  customer_name: string;
  packages: number;
}

// $1 business, $2 warehouse, $3 customer, $4 states, $5 min age days, $6 max age days.
const WHERE = `p.business_id = $1 and ($2::int is null or p.warehouse_id = $2) and ($3::int is null or p.customer_id = $3)
  and p.state = any($4::text[])
  and ($5::int is null or p.received_at <= now() - make_interval(days => $5::int))
  and ($6::int is null or p.received_at > now() - make_interval(days => $6::int + 1))`;

const params = (f: InventoryFilter) => [
  f.businessId,
  f.warehouseId ?? null,
  f.customerId ?? null,
  [...f.states],
  f.minAgeDays ?? null,
  f.maxAgeDays ?? null,
];

/** One page of the inventory, oldest received first (not yet received last), with the total. */
export async function inventoryPage(
  em: Em,
  f: InventoryFilter,
  limit: number,
  offset: number,
): Promise<{ total: number; rows: InventoryRow[] }> {
  const [count] = await executeBound<{ total: number }>(
    em,
    `select count(*)::int as total from stored_package p where ${WHERE}`,
    params(f),
  );
  const rows = await executeBound<InventoryRow>(
    em,
    `select ${PACKAGE_COLUMNS}, u.name as customer_name, u.email as customer_email, w.code as warehouse_code,
       floor(extract(epoch from now() - p.received_at) / 86400)::int as age_days
     from stored_package p join app_user u on u.id = p.customer_id join warehouse w on w.id = p.warehouse_id
     where ${WHERE}
     order by p.received_at nulls last, p.id limit $7 offset $8`,
    [...params(f), limit, offset],
  );
  return { total: count!.total, rows };
}

/** The filtered packages counted per warehouse and customer (every page). */
export function inventorySummary(em: Em, f: InventoryFilter): Promise<InventorySummaryRow[]> {
  return executeBound<InventorySummaryRow>(
    em,
    `select p.warehouse_id, w.code as warehouse_code, p.customer_id, u.name as customer_name, count(*)::int as packages
     from stored_package p join app_user u on u.id = p.customer_id join warehouse w on w.id = p.warehouse_id
     where ${WHERE}
     group by p.warehouse_id, w.code, p.customer_id, u.name order by w.code, p.customer_id`,
    params(f),
  );
}
