import type Koa from 'koa';
import { AppError } from '../../src/platform/errors.ts';
import type { State } from './context.ts';

const LIMIT = 1024 * 1024;

declare module 'koa' {
  interface Request {
    body?: unknown;
  }
}

/** Reads a JSON body (1 MiB at most) for write methods: 415 for other types, 413 when larger, 400 when malformed. */
export function jsonBody(): Koa.Middleware<State> {
  return async (ctx, next) => {
    if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method)) return next();
    const length = Number(ctx.get('content-length') || 0);
    const hasBody = length > 0 || ctx.get('transfer-encoding') !== '';
    if (!hasBody) {
      ctx.request.body = {};
      return next();
    }
    if (!ctx.is('application/json', '+json'))
      throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'error.unsupported_media_type');
    if (length > LIMIT) throw new AppError(413, 'PAYLOAD_TOO_LARGE', 'error.payload_too_large');
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > LIMIT) throw new AppError(413, 'PAYLOAD_TOO_LARGE', 'error.payload_too_large');
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
