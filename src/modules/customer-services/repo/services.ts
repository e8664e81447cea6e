/**
 * The catalog's services (docs/customer-services.md, "The catalog"): shipping, storage and ship-out services of a
 * business, code unique per business and kind. Inserts and updates answer null / 'taken' on a code in use, so an
 * operation answers SERVICE_CODE_TAKEN without a failed statement.
 */
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import type { Fulfilment, ServicePricing, StoragePeriod } from '../domain.ts';

export type ServiceKind = 'shipping' | 'storage' | 'shipout';

interface ServiceBase {
  id: number;
  business_id: number;
  code: string;
  name: string;
  description: string | null;
  active: boolean;
  created_at: string;
  updated_at: string;
}

export interface ShippingServiceRow extends ServiceBase {
  pricing: ServicePricing;
  fulfilment: Fulfilment;
  max_packages: number;
  max_weight_grams: number | null;
}

export interface StorageServiceRow extends ServiceBase {
  warehouse_id: number;
  period: StoragePeriod;
  price_per_period: string;
  handling_fee: string;
  tax_rate: string;
}

export interface ShipoutServiceRow extends ServiceBase {
  warehouse_id: number;
  pricing_method: 1 | 2;
  pricing: ServicePricing | null;
  fulfilment: Fulfilment;
}

export interface ServiceRows {
  shipping: ShippingServiceRow;
  storage: StorageServiceRow;
  shipout: ShipoutServiceRow;
}

const BASE = `id, business_id, code, name, description, active,
  to_json(created_at) #>> '{}' as created_at, to_json(updated_at) #>> '{}' as updated_at`;

const TABLES: Record<
  ServiceKind,
  { table: string; columns: string; fields: readonly string[]; json: readonly string[] }
> = {
  shipping: {
    table: 'shipping_service',
    columns: `${BASE}, pricing, fulfilment, max_packages, max_weight_grams`,
    fields: ['pricing', 'fulfilment', 'max_packages', 'max_weight_grams'],
    json: ['pricing', 'fulfilment'],
  },
  storage: {
    table: 'storage_service',
    columns: `${BASE}, warehouse_id, period, price_per_period::text as price_per_period,
        handling_fee::text as handling_fee, tax_rate::text as tax_rate`,
    fields: ['warehouse_id', 'period', 'price_per_period', 'handling_fee', 'tax_rate'],
    json: [],
  },
  shipout: {
    table: 'shipout_service',
    columns: `${BASE}, warehouse_id, pricing_method, pricing, fulfilment`,
    fields: ['warehouse_id', 'pricing_method', 'pricing', 'fulfilment'],
    json: ['pricing', 'fulfilment'],
  },
};

const COMMON = ['code', 'name', 'description', 'active'] as const;

type Fields<K extends ServiceKind> = Omit<ServiceRows[K], 'id' | 'business_id' | 'created_at' | 'updated_at'>;

const valueOf = (kind: ServiceKind, field: string, value: unknown): unknown =>
  TABLES[kind].json.includes(field) && value !== null && value !== undefined ? JSON.stringify(value) : value;

/** Whether another service of the kind in the business has this code. */
async function codeTaken(em: Em, kind: ServiceKind, businessId: number, code: string, exceptId: number | null) {
  const rows = await executeBound(
    em,
    `select 1 from ${TABLES[kind].table} where business_id = $1 and code = $2 and ($3::int is null or id <> $3)`,
    [businessId, code, exceptId],
  );
  return rows.length > 0;
}

/** The new service, or null when its code is taken in the business. */
export async function insertService<K extends ServiceKind>(
  em: Em,
  kind: K,
  businessId: number,
  f: Fields<K>,
): Promise<ServiceRows[K] | null> {
  const t = TABLES[kind];
  const names = [...COMMON, ...t.fields];
  const values = names.map((n) => valueOf(kind, n, (f as Record<string, unknown>)[n] ?? null));
  const rows = await executeBound<ServiceRows[K]>(
    em,
    `insert into ${t.table} (business_id, ${names.join(', ')})
     values ($1, ${names.map((_, i) => `$${i + 2}`).join(', ')})
     on conflict (business_id, code) do nothing returning ${t.columns}`,
    [businessId, ...values],
  );
  return rows[0] ?? null;
}

/**
 * Changes the fields present in `f` (a field given as null is written null); answers the row, 'missing' for no
 * such service of the business, 'taken' for a code another service of the kind has.
 */
export async function updateService<K extends ServiceKind>(
  em: Em,
  kind: K,
  businessId: number,
  id: number,
  f: Partial<Fields<K>>,
): Promise<ServiceRows[K] | 'missing' | 'taken'> {
  const t = TABLES[kind];
  const given = [...COMMON, ...t.fields].filter((n) => (f as Record<string, unknown>)[n] !== undefined);
  if (f.code !== undefined && (await codeTaken(em, kind, businessId, f.code, id))) return 'taken';
  const sets = given.map((n, i) => `${n} = $${i + 3}`);
  const rows = await executeBound<ServiceRows[K]>(
    em,
    `update ${t.table} set ${[...sets, 'updated_at = now()'].join(', ')}
     where business_id = $1 and id = $2 returning ${t.columns}`,
    [businessId, id, ...given.map((n) => valueOf(kind, n, (f as Record<string, unknown>)[n]))],
  );
  return rows[0] ?? 'missing';
}

/** The business's service of the kind `where` picks (`$2`, `$3`: `params`), or null. */
async function serviceWhere<K extends ServiceKind>(
  em: Em,
  kind: K,
  businessId: number,
  where: string,
  params: unknown[],
): Promise<ServiceRows[K] | null> {
  const t = TABLES[kind];
  const rows = await executeBound<ServiceRows[K]>(
    em,
    `select ${t.columns} from ${t.table} where business_id = $1 and ${where}`,
    [businessId, ...params],
  );
  return rows[0] ?? null;
}

/** The business's service of the kind with this id, or null. */
export const serviceById = <K extends ServiceKind>(em: Em, kind: K, businessId: number, id: number) =>
  serviceWhere(em, kind, businessId, 'id = $2', [id]);

/** The business's service of the kind with this code (active only when asked), or null. */
export const serviceByCode = <K extends ServiceKind>(
  em: Em,
  kind: K,
  businessId: number,
  code: string,
  activeOnly: boolean,
) => serviceWhere(em, kind, businessId, 'code = $2 and (not $3 or active)', [code, activeOnly]);

/** The business's services of the kind by code: active only when asked, of one warehouse when given. */
export function servicesOf<K extends ServiceKind>(
  em: Em,
  kind: K,
  businessId: number,
  opts: { activeOnly: boolean; warehouseId?: number },
): Promise<ServiceRows[K][]> {
  const t = TABLES[kind];
  const byWarehouse = kind === 'shipping' ? '' : ' and ($3::int is null or warehouse_id = $3)';
  return executeBound<ServiceRows[K]>(
    em,
    `select ${t.columns} from ${t.table} where business_id = $1 and (not $2 or active)${byWarehouse} order by code`,
    kind === 'shipping' ? [businessId, opts.activeOnly] : [businessId, opts.activeOnly, opts.warehouseId ?? null],
  );
}
