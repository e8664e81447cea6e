import type Koa from 'koa';
import { AppError } from '../../src/platform/errors.ts';
import type { State } from './context.ts';

/** The body limit of every request but those of the few REST paths that declare their own (`rest.bodyLimit`). */
export const BODY_LIMIT = 1024 * 1024;

declare module 'koa' {
  interface Request {
    body?: unknown;
  }
}

/**
 * Reads a JSON body (1 MiB at most, or what `larger` says for a method and path, `POST /v1/...`) for write methods:
 * 415 for other types, 413 when larger, 400 when malformed.
 */
export function jsonBody(larger: ReadonlyMap<string, number> = new Map()): Koa.Middleware<State> {
  return async (ctx, next) => {
    if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method)) return next();
    const limit = larger.get(`${ctx.method} ${ctx.path}`) ?? BODY_LIMIT;
    const length = Number(ctx.get('content-length') || 0);
    const hasBody = length > 0 || ctx.get('transfer-encoding') !== '';
    if (!hasBody) {
      ctx.request.body = {};
      return next();
    }
    if (!ctx.is('application/json', '+json'))
      throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'error.unsupported_media_type');
    if (length > limit) throw new AppError(413, 'PAYLOAD_TOO_LARGE', 'error.payload_too_large');
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw new AppError(413, 'PAYLOAD_TOO_LARGE', 'error.payload_too_large');
      chunks.push(chunk);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    try {
      // An empty body is no body; blanks alone are not JSON.
      ctx.request.body = text === '' ? {} : JSON.parse(text);
    } catch {
      throw new AppError(400, 'MALFORMED_JSON', 'error.malformed_json');
    }
    return next();
  };
}
