/**
 * The customer's stored packages as list_stored_packages shows them: wms's rows (read here, written only through
 * wms/index.ts) with their warehouse and the storage fees charged for each.
 */
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import type { PackageInput } from '../../wms/index.ts';
import type { PackageState } from '../domain.ts';

export interface CustomerPackageRow extends PackageInput {
  id: number;
  storage_order_id: number;
  warehouse_id: number;
  warehouse_code: string;
  warehouse_name: string;
  shipout_id: number | null;
  tracking_number: string;
  state: PackageState;
  received_at: string | null;
  location: string | null;
  fees_charged_periods: number;
  /** Whole storage days since received_at, counted in the business's storage day. */
  age_days: number | null;
  currency: string;
  fees_charged: bigint;
  fees_owed: bigint;
}

type Raw = Omit<CustomerPackageRow, 'fees_charged' | 'fees_owed'> & {
  fees_charged: string;
  fees_owed: string;
  full_count: number;
};

/** A page of the customer's packages, newest first, with the total. */
export async function customerPackages(
  em: Em,
  f: {
    businessId: number;
    customerId: number;
    state?: PackageState;
    warehouseId?: number;
    limit: number;
    offset: number;
  },
): Promise<{ total: number; rows: CustomerPackageRow[] }> {
  const where = `p.business_id = $1 and p.customer_id = $2 and ($3::text is null or p.state = $3)
    and ($4::int is null or p.warehouse_id = $4)`;
  const params = [f.businessId, f.customerId, f.state ?? null, f.warehouseId ?? null];
  const rows = await executeBound<Raw>(
    em,
    `select p.id, p.storage_order_id, p.warehouse_id, w.code as warehouse_code, w.name as warehouse_name, p.shipout_id,
       p.tracking_number, p.reference, p.description, p.weight_grams, p.length_mm, p.width_mm, p.height_mm, p.state,
       to_json(p.received_at) #>> '{}' as received_at, p.location, p.fees_charged_periods,
       case when p.received_at is null then null
         else floor(extract(epoch from now() - p.received_at) / o.storage_day_seconds)::int end as age_days,
       o.currency, coalesce(f.charged, 0)::text as fees_charged, coalesce(f.owed, 0)::text as fees_owed,
       count(*) over ()::int as full_count
     from stored_package p
     join warehouse w on w.id = p.warehouse_id
     join storage_order o on o.id = p.storage_order_id
     left join lateral (
       select sum(amount) as charged, sum(amount - paid) filter (where settle = 'wallet') as owed
       from storage_fee where stored_package_id = p.id
     ) f on true
     where ${where}
     order by p.id desc limit $5 offset $6`,
    [...params, f.limit, f.offset],
  );
  let total = rows[0]?.full_count ?? 0;
  if (rows.length === 0 && f.offset > 0) {
    const [c] = await executeBound<{ n: number }>(
      em,
      `select count(*)::int as n from stored_package p where ${where}`,
      params,
    );
    total = c!.n;
  }
  return {
    total,
    rows: rows.map(({ full_count: _c, ...r }) => ({
      ...r,
      fees_charged: BigInt(r.fees_charged),
      fees_owed: BigInt(r.fees_owed),
    })),
  };
}
