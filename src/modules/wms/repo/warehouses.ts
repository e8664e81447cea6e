/** Warehouses (docs/customer-services.md, "Warehouses and stored packages"): a business's own, code unique in it. */
import { executeBound, type Em } from '../../../platform/db/orm.ts';

export interface WarehouseAddress {
  line1: string;
  line2: string | null;
  city: string;
  state: string | null;
  postal_code: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

export interface WarehouseRow {
  id: number;
  business_id: number;
  code: string;
  name: string;
  address: WarehouseAddress;
  timezone: string;
  active: boolean;
  created_at: string;
  updated_at: string;
}

const COLUMNS = `id, business_id, code, name, address, timezone, active,
  to_json(created_at) #>> '{}' as created_at, to_json(updated_at) #>> '{}' as updated_at`;

export interface WarehouseFields {
  code: string;
  name: string;
  address: WarehouseAddress;
  timezone: string;
  active: boolean;
}

/** The new warehouse, or null when the business has one with this code already. */
export async function insertWarehouse(em: Em, businessId: number, f: WarehouseFields): Promise<WarehouseRow | null> {
  const rows = await executeBound<WarehouseRow>(
    em,
    `insert into warehouse (business_id, code, name, address, timezone, active) values ($1, $2, $3, $4, $5, $6)
     on conflict (business_id, code) do nothing returning ${COLUMNS}`,
    [businessId, f.code, f.name, JSON.stringify(f.address), f.timezone, f.active],
  );
  return rows[0] ?? null;
}

/**
 * Changes the fields given; answers the row, 'missing' when the business has no such warehouse, 'taken' when the
 * new code is another warehouse's.
 */
export async function updateWarehouse(
  em: Em,
  businessId: number,
  id: number,
  f: Partial<WarehouseFields>,
): Promise<WarehouseRow | 'missing' | 'taken'> {
  try {
    const rows = await executeBound<WarehouseRow>(
      em,
      `update warehouse set code = coalesce($3, code), name = coalesce($4, name),
         address = coalesce($5::jsonb, address), timezone = coalesce($6, timezone), active = coalesce($7, active),
         updated_at = now()
       where business_id = $1 and id = $2 returning ${COLUMNS}`,
      [
        businessId,
        id,
        f.code ?? null,
        f.name ?? null,
        f.address ? JSON.stringify(f.address) : null,
        f.timezone ?? null,
        f.active ?? null,
      ],
    );
    return rows[0] ?? 'missing';
  } catch (e) {
    if ((e as { code?: string }).code === '23505') return 'taken';
    throw e;
  }
}

/** The business's warehouse of this id or code, active or not, or null. */
async function warehouseWhere(em: Em, businessId: number, column: 'id' | 'code', value: number | string) {
  const rows = await executeBound<WarehouseRow>(
    em,
    `select ${COLUMNS} from warehouse where business_id = $1 and ${column} = $2`,
    [businessId, value],
  );
  return rows[0] ?? null;
}

/** The business's warehouse of this id, active or not, or null. */
export const warehouseOf = (em: Em, businessId: number, warehouseId: number): Promise<WarehouseRow | null> =>
  warehouseWhere(em, businessId, 'id', warehouseId);

/** The business's warehouse of this code, or null. */
export const warehouseByCode = (em: Em, businessId: number, code: string): Promise<WarehouseRow | null> =>
  warehouseWhere(em, businessId, 'code', code);

/** The business's warehouses by code, inactive ones only when asked. */
export function warehousesOf(em: Em, businessId: number, includeInactive: boolean): Promise<WarehouseRow[]> {
  return executeBound<WarehouseRow>(
    em,
    `select ${COLUMNS} from warehouse where business_id = $1 and ($2 or active) order by code`,
    [businessId, includeInactive],
  );
}
