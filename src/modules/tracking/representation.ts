import type { Representation } from '../../platform/catalog/types.ts';
import { DEFAULT_FORMAT, FORMATS } from './formats/index.ts';

/** The format an Accept header's `profile` parameter names: its last segment after '/', '#' or ':'. */
export function profileFormat(accept: string): string | null {
  for (const part of accept.split(',')) {
    const m = /;\s*profile\s*=\s*"?([^";,]+)"?/i.exec(part);
    if (m) return m[1]!.split(/[/#:]/).pop() || null;
  }
  return null;
}

/**
 * Timeline reads: an Accept profile selects the format when no `format` parameter does (an unknown profile gets
 * the same 422 as an unknown format), and the answer carries the format's media type.
 */
export const TIMELINE_REPRESENTATION: Representation = {
  param: 'format',
  fromAccept: profileFormat,
  mediaType: (value) => FORMATS.get(value ?? DEFAULT_FORMAT)?.mediaType,
  mediaTypes: [...new Set([...FORMATS.values()].map((f) => f.mediaType))],
};
