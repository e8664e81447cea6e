import type { Caller } from '../../platform/catalog/types.ts';
import type { Role } from '../../platform/roles.ts';
import { sha256Hex } from '../../platform/secrets.ts';
import type { Em } from '../../platform/db/orm.ts';

/** Prefix of OTEP ingest keys (otepCredentialRepo.ts), so a token is looked up in one table only. */
export const OTEP_KEY_PREFIX = 'otep_sk_';

/** Resolves a bearer token to its caller: a session token unexpired and not revoked, or an unrevoked ingest key. */
export async function callerForToken(em: Em, token: string): Promise<Caller | null> {
  const tokenHash = sha256Hex(token);
  if (token.startsWith(OTEP_KEY_PREFIX)) return callerForOtepKey(em, tokenHash);
  const [row] = await em.execute<{ id: number; name: string; email: string; role: Role; business_id: number | null }[]>(
    `select u.id, u.name, u.email, u.role, u.business_id from auth_token t join app_user u on u.id = t.user_id
     where t.token_hash = ? and t.revoked_at is null and t.expires_at > now()`,
    [tokenHash],
  );
  return row ? { id: row.id, name: row.name, email: row.email, role: row.role, businessId: row.business_id, tokenHash, via: 'session' } : null;
}

/** The provider account that created the key; its last use is written at most once a minute. */
async function callerForOtepKey(em: Em, secretHash: string): Promise<Caller | null> {
  const [row] = await em.execute<{ id: number; name: string; email: string; role: Role; business_id: number }[]>(
    `with used as (
       update otep_credential set last_used_at = now()
       where secret_hash = ? and revoked_at is null and (last_used_at is null or last_used_at < now() - interval '1 minute'))
     select u.id, u.name, u.email, u.role, c.business_id from otep_credential c join app_user u on u.id = c.created_by
     where c.secret_hash = ? and c.revoked_at is null`,
    [secretHash, secretHash]);
  return row ? { id: row.id, name: row.name, email: row.email, role: row.role, businessId: row.business_id, tokenHash: secretHash, via: 'otep_key' } : null;
}
