import { createHandler } from 'graphql-http/lib/use/koa';
import type Koa from 'koa';
import type { GraphQLSchema } from 'graphql';
import type { ContextFactory } from '../rest.ts';
import type { State } from '../middleware/context.ts';

/** POST /api/graphql through graphql-http; the context is the same one REST handlers get. */
export function graphqlMiddleware(schema: GraphQLSchema, makeContext: ContextFactory): Koa.Middleware<State> {
  const handler = createHandler({
    schema,
    context: (req) => makeContext((req.context.res as unknown as { ctx: Koa.Context }).ctx.state as State) as never,
  });
  return async (ctx, next) => {
    if (ctx.path !== '/api/graphql') return next();
    await handler(ctx as unknown as Parameters<typeof handler>[0], next);
  };
}
