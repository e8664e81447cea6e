import Router from '@koa/router';
import type Koa from 'koa';
import type {
  HttpMethod,
  Operation,
  OperationContext,
  RawContent,
  Representation,
} from '../src/platform/catalog/types.ts';
import { runOperation } from '../src/platform/catalog/run.ts';
import type { State } from './middleware/context.ts';
import { isObject } from '../src/platform/json.ts';
import { rateLimitHeaders } from '../src/platform/rateLimits.ts';
import { AppError } from '../src/platform/errors.ts';

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

/**
 * The document path a request path falls under, matched as OpenAPI matches them: a concrete path before a templated
 * one, so `/v1/otep/trackings/batch` is the batch path (POST only) and never the timeline of a number called batch.
 */
export function documentPathMatcher(paths: readonly string[]): (requestPath: string) => string | undefined {
  const compiled = [...new Set(paths)]
    .map((path) => ({
      path,
      templated: path.includes('{'),
      re: new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}/?$`),
    }))
    .sort((a, b) => Number(a.templated) - Number(b.templated));
  return (requestPath) => compiled.find((c) => c.re.test(requestPath))?.path;
}

/**
 * The document paths some other path can also match: as many segments, each pair equal or one a parameter. Paths are
 * compared only with those of the same length, each split once (a pair at a time, it was 0.1 s of every start-up).
 */
function rivalledPaths(paths: readonly string[]): Set<string> {
  const byLength = new Map<number, string[][]>();
  for (const path of paths) {
    const segments = path.split('/');
    byLength.set(segments.length, [...(byLength.get(segments.length) ?? []), segments]);
  }
  const param = (s: string) => s.startsWith('{');
  const rivalled = new Set<string>();
  for (const group of byLength.values())
    for (const [i, a] of group.entries())
      for (const b of group.slice(i + 1))
        if (a.every((s, k) => s === b[k] || param(s) || param(b[k]!))) {
          rivalled.add(a.join('/'));
          rivalled.add(b.join('/'));
        }
  return rivalled;
}

/** One route per catalog entry; the raw input is path params plus the query (reads, deletes) or the JSON body (writes). */
export function restRouter(
  catalog: readonly Operation[],
  makeContext: ContextFactory,
): { routes: ReturnType<Router<State>['routes']>; allowedMethods: Koa.Middleware<State> } {
  const router = new Router<State>({ prefix: '/api' });
  const methodsOf = new Map<string, HttpMethod[]>();
  for (const op of catalog)
    if (op.rest) methodsOf.set(op.rest.path, [...(methodsOf.get(op.rest.path) ?? []), op.rest.method]);
  const documentPathOf = documentPathMatcher([...methodsOf.keys()]);
  const rivals = rivalledPaths([...methodsOf.keys()]);
  for (const op of catalog) {
    if (!op.rest) continue;
    const { method, path, status = 200, representation, accepted, rawBody, rawAnswer } = op.rest;
    const rivalled = rivals.has(path);
    const handler: Koa.Middleware<State> = async (ctx, next) => {
      // A concrete path of the document shadows this templated one (koa-router would match both). The lookup is
      // skipped where no other path of the document can match the same request.
      if (rivalled && documentPathOf(ctx.path.slice('/api'.length)) !== path) return next();
      const params = (ctx as unknown as { params: Record<string, string> }).params;
      const body: unknown = ctx.request.body;
      // DELETE carries its input in the query string, or in a JSON body where a client sends one; an operation that
      // takes a raw body (the bytes of a file) takes its parameters from the query string.
      const source =
        method === 'GET' || rawBody
          ? ctx.query
          : method === 'DELETE'
            ? { ...ctx.query, ...(isObject(body) ? body : {}) }
            : body;
      const raw = isObject(source) ? { ...source, ...params } : source;
      const chosen = representation && representationOf(representation, ctx, raw);
      ctx.state.operation = op.name;
      const opCtx = makeContext(ctx.state);
      if (rawBody) opCtx.body = ctx.request.rawBody;
      const output = await runOperation(op, raw, opCtx);
      ctx.status = accepted?.when(output as never) ? 202 : status;
      if (opCtx.quota) ctx.set(rateLimitHeaders(opCtx.quota));
      if (rawAnswer) {
        const file = output as RawContent;
        ctx.body = file.bytes;
        ctx.type = file.mediaType;
        if (rawAnswer.headers) ctx.set(rawAnswer.headers);
        return;
      }
      ctx.body = output;
      const mediaType = representation?.mediaType(chosen);
      if (mediaType) ctx.type = mediaType;
    };
    router.register(koaPath(path), [method], handler);
  }
  return { routes: router.routes(), allowedMethods: methodGuard(documentPathOf, methodsOf) };
}

/**
 * What no route answered on a path of the document: OPTIONS lists its methods, any other method is 405 with the
 * same list in Allow (RFC 9110). Paths outside the document stay 404.
 */
function methodGuard(
  documentPathOf: (requestPath: string) => string | undefined,
  methodsOf: Map<string, HttpMethod[]>,
): Koa.Middleware<State> {
  return async (ctx, next) => {
    await next();
    if (ctx.body !== undefined || ctx.status !== 404 || !ctx.path.startsWith('/api/')) return;
    const path = documentPathOf(ctx.path.slice('/api'.length));
    if (!path) return;
    const methods = methodsOf.get(path)!;
    const allow = [...(methods.includes('GET') ? ['HEAD'] : []), ...methods].join(', ');
    if (ctx.method !== 'OPTIONS')
      throw new AppError(405, 'METHOD_NOT_ALLOWED', 'error.method_not_allowed', { headers: { Allow: allow } });
    ctx.status = 204;
    ctx.set('Allow', allow);
  };
}
