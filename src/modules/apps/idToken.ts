/**
 * ID tokens of the identity provider (docs/apps.md, Sign-in): signature by a key of the provider's JWKS, issuer,
 * audience, expiry. The key set is fetched when a token names a key not yet known, and kept (jose's remote JWKS: at
 * most one fetch per 30 s, keys kept 10 min).
 */
import { createRemoteJWKSet, errors as jose, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { Config } from '../../platform/config.ts';
import { fail } from './errorCodes.ts';

/** The asymmetric algorithms OpenID providers sign ID tokens with; `none` and HMAC are never accepted. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** What a verified ID token says of its person. */
export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

const keySets = new Map<string, JWTVerifyGetKey>();
const keySetOf = (url: string) => {
  let set = keySets.get(url);
  if (!set) keySets.set(url, (set = createRemoteJWKSet(new URL(url), { timeoutDuration: 5_000 })));
  return set;
};

/** Failures of reaching the provider, not of the token: the caller may try again (503). */
const UNREACHABLE = new Set(['ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID', 'ERR_JOSE_GENERIC']);

/**
 * The identity of `token` when it is an unexpired ID token of the configured provider for one of `audiences`;
 * otherwise INVALID_ID_TOKEN (401), or IDP_UNAVAILABLE (503) when the provider's keys cannot be read. The token's
 * text never goes into an error or a log.
 */
export async function verifyIdToken(
  idp: NonNullable<Config['idp']>,
  token: string,
  audiences: string[],
): Promise<VerifiedIdentity> {
  if (audiences.length === 0) throw fail('INVALID_ID_TOKEN', 'apps.invalid_id_token');
  try {
    const { payload } = await jwtVerify(token, keySetOf(idp.jwksUrl), {
      issuer: idp.issuer,
      audience: audiences,
      algorithms: ALGORITHMS,
      clockTolerance: idp.clockToleranceSeconds,
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    // A subject longer than the binding keeps (255) is no provider's: OpenID Connect caps it at 255 ASCII characters.
    if (payload.sub!.length > 255) throw fail('INVALID_ID_TOKEN', 'apps.invalid_id_token');
    const email = typeof payload.email === 'string' ? payload.email.toLowerCase() : null;
    return {
      issuer: idp.issuer,
      subject: payload.sub!,
      email,
      emailVerified: payload.email_verified === true,
      name: typeof payload.name === 'string' ? payload.name : null,
    };
  } catch (e) {
    if (e instanceof jose.JOSEError && !UNREACHABLE.has(e.code))
      throw fail('INVALID_ID_TOKEN', 'apps.invalid_id_token');
    throw fail('IDP_UNAVAILABLE', 'apps.idp_unavailable');
  }
}
