import type { Em } from '../../../platform/db/orm.ts';
import { findDeliveryProvider } from '../../identity/index.ts';

export interface SupplierAccountRow {
  id: number;
  carrier_code: string;
  carrier_name: string;
  member_number: string;
  created_at: Date;
  ended_at: Date | null;
}

const SELECT_ACCOUNT = `select a.id, c.code as carrier_code, c.name as carrier_name, a.member_number, a.created_at, a.ended_at
  from carrier_supplier_account a join business c on c.id = a.carrier_id`;

/** Opens the account; when nothing was written, answers why. */
export async function insertSupplierAccount(
  em: Em,
  businessId: number,
  carrierCode: string,
  memberNumber: string,
  createdBy: number,
): Promise<SupplierAccountRow | 'no_carrier' | 'exists' | 'member_taken'> {
  const carrierId = await findDeliveryProvider(em, carrierCode);
  if (carrierId === null) return 'no_carrier';
  const rows = await em.execute<{ id: number }[]>(
    `insert into carrier_supplier_account (business_id, carrier_id, member_number, created_by) values (?, ?, ?, ?)
     on conflict do nothing returning id`,
    [businessId, carrierId, memberNumber, createdBy],
  );
  if (rows.length > 0)
    return (await em.execute<SupplierAccountRow[]>(`${SELECT_ACCOUNT} where a.id = ?`, [rows[0]!.id]))[0]!;
  const [open] = await em.execute(
    'select 1 from carrier_supplier_account where business_id = ? and carrier_id = ? and ended_at is null',
    [businessId, carrierId],
  );
  return open ? 'exists' : 'member_taken';
}

export function listSupplierAccounts(em: Em, businessId: number): Promise<SupplierAccountRow[]> {
  return em.execute<SupplierAccountRow[]>(`${SELECT_ACCOUNT} where a.business_id = ? order by a.id`, [businessId]);
}

/** Ends an active account; null when the business has no such active account. */
export async function endSupplierAccount(em: Em, businessId: number, id: number): Promise<SupplierAccountRow | null> {
  const rows = await em.execute<{ id: number }[]>(
    'update carrier_supplier_account set ended_at = now() where id = ? and business_id = ? and ended_at is null returning id',
    [id, businessId],
  );
  return rows.length === 0
    ? null
    : (await em.execute<SupplierAccountRow[]>(`${SELECT_ACCOUNT} where a.id = ?`, [id]))[0]!;
}
