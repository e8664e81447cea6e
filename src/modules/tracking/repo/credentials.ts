import type { Caller } from '../../../platform/catalog/types.ts';
import { keyStore, type KeyView } from '../../../platform/db/accessKeys.ts';
import type { Em } from '../../../platform/db/orm.ts';

/** Prefix of OTEP ingest keys, so a bearer token is looked up in one table only. */
export const OTEP_KEY_PREFIX = 'otep_sk_';

/** Most unrevoked ingest keys one provider account may hold. */
export const MAX_ACTIVE_KEYS = 10;

const keys = keyStore({
  table: 'otep_credential',
  secretPrefix: OTEP_KEY_PREFIX,
  idPrefix: 'otk_',
  max: MAX_ACTIVE_KEYS,
});

/** The provider account that created the key. */
export async function callerForOtepKey(em: Em, token: string): Promise<Caller | null> {
  return (await keys.holder(em, token, 'otep_key'))?.caller ?? null;
}

/** Issues a key; null when the business already holds MAX_ACTIVE_KEYS unrevoked keys. */
export const createCredential = (
  em: Em,
  businessId: number,
  userId: number,
  name: string,
): Promise<(KeyView & { secret: string }) | null> => keys.create(em, { businessId, userId, name });

export const listCredentials = (em: Em, businessId: number): Promise<KeyView[]> => keys.list(em, businessId);

/** Revokes a key of this business; false when it has no such key. */
export const revokeCredential = (em: Em, businessId: number, keyId: string): Promise<boolean> =>
  keys.revoke(em, businessId, keyId);
