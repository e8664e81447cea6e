import { randomBytes } from 'node:crypto';
import type { Caller } from '../../../platform/catalog/types.ts';
import type { Em } from '../../../platform/db/orm.ts';
import type { Role } from '../../../platform/roles.ts';
import { sha256Hex } from '../../../platform/secrets.ts';

/** Prefix of OTEP ingest keys, so a bearer token is looked up in one table only. */
export const OTEP_KEY_PREFIX = 'otep_sk_';

/** The provider account that created the key; its last use is written at most once a minute. */
export async function callerForOtepKey(em: Em, token: string): Promise<Caller | null> {
  const secretHash = sha256Hex(token);
  const [row] = await em.execute<{ id: number; name: string; email: string; role: Role; business_id: number }[]>(
    `with used as (
       update otep_credential set last_used_at = now()
       where secret_hash = ? and revoked_at is null and (last_used_at is null or last_used_at < now() - interval '1 minute'))
     select u.id, u.name, u.email, u.role, c.business_id from otep_credential c join app_user u on u.id = c.created_by
     where c.secret_hash = ? and c.revoked_at is null`,
    [secretHash, secretHash]);
  return row ? { id: row.id, name: row.name, email: row.email, role: row.role, businessId: row.business_id, tokenHash: secretHash, via: 'otep_key' } : null;
}

export interface CredentialView {
  key_id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** Most unrevoked ingest keys one provider account may hold. */
export const MAX_ACTIVE_KEYS = 10;

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const present = (r: { key_id: string; name: string; created_at: Date; last_used_at: Date | null; revoked_at: Date | null }): CredentialView => ({
  key_id: r.key_id, name: r.name, created_at: iso(r.created_at)!, last_used_at: iso(r.last_used_at), revoked_at: iso(r.revoked_at),
});

/**
 * Issues a key: the secret is returned once and only its SHA-256 is stored (it is 256 random bits, so a fast
 * hash is enough). Null when the business already holds MAX_ACTIVE_KEYS unrevoked keys.
 */
export async function createCredential(em: Em, businessId: number, userId: number, name: string): Promise<(CredentialView & { secret: string }) | null> {
  const keyId = `otk_${randomBytes(8).toString('hex')}`;
  const secret = `${OTEP_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const [row] = await em.execute<Parameters<typeof present>[0][]>(
    `insert into otep_credential (key_id, business_id, created_by, name, secret_hash)
     select ?, ?, ?, ?, ? where (select count(*) from otep_credential where business_id = ? and revoked_at is null) < ?
     returning key_id, name, created_at, last_used_at, revoked_at`,
    [keyId, businessId, userId, name, sha256Hex(secret), businessId, MAX_ACTIVE_KEYS]);
  return row ? { ...present(row), secret } : null;
}

export async function listCredentials(em: Em, businessId: number): Promise<CredentialView[]> {
  const rows = await em.execute<Parameters<typeof present>[0][]>(
    'select key_id, name, created_at, last_used_at, revoked_at from otep_credential where business_id = ? order by id desc', [businessId]);
  return rows.map(present);
}

/** Revokes a key of this business; false when it has no such key. Revoking twice keeps the first time. */
export async function revokeCredential(em: Em, businessId: number, keyId: string): Promise<boolean> {
  const rows = await em.execute<{ key_id: string }[]>(
    'update otep_credential set revoked_at = coalesce(revoked_at, now()) where business_id = ? and key_id = ? returning key_id', [businessId, keyId]);
  return rows.length > 0;
}
