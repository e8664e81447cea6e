import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { httpDuration } from '../../src/platform/telemetry/metrics.ts';
import { inSpan } from '../../src/platform/telemetry/tracing.ts';
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
  /** The catalog operation that answered (graphql for the GraphQL endpoint): the metrics' and the span's name. */
  operation?: string;
}

/** A closed set of names for the request metric: the operation, else the route matched, else none. */
const routeOf = (ctx: Koa.Context): string =>
  (ctx.state as State).operation ?? (ctx as { _matchedRoute?: unknown })._matchedRoute?.toString() ?? 'unmatched';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Request id (kept from X-Request-Id when sane), language, a child logger, a server span (child of the caller's
 * `traceparent`), and when done one access log line and the latency metric.
 */
export function requestContext(log: Logger): Koa.Middleware<State> {
  return (ctx, next) =>
    inSpan(`${ctx.method} request`, { parent: ctx.get('traceparent') || null, kind: SpanKind.SERVER }, async (span) => {
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
        const seconds = (performance.now() - started) / 1000;
        const route = routeOf(ctx);
        httpDuration.observe({ operation: route, method: ctx.method, status: ctx.status }, seconds);
        span.updateName(`${ctx.method} ${route}`);
        span.setAttributes({
          'http.request.method': ctx.method,
          'http.route': route,
          'http.response.status_code': ctx.status,
          'tms.request_id': requestId,
        });
        if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        ctx.state.log.info(
          {
            method: ctx.method,
            path: ctx.path,
            status: ctx.status,
            ms: Math.round(seconds * 10_000) / 10,
            userId: (ctx.state.caller as Caller | null)?.id,
            businessId: (ctx.state.caller as Caller | null)?.businessId,
          },
          'request',
        );
      }
    });
}
