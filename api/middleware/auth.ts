import type Koa from 'koa';
import type { Orm } from '../../src/platform/db/orm.ts';
import type { ReadCache } from '../../src/platform/db/readCache.ts';
import { sha256Hex } from '../../src/platform/secrets.ts';
import type { CredentialKind } from '../../src/platform/module.ts';
import type { Caller } from '../../src/platform/catalog/types.ts';
import type { State } from './context.ts';

/**
 * Identifies the caller from a bearer token; whether the caller may act is decided by the operation runner. Who a
 * token of a cached kind belongs to is kept by the read cache, under the token's hash, until the token expires or
 * its tables change.
 */
export function authenticate(orm: Orm, kinds: readonly CredentialKind[], reads: ReadCache): Koa.Middleware<State> {
  const callerOf = tokenResolver(orm, kinds, reads);
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    // A wrong, expired or revoked token leaves the caller anonymous: public operations still answer, others 401.
    if (header) ctx.state.caller = await callerOf(/^Bearer\s+(.+)$/i.exec(header)?.[1]);
    return next();
  };
}

/** Who a bearer token belongs to, null for anything that is not a live token of some kind. */
export function tokenResolver(
  orm: Orm,
  kinds: readonly CredentialKind[],
  reads: ReadCache,
): (token: string | undefined) => Promise<Caller | null> {
  return async (token) => {
    if (token === undefined || !/^[A-Za-z0-9_-]{16,128}$/.test(token)) return null;
    // Each kind of credential is told apart by its prefix, so a token is looked up in one table only.
    const kind = kinds.find((k) => token.startsWith(k.prefix));
    if (!kind) return null;
    const resolve = () => kind.resolve(orm.em.fork(), token);
    return kind.cached
      ? reads.get(`caller:${sha256Hex(token)}`, resolve, (c) => c.expiresAt?.getTime() ?? Infinity)
      : resolve();
  };
}
