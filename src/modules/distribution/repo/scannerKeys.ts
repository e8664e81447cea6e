import type { Caller } from '../../../platform/catalog/types.ts';
import { keyStore, type KeyView } from '../../../platform/db/accessKeys.ts';
import type { Em } from '../../../platform/db/orm.ts';

/** Prefix of scanner keys, so a bearer token is looked up in one table only. */
export const SCANNER_KEY_PREFIX = 'tms_sk_';

/** Most unrevoked keys one place may hold: a key per scanner of a busy warehouse. */
export const MAX_SCANNER_KEYS = 20;

const keys = keyStore({
  table: 'scanner_key',
  secretPrefix: SCANNER_KEY_PREFIX,
  idPrefix: 'sk_',
  max: MAX_SCANNER_KEYS,
  owner: { column: 'place_id', table: 'place', code: 'code' },
});

/** The scanner behind a key: the admin who made it, at that key's place only (the scan refuses any other place). */
export async function callerForScannerKey(em: Em, token: string): Promise<Caller | null> {
  const h = await keys.holder(em, token, 'scanner_key');
  return h && { ...h.caller, place: h.owner! };
}

export const createScannerKey = (
  em: Em,
  businessId: number,
  placeId: number,
  userId: number,
  name: string,
): Promise<(KeyView & { secret: string }) | null> => keys.create(em, { businessId, ownerId: placeId, userId, name });

export const listScannerKeys = (em: Em, businessId: number, placeId: number): Promise<KeyView[]> =>
  keys.list(em, businessId, placeId);

export const revokeScannerKey = (em: Em, businessId: number, placeId: number, keyId: string): Promise<boolean> =>
  keys.revoke(em, businessId, keyId, placeId);
