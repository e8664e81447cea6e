import { createHandler } from 'graphql-http/lib/use/koa';
import type { Request } from 'graphql-http';
import type Koa from 'koa';
import type { GraphQLSchema } from 'graphql';
import type { GraphQLLimits } from '../../src/platform/config.ts';
import type { OperationContext } from '../../src/platform/catalog/types.ts';
import type { ContextFactory } from '../rest.ts';
import type { State } from '../middleware/context.ts';
import { checkDocument, checkQueryText, checkResponseSize } from './limits.ts';
import { graphQLErrorOf } from './schema.ts';

const stateOf = (req: Request<unknown, { res: unknown }>) =>
  (req.context.res as { ctx: Koa.Context }).ctx.state as State;

/**
 * POST /api/graphql through graphql-http; the context is the same one REST handlers get. A query over the limits
 * (limits.ts) is answered with one translated error instead of being run: its size before parsing, its shape and
 * cost in place of the validation rules, its answer's size after execution.
 */
export function graphqlMiddleware(
  schema: () => GraphQLSchema,
  makeContext: ContextFactory,
  limits: GraphQLLimits,
): Koa.Middleware<State> {
  const handler = createHandler({
    // Built on the first request (api/app.ts): most processes never serve GraphQL.
    schema: () => schema(),
    context: (req) => makeContext(stateOf(req)) as never,
    onSubscribe: (req, params) => {
      const refused = checkQueryText(params.query, limits);
      return refused ? [graphQLErrorOf(refused, stateOf(req).lang)] : undefined;
    },
    validationRules: (_req, args, specifiedRules) => {
      const refused = checkDocument(
        args.schema,
        args.document,
        args.operationName ?? undefined,
        args.variableValues ?? undefined,
        limits,
      );
      if (!refused) return specifiedRules;
      // The only rule left reports the refusal, so nothing else walks a document this large.
      const error = graphQLErrorOf(refused, (args.contextValue as unknown as OperationContext).lang);
      return [
        (context) => {
          context.reportError(error);
          return {};
        },
      ];
    },
    onOperation: (_req, args, result) => {
      const refused = checkResponseSize(result, limits);
      if (!refused) return undefined;
      const ctx = args.contextValue as unknown as OperationContext;
      ctx.log.warn({ code: refused.code, limit: limits.maxResponseBytes }, 'graphql answer refused');
      return { data: null, errors: [graphQLErrorOf(refused, ctx.lang)] };
    },
  });
  return async (ctx, next) => {
    if (ctx.path !== '/api/graphql') return next();
    ctx.state.operation = 'graphql';
    await handler(ctx as unknown as Parameters<typeof handler>[0], next);
  };
}
