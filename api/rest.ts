import Router from '@koa/router';
import type Koa from 'koa';
import type { Operation, OperationContext } from '../src/platform/catalog/types.ts';
import { runOperation } from '../src/platform/catalog/run.ts';
import type { State } from './middleware/context.ts';
import { isObject } from '../src/platform/json.ts';

export type ContextFactory = (state: State) => OperationContext;


/** OpenAPI path `/v1/orders/{id}` -> Koa path `/v1/orders/:id`. */
export const koaPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** One route per catalog entry; the raw input is path params plus the query (reads, deletes) or the JSON body (writes). */
export function restRouter(catalog: readonly Operation[], makeContext: ContextFactory): Router<State> {
  const router = new Router<State>({ prefix: '/api' });
  for (const op of catalog) {
    if (!op.rest) continue;
    const { method, path, status = 200 } = op.rest;
    const handler: Koa.Middleware<State> = async (ctx) => {
      const params = (ctx as unknown as { params: Record<string, string> }).params;
      const body: unknown = ctx.request.body;
      // DELETE carries its input in the query string, or in a JSON body where a client sends one.
      const source = method === 'GET' ? ctx.query : method === 'DELETE' ? { ...ctx.query, ...(isObject(body) ? body : {}) } : body;
      const raw = isObject(source) ? { ...source, ...params } : source;
      ctx.body = await runOperation(op, raw, makeContext(ctx.state));
      ctx.status = status;
    };
    router.register(koaPath(path), [method], handler);
  }
  return router;
}
