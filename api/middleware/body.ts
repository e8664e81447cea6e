import type Koa from 'koa';
import { AppError } from '../../src/platform/errors.ts';
import type { State } from './context.ts';
import type { RawUpload } from '../../src/platform/catalog/types.ts';

/** The body limit of every request but those of the few REST paths that declare their own (`rest.bodyLimit`). */
export const BODY_LIMIT = 1024 * 1024;

declare module 'koa' {
  interface Request {
    body?: unknown;
    /** A raw body (`rest.rawBody`) with its media type; its bytes are read when the operation asks for them. */
    rawBody?: RawUpload;
  }
}

/** The raw bodies a path takes (`rest.rawBody`), by method; undefined for a path that takes none. */
export type RawBodyOf = (
  path: string,
) => ReadonlyMap<string, { mediaTypes: readonly string[]; limit: number }> | undefined;

/** Reads at most `limit` bytes of the request; 413 beyond. */
async function readBytes(ctx: Koa.Context, limit: number): Promise<Buffer> {
  if (Number(ctx.get('content-length') || 0) > limit)
    throw new AppError(413, 'PAYLOAD_TOO_LARGE', 'error.payload_too_large');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new AppError(413, 'PAYLOAD_TOO_LARGE', 'error.payload_too_large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads a JSON body (1 MiB at most, or what `larger` says for a method and path, `POST /v1/...`) for write methods:
 * 415 for other types, 413 when larger, 400 when malformed. A path that takes a raw body (`rawOf`) gets its bytes
 * instead when they are of one of its media types, within its limit (413). Those bytes are not read here, before
 * authentication: the operation reads them (`ctx.body.read()`) once the caller and its role have been checked, so
 * that no caller without access makes the service hold up to the path's limit in memory.
 */
export function jsonBody(
  larger: ReadonlyMap<string, number> = new Map(),
  rawOf: RawBodyOf = () => undefined,
): Koa.Middleware<State> {
  return async (ctx, next) => {
    if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method)) return next();
    const raws = rawOf(ctx.path);
    const raw = raws?.get(ctx.method);
    // A file sent with a method its path does not take it with is not read either: the method guard answers 405.
    if (raws && !raw && !ctx.is('application/json', '+json')) {
      ctx.request.body = {};
      return next();
    }
    if (raw) {
      // A body of another type is not read: the operation answers 415 for the missing body (`ctx.body` undefined)
      // once the caller, its role, the parameters and the row they name have been checked.
      ctx.request.body = {};
      const mediaType = ctx.request.type;
      if (raw.mediaTypes.includes(mediaType)) {
        // A declared length beyond the limit is refused at once; that costs no read.
        if (Number(ctx.get('content-length') || 0) > raw.limit)
          throw new AppError(413, 'PAYLOAD_TOO_LARGE', 'error.payload_too_large');
        let bytes: Promise<Buffer> | undefined;
        ctx.request.rawBody = { mediaType, read: () => (bytes ??= readBytes(ctx, raw.limit)) };
      }
      return next();
    }
    const limit = larger.get(`${ctx.method} ${ctx.path}`) ?? BODY_LIMIT;
    const length = Number(ctx.get('content-length') || 0);
    const hasBody = length > 0 || ctx.get('transfer-encoding') !== '';
    if (!hasBody) {
      ctx.request.body = {};
      return next();
    }
    if (!ctx.is('application/json', '+json'))
      throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'error.unsupported_media_type');
    const text = (await readBytes(ctx, limit)).toString('utf8');
    try {
      // An empty body is no body; blanks alone are not JSON.
      ctx.request.body = text === '' ? {} : JSON.parse(text);
    } catch {
      throw new AppError(400, 'MALFORMED_JSON', 'error.malformed_json');
    }
    return next();
  };
}
