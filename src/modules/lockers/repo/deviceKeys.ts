import { randomBytes } from 'node:crypto';
import type { Caller } from '../../../platform/catalog/types.ts';
import type { Em } from '../../../platform/db/orm.ts';
import type { Role } from '../../../platform/roles.ts';
import { sha256Hex } from '../../../platform/secrets.ts';

/** Prefix of device keys, so a bearer token is looked up in one table only. */
export const DEVICE_KEY_PREFIX = 'tms_dk_';

/** Most unrevoked keys one device may hold (a key per locker controller, with room for a rotation). */
export const MAX_DEVICE_KEYS = 5;

/**
 * The locker behind a device key: the caller is the admin who made the key, on that key's device only (the
 * runner lets a device key call only device operations). Its last use is written at most once a minute.
 */
export async function callerForDeviceKey(em: Em, token: string): Promise<Caller | null> {
  const secretHash = sha256Hex(token);
  const [row] = await em.execute<{ id: number; name: string; email: string; role: Role; business_id: number; device_id: number; device_code: string }[]>(
    `with used as (
       update device_key set last_used_at = now()
       where secret_hash = ? and revoked_at is null and (last_used_at is null or last_used_at < now() - interval '1 minute'))
     select u.id, u.name, u.email, u.role, k.business_id, d.id as device_id, d.code as device_code
     from device_key k join app_user u on u.id = k.created_by join device d on d.id = k.device_id
     where k.secret_hash = ? and k.revoked_at is null`,
    [secretHash, secretHash]);
  return row ? {
    id: row.id, name: row.name, email: row.email, role: row.role, businessId: row.business_id, tokenHash: secretHash, via: 'device_key',
    device: { id: row.device_id, code: row.device_code },
  } : null;
}

export interface DeviceKeyView {
  key_id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

interface DeviceKeyRow { key_id: string; name: string; created_at: Date; last_used_at: Date | null; revoked_at: Date | null }
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const present = (r: DeviceKeyRow): DeviceKeyView => ({
  key_id: r.key_id, name: r.name, created_at: iso(r.created_at)!, last_used_at: iso(r.last_used_at), revoked_at: iso(r.revoked_at),
});

/**
 * Issues a key for a device of the business: the secret is returned once and only its SHA-256 is stored (256
 * random bits, so a fast hash is enough). 'no_device' when the business has no such device, 'too_many' when the
 * device already holds MAX_DEVICE_KEYS unrevoked keys (counted under the device row's lock).
 */
export async function createDeviceKey(em: Em, businessId: number, deviceCode: string, userId: number, name: string): Promise<(DeviceKeyView & { secret: string }) | 'no_device' | 'too_many'> {
  return em.transactional(async (tx) => {
    const [device] = await tx.execute<{ id: number }[]>('select id from device where code = ? and business_id = ? for update', [deviceCode, businessId]);
    if (!device) return 'no_device';
    const keyId = `dk_${randomBytes(8).toString('hex')}`;
    const secret = `${DEVICE_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const [row] = await tx.execute<DeviceKeyRow[]>(
      `insert into device_key (key_id, device_id, business_id, created_by, name, secret_hash)
       select ?, ?, ?, ?, ?, ? where (select count(*) from device_key where device_id = ? and revoked_at is null) < ?
       returning key_id, name, created_at, last_used_at, revoked_at`,
      [keyId, device.id, businessId, userId, name, sha256Hex(secret), device.id, MAX_DEVICE_KEYS]);
    return row ? { ...present(row), secret } : 'too_many';
  });
}

/** The keys of a device of the business, newest first; null when the business has no such device. */
export async function listDeviceKeys(em: Em, businessId: number, deviceCode: string): Promise<DeviceKeyView[] | null> {
  const rows = await em.execute<(DeviceKeyRow & { device_id: number })[]>(
    `select d.id as device_id, k.key_id, k.name, k.created_at, k.last_used_at, k.revoked_at
     from device d left join device_key k on k.device_id = d.id where d.code = ? and d.business_id = ? order by k.id desc`, [deviceCode, businessId]);
  if (rows.length === 0) return null;
  return rows.filter((r) => r.key_id !== null).map(present);
}

/** Revokes a key of this business's device; false when there is no such key. Revoking twice keeps the first time. */
export async function revokeDeviceKey(em: Em, businessId: number, deviceCode: string, keyId: string): Promise<boolean> {
  const rows = await em.execute<{ key_id: string }[]>(
    `update device_key k set revoked_at = coalesce(k.revoked_at, now()) from device d
     where d.id = k.device_id and d.code = ? and k.business_id = ? and k.key_id = ? returning k.key_id`, [deviceCode, businessId, keyId]);
  return rows.length > 0;
}
