import type { Caller } from '../../platform/catalog/types.ts';
import { AuthToken, Business, User } from './entities.ts';
import type { Em } from '../../platform/db/orm.ts';
import type { Role } from '../../platform/roles.ts';
import { sha256Hex } from '../../platform/secrets.ts';

/** Data access: MikroORM entities for single rows; SQL where a request's hot path needs one joined statement. */

export async function userForLogin(em: Em, email: string): Promise<User | null> {
  return em.findOne(User, { email }, { populate: ['passwordHash'] });
}

/** What a standalone app's session is held to besides its account (docs/apps.md, Sign-in). */
export interface AppBinding {
  appId: number;
  businessId: number;
  roles: readonly Role[];
  deviceId: string;
  devicePlatform: string;
}

export async function issueToken(
  em: Em,
  userId: number,
  tokenHash: string,
  expiresAt: Date,
  app?: AppBinding,
): Promise<void> {
  em.create(AuthToken, {
    userId,
    tokenHash,
    expiresAt,
    revokedAt: null,
    appId: app?.appId ?? null,
    appBusinessId: app?.businessId ?? null,
    appRoles: app ? [...app.roles] : null,
    deviceId: app?.deviceId ?? null,
    devicePlatform: app?.devicePlatform ?? null,
  });
  await em.flush();
}

export async function revokeToken(em: Em, tokenHash: string): Promise<void> {
  await em.nativeUpdate(AuthToken, { tokenHash, revokedAt: null }, { revokedAt: new Date() });
}

export async function businessById(em: Em, id: number): Promise<Business> {
  return em.findOneOrFail(Business, id);
}

/**
 * Resolves a session token to its caller: unexpired and not revoked, and, for a standalone app's session, while the
 * account still has one of the app's roles in the app's client business.
 */
export async function callerForSessionToken(em: Em, token: string): Promise<Caller | null> {
  const tokenHash = sha256Hex(token);
  const [row] = await em.execute<
    { id: number; name: string; email: string; role: Role; business_id: number | null; expires_at: Date }[]
  >(
    `select u.id, u.name, u.email, u.role, u.business_id, t.expires_at from auth_token t join app_user u on u.id = t.user_id
     where t.token_hash = ? and t.revoked_at is null and t.expires_at > now()
       and (t.app_id is null or (u.role = any(t.app_roles) and u.business_id = t.app_business_id))`,
    [tokenHash],
  );
  return row
    ? {
        id: row.id,
        name: row.name,
        email: row.email,
        role: row.role,
        businessId: row.business_id,
        tokenHash,
        via: 'session',
        expiresAt: new Date(row.expires_at),
      }
    : null;
}

/** The business of the code when it is a delivery provider's (a carrier): one of its accounts has that role. */
export async function findDeliveryProvider(em: Em, code: string): Promise<number | null> {
  const [row] = await em.execute<{ id: number }[]>(
    "select b.id from business b where b.code = ? and exists (select 1 from app_user u where u.business_id = b.id and u.role = 'delivery_provider')",
    [code],
  );
  return row?.id ?? null;
}
