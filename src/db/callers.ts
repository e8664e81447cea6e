import type { Caller } from '../operations/types.ts';
import type { Role } from '../domain/roles.ts';
import { sha256Hex } from '../domain/secrets.ts';
import type { Em } from './orm.ts';

/** Resolves a bearer token to its caller: unexpired, not revoked. */
export async function callerForToken(em: Em, token: string): Promise<Caller | null> {
  const tokenHash = sha256Hex(token);
  const [row] = await em.execute<{ id: number; name: string; email: string; role: Role; business_id: number | null }[]>(
    `select u.id, u.name, u.email, u.role, u.business_id from auth_token t join app_user u on u.id = t.user_id
     where t.token_hash = ? and t.revoked_at is null and t.expires_at > now()`,
    [tokenHash],
  );
  return row ? { id: row.id, name: row.name, email: row.email, role: row.role, businessId: row.business_id, tokenHash } : null;
}
