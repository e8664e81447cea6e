import type { Caller } from '../../../platform/catalog/types.ts';
import { keyStore, type KeyView } from '../../../platform/db/accessKeys.ts';
import type { Em } from '../../../platform/db/orm.ts';

/** Prefix of device keys, so a bearer token is looked up in one table only. */
export const DEVICE_KEY_PREFIX = 'tms_dk_';

/** Most unrevoked keys one device may hold (a key per locker controller, with room for a rotation). */
export const MAX_DEVICE_KEYS = 5;

const keys = keyStore({
  table: 'device_key',
  secretPrefix: DEVICE_KEY_PREFIX,
  idPrefix: 'dk_',
  max: MAX_DEVICE_KEYS,
  owner: { column: 'device_id', table: 'device', code: 'code' },
});

/** The locker behind a device key: the caller is the admin who made the key, on that key's device only (the runner lets a device key call only device operations). */
export async function callerForDeviceKey(em: Em, token: string): Promise<Caller | null> {
  const h = await keys.holder(em, token, 'device_key');
  return h && { ...h.caller, device: h.owner! };
}

const deviceOf = async (em: Em, businessId: number, code: string) =>
  (
    await em.execute<{ id: number }[]>('select id from device where code = ? and business_id = ?', [code, businessId])
  )[0]?.id;

/** Issues a key for a device of the business: 'no_device' when the business has no such device, 'too_many' when the device holds MAX_DEVICE_KEYS unrevoked keys. */
export async function createDeviceKey(
  em: Em,
  businessId: number,
  deviceCode: string,
  userId: number,
  name: string,
): Promise<(KeyView & { secret: string }) | 'no_device' | 'too_many'> {
  const ownerId = await deviceOf(em, businessId, deviceCode);
  if (ownerId === undefined) return 'no_device';
  return (await keys.create(em, { businessId, ownerId, userId, name })) ?? 'too_many';
}

/** The keys of a device of the business, newest first; null when the business has no such device. */
export async function listDeviceKeys(em: Em, businessId: number, deviceCode: string): Promise<KeyView[] | null> {
  const ownerId = await deviceOf(em, businessId, deviceCode);
  return ownerId === undefined ? null : keys.list(em, businessId, ownerId);
}

/** Revokes a key of this business's device; false when there is no such key. */
export async function revokeDeviceKey(em: Em, businessId: number, deviceCode: string, keyId: string): Promise<boolean> {
  const ownerId = await deviceOf(em, businessId, deviceCode);
  return ownerId !== undefined && keys.revoke(em, businessId, keyId, ownerId);
}

/** The device of the business with this code and the SHA-256 of every key it was given; null when there is none. */
export async function deviceWithKeyHashes(
  em: Em,
  businessId: number,
  deviceCode: string,
): Promise<{ id: number; keyHashes: string[] } | null> {
  const id = await deviceOf(em, businessId, deviceCode);
  if (id === undefined) return null;
  const rows = await em.execute<{ secret_hash: string }[]>('select secret_hash from device_key where device_id = ?', [
    id,
  ]);
  return { id, keyHashes: rows.map((r) => r.secret_hash) };
}
