import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import { pickLanguage, type Language } from '../../src/platform/i18n/languages.ts';
import type { Logger } from '../../src/platform/logger.ts';
import type { Caller } from '../../src/platform/catalog/types.ts';

export interface State {
  requestId: string;
  lang: Language;
  log: Logger;
  caller: Caller | null;
  /** The client's address: the connection's, or with trusted proxies the one the farthest of them saw. */
  clientAddress: string;
}

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Request id (kept from X-Request-Id when sane), language, a child logger and one access log line. */
export function requestContext(log: Logger): Koa.Middleware<State> {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = SAFE_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.lang = pickLanguage(ctx.get('accept-language') || undefined);
    ctx.state.log = log.child({ reqId: requestId });
    ctx.state.caller = null;
    ctx.state.clientAddress = ctx.ip;
    ctx.set('X-Request-Id', requestId);
    ctx.set('Content-Language', ctx.state.lang);
    const started = performance.now();
    try {
      await next();
    } finally {
      ctx.state.log.info({
        method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round((performance.now() - started) * 10) / 10,
        userId: (ctx.state.caller as Caller | null)?.id, businessId: (ctx.state.caller as Caller | null)?.businessId,
      }, 'request');
    }
  };
}
