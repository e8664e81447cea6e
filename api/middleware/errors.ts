import type Koa from 'koa';
import { AppError } from '../../src/platform/errors.ts';
import { errorBody } from '../../src/platform/errorBody.ts';
import type { State } from './context.ts';

export { errorBody };

/** Maps every failure to `{result:false, code, message, errors?}`; handlers never build error responses. */
export function errorHandler(): Koa.Middleware<State> {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined)
        throw new AppError(404, 'ROUTE_NOT_FOUND', 'error.route_not_found');
      // The router answered a method the path lacks (405) or one it does not know (501), with its Allow header.
      if ((ctx.status === 405 || ctx.status === 501) && ctx.body === undefined)
        throw new AppError(405, 'METHOD_NOT_ALLOWED', 'error.method_not_allowed');
    } catch (caught) {
      const err = toAppError(caught);
      if (err.status >= 500) ctx.state.log.error({ err: caught }, 'request failed');
      ctx.status = err.status;
      ctx.set(err.headers);
      ctx.body = errorBody(err, ctx.state.lang);
    }
  };
}

/** Any failure as the error the caller sees: an AppError as it is, a routing status as its code, anything else as INTERNAL. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const status = (err as { status?: number }).status;
  if (status === 405) return new AppError(405, 'METHOD_NOT_ALLOWED', 'error.method_not_allowed');
  if (status === 404) return new AppError(404, 'ROUTE_NOT_FOUND', 'error.route_not_found');
  if (status === 501) return new AppError(405, 'METHOD_NOT_ALLOWED', 'error.method_not_allowed');
  return new AppError(500, 'INTERNAL', 'error.internal');
}
