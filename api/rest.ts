import Router from '@koa/router';
import type Koa from 'koa';
import type { Operation, OperationContext, Representation } from '../src/platform/catalog/types.ts';
import { runOperation } from '../src/platform/catalog/run.ts';
import type { State } from './middleware/context.ts';
import { isObject } from '../src/platform/json.ts';
import { rateLimitHeaders } from '../src/platform/rateLimits.ts';

export type ContextFactory = (state: State) => OperationContext;

/** The representation a request asks for: its query parameter, else what its Accept header names (written into the input). */
function representationOf(rep: Representation, ctx: Koa.Context, raw: unknown): string | undefined {
  if (!isObject(raw)) return undefined;
  if (raw[rep.param] === undefined) {
    const fromAccept = rep.fromAccept(ctx.get('accept'));
    if (fromAccept) raw[rep.param] = fromAccept;
  }
  return raw[rep.param] === undefined ? undefined : String(raw[rep.param]);
}

/** OpenAPI path `/v1/orders/{id}` -> Koa path `/v1/orders/:id`. */
export const koaPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** One route per catalog entry; the raw input is path params plus the query (reads, deletes) or the JSON body (writes). */
export function restRouter(catalog: readonly Operation[], makeContext: ContextFactory): Router<State> {
  const router = new Router<State>({ prefix: '/api' });
  for (const op of catalog) {
    if (!op.rest) continue;
    const { method, path, status = 200, representation } = op.rest;
    const handler: Koa.Middleware<State> = async (ctx) => {
      const params = (ctx as unknown as { params: Record<string, string> }).params;
      const body: unknown = ctx.request.body;
      // DELETE carries its input in the query string, or in a JSON body where a client sends one.
      const source = method === 'GET' ? ctx.query : method === 'DELETE' ? { ...ctx.query, ...(isObject(body) ? body : {}) } : body;
      const raw = isObject(source) ? { ...source, ...params } : source;
      const chosen = representation && representationOf(representation, ctx, raw);
      const opCtx = makeContext(ctx.state);
      ctx.body = await runOperation(op, raw, opCtx);
      ctx.status = status;
      if (opCtx.quota) ctx.set(rateLimitHeaders(opCtx.quota));
      const mediaType = representation?.mediaType(chosen);
      if (mediaType) ctx.type = mediaType;
    };
    router.register(koaPath(path), [method], handler);
  }
  return router;
}
