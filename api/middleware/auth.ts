import type Koa from 'koa';
import type { Orm } from '../../src/platform/db/orm.ts';
import type { ReadCache } from '../../src/platform/db/readCache.ts';
import { sha256Hex } from '../../src/platform/secrets.ts';
import type { CredentialKind } from '../../src/platform/module.ts';
import type { State } from './context.ts';

/**
 * Identifies the caller from a bearer token; whether the caller may act is decided by the operation runner. Who a
 * token of a cached kind belongs to is kept by the read cache, under the token's hash, until the token expires or
 * its tables change.
 */
export function authenticate(orm: Orm, kinds: readonly CredentialKind[], reads: ReadCache): Koa.Middleware<State> {
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    if (header) {
      const match = /^Bearer\s+([A-Za-z0-9_-]{16,128})$/i.exec(header);
      // A wrong, expired or revoked token leaves the caller anonymous: public operations still answer, others 401.
      const token = match?.[1];
      // Each kind of credential is told apart by its prefix, so a token is looked up in one table only.
      const kind = token === undefined ? undefined : kinds.find((k) => token.startsWith(k.prefix));
      const resolve = () => kind!.resolve(orm.em.fork(), token!);
      ctx.state.caller = !kind ? null
        : kind.cached ? await reads.get(`caller:${sha256Hex(token!)}`, resolve, (c) => c.expiresAt?.getTime() ?? Infinity)
        : await resolve();
    }
    return next();
  };
}
