/** The two steps every password sign-in shares: the checked password and the issued bearer token. */
import type { Config } from '../../platform/config.ts';
import type { Em } from '../../platform/db/orm.ts';
import { errors } from '../../platform/errors.ts';
import { DUMMY_PASSWORD_HASH, newToken, sha256Hex, verifyPassword } from '../../platform/secrets.ts';
import type { User } from './entities.ts';
import { issueToken, userForLogin, type AppBinding } from './repo.ts';
import { recordVerdict, refuseWhileHeld } from './signInLock.ts';
import { signInAllowed } from './hooks.ts';

/**
 * The account of `email` when `password` is its password, else INVALID_CREDENTIALS, the same whether or not an
 * account has the email (a dummy hash is verified when none has, so the time says nothing either). Counts wrong
 * passwords per email and refuses a held-back email first (TOO_MANY_ATTEMPTS). An account a signInAllowed hook holds
 * back (a driver not approved) is answered and counted as a wrong password.
 */
export async function accountForPassword(em: Em, email: string, password: string, config: Config): Promise<User> {
  await refuseWhileHeld(em, email, config);
  const user = await userForLogin(em, email);
  const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
  // An account a module holds back (a driver not approved) counts and answers as a wrong password does.
  const allowed =
    user !== null &&
    ok &&
    (await signInAllowed(em, { id: user.id, role: user.role, businessId: user.businessId ?? null }));
  await recordVerdict(em, email, allowed, config);
  if (!allowed) throw errors.invalidCredentials();
  return user;
}

/** Issues a bearer token for the account, lasting TOKEN_TTL_HOURS; only its digest is stored. */
export async function openSession(
  em: Em,
  userId: number,
  config: Config,
  app?: AppBinding,
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(Date.now() + config.tokenTtlHours * 3600_000);
  await issueToken(em, userId, sha256Hex(token), expiresAt, app);
  return { token, expiresAt };
}
