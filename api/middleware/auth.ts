import type Koa from 'koa';
import { callerForToken } from '../../src/modules/identity/repo.ts';
import type { Orm } from '../../src/platform/db/orm.ts';
import type { State } from './context.ts';

/** Identifies the caller from a bearer token; whether the caller may act is decided by the operation runner. */
export function authenticate(orm: Orm): Koa.Middleware<State> {
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    if (header) {
      const match = /^Bearer\s+([A-Za-z0-9_-]{16,128})$/i.exec(header);
      // A wrong, expired or revoked token leaves the caller anonymous: public operations still answer, others 401.
      ctx.state.caller = match ? await callerForToken(orm.em.fork(), match[1]!) : null;
    }
    return next();
  };
}
