/**
 * Driver records: a driver account (app_user, role driver) and its driver_profile. An account without a record (made
 * before records existed, or by a standalone app's registration) reads as an active driver without limits, and gets
 * its record on the first change.
 */
import type { Em } from '../../../platform/db/orm.ts';
import { executeBound } from '../../../platform/db/orm.ts';
import type { Break, DriverStatus } from '../domain.ts';

export interface DriverRow {
  user_id: number;
  business_id: number;
  name: string;
  email: string;
  status: DriverStatus;
  phone: string | null;
  vehicle: string | null;
  capacity_weight_kg: number | null;
  capacity_volume_l: number | null;
  capacity_parcels: number | null;
  skills: string[];
  shift_start: string | null;
  shift_end: string | null;
  breaks: Break[];
  depot_lat: number | null;
  depot_lng: number | null;
  max_route_minutes: number | null;
  on_duty: boolean;
  duty_changed_at: Date | null;
  decided_at: Date | null;
  rejected_reason: string | null;
  created_at: Date;
}

/** The columns of DriverRow from `app_user u left join driver_profile p`. */
const COLUMNS = `u.id as user_id, u.business_id, u.name, u.email, coalesce(p.status, 'active') as status, p.phone, p.vehicle,
  p.capacity_weight_kg::float8 as capacity_weight_kg, p.capacity_volume_l::float8 as capacity_volume_l,
  p.capacity_parcels, coalesce(p.skills, '{}') as skills, to_char(p.shift_start, 'HH24:MI') as shift_start,
  to_char(p.shift_end, 'HH24:MI') as shift_end, coalesce(p.breaks, '[]') as breaks, p.depot_lat, p.depot_lng,
  p.max_route_minutes, coalesce(p.on_duty, false) as on_duty, p.duty_changed_at, p.decided_at, p.rejected_reason,
  coalesce(p.created_at, u.created_at) as created_at`;
const FROM = `from app_user u left join driver_profile p on p.user_id = u.id
  where u.role = 'driver' and u.business_id = $1`;

export interface DriverFilter {
  ids?: readonly number[];
  status?: DriverStatus;
  onDuty?: boolean;
}

/** The business's drivers that match, by id; `page` limits them, and `total` counts all that match. */
export async function driverRows(
  em: Em,
  businessId: number,
  filter: DriverFilter,
  page?: { limit: number; offset: number },
): Promise<{ total: number; rows: DriverRow[] }> {
  const where = `${FROM}
    and ($2::int[] is null or u.id = any($2::int[]))
    and ($3::text is null or coalesce(p.status, 'active') = $3)
    and ($4::boolean is null or coalesce(p.on_duty, false) = $4)`;
  const params = [businessId, filter.ids ? [...filter.ids] : null, filter.status ?? null, filter.onDuty ?? null];
  const rows = await executeBound<DriverRow>(
    em,
    `select ${COLUMNS} ${where} order by u.id ${page ? 'limit $5 offset $6' : ''}`,
    page ? [...params, page.limit, page.offset] : params,
  );
  if (!page) return { total: rows.length, rows };
  const [count] = await executeBound<{ total: number }>(em, `select count(*)::int as total ${where}`, params);
  return { total: count!.total, rows };
}

export async function driverRow(em: Em, businessId: number, driverId: number): Promise<DriverRow | null> {
  const { rows } = await driverRows(em, businessId, { ids: [driverId] });
  return rows[0] ?? null;
}

/**
 * Gives the business's driver its record when it has none and locks it for the transaction; null when the business
 * has no driver of that id.
 */
export async function lockDriver(tx: Em, businessId: number, driverId: number): Promise<DriverRow | null> {
  await executeBound(
    tx,
    `insert into driver_profile (user_id, business_id)
     select id, business_id from app_user where id = $1 and business_id = $2 and role = 'driver'
     on conflict (user_id) do nothing`,
    [driverId, businessId],
  );
  await executeBound(tx, 'select 1 from driver_profile where user_id = $1 and business_id = $2 for update', [
    driverId,
    businessId,
  ]);
  return driverRow(tx, businessId, driverId);
}

/** A driver account and its record: null when an account has the email already. */
export async function insertDriver(
  tx: Em,
  d: { businessId: number; email: string; name: string; passwordHash: string; status: DriverStatus },
): Promise<number | null> {
  const [user] = await executeBound<{ id: number }>(
    tx,
    `insert into app_user (business_id, email, name, role, password_hash) values ($1, $2, $3, 'driver', $4)
     on conflict (email) do nothing returning id`,
    [d.businessId, d.email, d.name, d.passwordHash],
  );
  if (!user) return null;
  await executeBound(tx, 'insert into driver_profile (user_id, business_id, status) values ($1, $2, $3)', [
    user.id,
    d.businessId,
    d.status,
  ]);
  return user.id;
}

/** The record's columns a change may set; a value of undefined leaves the column as it is. */
export interface ProfileChange {
  phone?: string | null;
  vehicle?: string | null;
  capacity_weight_kg?: number | null;
  capacity_volume_l?: number | null;
  capacity_parcels?: number | null;
  skills?: string[];
  shift_start?: string | null;
  shift_end?: string | null;
  breaks?: Break[];
  depot_lat?: number | null;
  depot_lng?: number | null;
  max_route_minutes?: number | null;
}

const CASTS: Record<keyof ProfileChange, string> = {
  phone: 'text',
  vehicle: 'text',
  capacity_weight_kg: 'numeric',
  capacity_volume_l: 'numeric',
  capacity_parcels: 'int',
  skills: 'text[]',
  shift_start: 'time',
  shift_end: 'time',
  breaks: 'jsonb',
  depot_lat: 'float8',
  depot_lng: 'float8',
  max_route_minutes: 'int',
};

/** Sets the columns given on a record that exists (lockDriver or insertDriver made it). */
export async function updateProfile(tx: Em, driverId: number, change: ProfileChange): Promise<void> {
  const set = (Object.keys(CASTS) as (keyof ProfileChange)[]).filter((k) => change[k] !== undefined);
  if (set.length === 0) return;
  const values = set.map((k) => (k === 'breaks' ? JSON.stringify(change[k]) : change[k]));
  await executeBound(
    tx,
    `update driver_profile set ${set.map((k, i) => `${k} = $${i + 2}::${CASTS[k]}`).join(', ')}, updated_at = now()
     where user_id = $1`,
    [driverId, ...values],
  );
}

/** Records the business's decision, with the reason of a rejection or suspension. */
export async function setStatus(
  tx: Em,
  driverId: number,
  d: { status: DriverStatus; decidedBy: number; reason: string | null },
): Promise<void> {
  await executeBound(
    tx,
    `update driver_profile set status = $2, decided_by = $3, decided_at = now(), rejected_reason = $4, updated_at = now()
     where user_id = $1`,
    [driverId, d.status, d.decidedBy, d.reason],
  );
}

/** Sets the duty and counts the change; answers the change's number and time. */
export async function setDuty(tx: Em, driverId: number, onDuty: boolean): Promise<{ n: number; changedAt: Date }> {
  const [row] = await executeBound<{ duty_changes: number; duty_changed_at: Date }>(
    tx,
    `update driver_profile set on_duty = $2, duty_changed_at = now(), duty_changes = duty_changes + 1, updated_at = now()
     where user_id = $1 returning duty_changes, duty_changed_at`,
    [driverId, onDuty],
  );
  return { n: row!.duty_changes, changedAt: new Date(row!.duty_changed_at) };
}

/** Revokes every session of the account. */
export async function revokeSessions(tx: Em, userId: number): Promise<void> {
  await executeBound(tx, 'update auth_token set revoked_at = now() where user_id = $1 and revoked_at is null', [
    userId,
  ]);
}

/** The business of a client code, as a driver registering names it. */
export async function businessOfCode(em: Em, code: string): Promise<number | null> {
  const [row] = await executeBound<{ id: number }>(em, 'select id from business where code = $1', [code]);
  return row?.id ?? null;
}

/** A driver account may sign in unless its record says it is not active. */
export async function driverMaySignIn(em: Em, userId: number): Promise<boolean> {
  const [row] = await executeBound<{ status: DriverStatus }>(
    em,
    'select status from driver_profile where user_id = $1',
    [userId],
  );
  return !row || row.status === 'active';
}

/** Gives a driver account an active record with these fields, unless it has one (the demo seed); true when it did. */
export async function ensureProfile(
  tx: Em,
  userId: number,
  businessId: number,
  change: ProfileChange,
): Promise<boolean> {
  const [made] = await executeBound<{ user_id: number }>(
    tx,
    `insert into driver_profile (user_id, business_id, status) values ($1, $2, 'active')
     on conflict (user_id) do nothing returning user_id`,
    [userId, businessId],
  );
  if (made) await updateProfile(tx, userId, change);
  return made !== undefined;
}
