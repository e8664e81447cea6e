/**
 * Data access for the identity bindings (table identity_binding): the one global binding of an identity provider's
 * subject to an account, shared by the web and every app (docs/apps.md, Sign-in).
 */
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import type { Role } from '../../../platform/roles.ts';

export interface AccountRow {
  id: number;
  name: string;
  email: string;
  role: Role;
  business_id: number | null;
}

const ACCOUNT = 'u.id, u.name, u.email, u.role, u.business_id';

/** The account bound to the provider's subject, if any. */
export async function accountOfIdentity(em: Em, issuer: string, subject: string): Promise<AccountRow | null> {
  const rows = await executeBound<AccountRow>(
    em,
    `select ${ACCOUNT} from identity_binding i join app_user u on u.id = i.user_id where i.issuer = $1 and i.subject = $2`,
    [issuer, subject],
  );
  return rows[0] ?? null;
}

export async function accountByEmail(em: Em, email: string): Promise<AccountRow | null> {
  const rows = await executeBound<AccountRow>(em, `select ${ACCOUNT} from app_user u where u.email = $1`, [email]);
  return rows[0] ?? null;
}

/**
 * Binds the subject to the account. False, with nothing written, when the subject is bound to another account or
 * the account to another subject of the provider (a conflict); true when bound, already so included.
 */
export async function bindIdentity(em: Em, issuer: string, subject: string, userId: number): Promise<boolean> {
  const rows = await executeBound<{ user_id: number }>(
    em,
    `with added as (
       insert into identity_binding (issuer, subject, user_id) values ($1, $2, $3) on conflict do nothing returning user_id
     )
     select user_id from added
     union all
     select user_id from identity_binding where issuer = $1 and subject = $2 and user_id = $3`,
    [issuer, subject, userId],
  );
  return rows.length > 0;
}

/** Removes the account's binding to the provider; whether there was one. */
export async function unbindIdentity(em: Em, issuer: string, userId: number): Promise<boolean> {
  const rows = await executeBound(em, 'delete from identity_binding where issuer = $1 and user_id = $2 returning id', [
    issuer,
    userId,
  ]);
  return rows.length > 0;
}

/** The audiences an account's ID token may carry to be linked: the web's, and those of the apps of its business. */
export async function audiencesFor(em: Em, businessId: number | null): Promise<string[]> {
  if (businessId === null) return [];
  const rows = await executeBound<{ aud: string }>(
    em,
    `select distinct a.config->'authentication'->'idp'->>'server_client_id' as aud
     from platform_app a join platform_app_client c on c.app_id = a.id
     where c.business_id = $1 and (a.config->'authentication'->'methods'->>'idp')::boolean`,
    [businessId],
  );
  return rows.map((r) => r.aud).filter((a) => a.trim() !== '');
}
