import type Koa from 'koa';

/** Middleware a router composes: its context type adds the params the router itself sets. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyMiddleware<S> = Koa.Middleware<S, any>;

/** Middleware run one after the other, as `app.use` would run them, as one middleware. */
export function chain<S>(...middleware: AnyMiddleware<S>[]): Koa.Middleware<S> {
  return (ctx, next) => {
    const step = (i: number): Promise<unknown> =>
      i === middleware.length ? next() : Promise.resolve(middleware[i]!(ctx, () => step(i + 1)));
    return step(0) as Promise<void>;
  };
}

/** `matched` for a request whose path starts with `prefix`, `other` for the rest. */
export function byPath<S>(prefix: string, matched: Koa.Middleware<S>, other: Koa.Middleware<S>): Koa.Middleware<S> {
  return (ctx, next) => (ctx.path.startsWith(prefix) ? matched(ctx, next) : other(ctx, next));
}
