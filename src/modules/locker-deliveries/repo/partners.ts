import type { Em } from '../../../platform/db/orm.ts';
import type { CompartmentSize } from '../../lockers/index.ts';
import { LOCKER_SETTING_BOUNDS, LOCKER_SETTING_NAMES, type LockerSettings } from '../domain.ts';

export type SettingsRow = Partial<LockerSettings>;

/** The business's settings, each one its default where the business has not set it. */
export const settingsOf = (row: SettingsRow | null): LockerSettings =>
  Object.fromEntries(
    LOCKER_SETTING_NAMES.map((k) => [k, row?.[k] ?? LOCKER_SETTING_BOUNDS[k].default]),
  ) as LockerSettings;

export async function readLockerSettings(em: Em, businessId: number): Promise<LockerSettings> {
  const [row] = await em.execute<SettingsRow[]>('select * from locker_settings where business_id = ?', [businessId]);
  return settingsOf(row ?? null);
}

/** Changes the given settings, keeping the others; new deliveries take them, those under way keep theirs. */
export async function writeLockerSettings(
  em: Em,
  businessId: number,
  patch: Partial<LockerSettings>,
): Promise<LockerSettings> {
  const given = LOCKER_SETTING_NAMES.filter((k) => patch[k] !== undefined);
  if (given.length === 0) return readLockerSettings(em, businessId);
  const [row] = await em.execute<SettingsRow[]>(
    `insert into locker_settings (business_id, ${given.join(', ')}) values (?${', ?'.repeat(given.length)})
     on conflict (business_id) do update set ${given.map((k) => `${k} = excluded.${k}`).join(', ')}, updated_at = now()
     returning *`,
    [businessId, ...given.map((k) => patch[k])],
  );
  return settingsOf(row!);
}

/** A business account whose users include a locker provider, by its code. */
export async function findLockerProvider(
  em: Em,
  code: string,
): Promise<{ id: number; code: string; name: string } | null> {
  const [row] = await em.execute<{ id: number; code: string; name: string }[]>(
    "select b.id, b.code, b.name from business b where b.code = ? and exists (select 1 from app_user u where u.business_id = b.id and u.role = 'locker_provider')",
    [code],
  );
  return row ?? null;
}

/** Lets a provider deliver into the business's lockers; false when it already could. */
export async function grantLockerPartner(em: Em, businessId: number, providerId: number): Promise<boolean> {
  const rows = await em.execute(
    'insert into locker_partner (business_id, provider_id) values (?, ?) on conflict do nothing returning provider_id',
    [businessId, providerId],
  );
  return rows.length > 0;
}

/** Stops new deliveries of the provider into the business's lockers (those under way go on); false when there was no grant. */
export async function revokeLockerPartner(em: Em, businessId: number, providerId: number): Promise<boolean> {
  const rows = await em.execute(
    'delete from locker_partner where business_id = ? and provider_id = ? returning provider_id',
    [businessId, providerId],
  );
  return rows.length > 0;
}

export async function listLockerPartners(
  em: Em,
  businessId: number,
): Promise<{ provider_code: string; provider_name: string; granted_at: string }[]> {
  const rows = await em.execute<{ code: string; name: string; created_at: Date }[]>(
    'select b.code, b.name, lp.created_at from locker_partner lp join business b on b.id = lp.provider_id where lp.business_id = ? order by lp.created_at, b.code',
    [businessId],
  );
  return rows.map((r) => ({
    provider_code: r.code,
    provider_name: r.name,
    granted_at: new Date(r.created_at).toISOString(),
  }));
}

export interface GrantedLocker {
  device_id: string;
  name: string;
  sandbox: boolean;
  free: Record<CompartmentSize, number>;
}

/** The lockers the provider may deliver into, with their free compartments by size. */
export async function listGrantedLockers(em: Em, providerId: number): Promise<GrantedLocker[]> {
  const rows = await em.execute<
    { code: string; name: string; sandbox: boolean; free: Partial<Record<CompartmentSize, number>> | null }[]
  >(
    `select d.code, d.name, d.sandbox,
       (select jsonb_object_agg(size, n) from (select c.size, count(*)::int as n from compartment c
          where c.device_id = d.id and not exists (select 1 from compartment_parcel p where p.compartment_id = c.id) group by c.size) f) as free
     from device d join locker_partner lp on lp.business_id = d.business_id and lp.provider_id = ?
     order by d.sandbox, d.code`,
    [providerId],
  );
  return rows.map((r) => ({
    device_id: r.code,
    name: r.name,
    sandbox: r.sandbox,
    free: { S: 0, M: 0, L: 0, XL: 0, ...r.free },
  }));
}

/** A sandbox locker the provider may deliver into, by its code. */
export async function findGrantedSandbox(em: Em, providerId: number, code: string): Promise<{ id: number } | null> {
  const [row] = await em.execute<{ id: number }[]>(
    'select d.id from device d join locker_partner lp on lp.business_id = d.business_id and lp.provider_id = ? where d.code = ? and d.sandbox',
    [providerId, code],
  );
  return row ?? null;
}
