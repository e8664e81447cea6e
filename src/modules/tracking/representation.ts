import type Koa from 'koa';
import { FORMATS } from './formats/index.ts';
import type { State } from '../../../api/middleware/context.ts';

const TIMELINE_READ = /^\/api\/v1\/otep\/trackings\/[^/]+(\/events)?$/;

/** The format an Accept header's `profile` parameter names: its last segment after '/', '#' or ':'. */
export function profileFormat(accept: string): string | null {
  for (const part of accept.split(',')) {
    const m = /;\s*profile\s*=\s*"?([^";,]+)"?/i.exec(part);
    if (m) return m[1]!.split(/[/#:]/).pop() || null;
  }
  return null;
}

/**
 * Timeline reads: an Accept profile selects the format when no `format` parameter does (an unknown
 * profile gets the same 422 as an unknown format), and the answer carries the format's media type.
 */
export function otepRepresentation(): Koa.Middleware<State> {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' || !TIMELINE_READ.test(ctx.path)) return next();
    if (ctx.query.format === undefined) {
      const fromProfile = profileFormat(ctx.get('accept'));
      if (fromProfile) ctx.query = { ...ctx.query, format: fromProfile };
    }
    await next();
    const format = FORMATS.get(String(ctx.query.format ?? 'otep'));
    if (ctx.status === 200 && format) ctx.type = format.mediaType;
  };
}
