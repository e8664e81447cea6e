import type Koa from 'koa';
import type { Orm } from '../../src/platform/db/orm.ts';
import type { CredentialKind } from '../../src/platform/module.ts';
import type { State } from './context.ts';

/** Identifies the caller from a bearer token; whether the caller may act is decided by the operation runner. */
export function authenticate(orm: Orm, kinds: readonly CredentialKind[]): Koa.Middleware<State> {
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    if (header) {
      const match = /^Bearer\s+([A-Za-z0-9_-]{16,128})$/i.exec(header);
      // A wrong, expired or revoked token leaves the caller anonymous: public operations still answer, others 401.
      const token = match?.[1];
      // Each kind of credential is told apart by its prefix, so a token is looked up in one table only.
      const kind = token === undefined ? undefined : kinds.find((k) => token.startsWith(k.prefix));
      ctx.state.caller = kind ? await kind.resolve(orm.em.fork(), token!) : null;
    }
    return next();
  };
}
