/** A JSON object (not an array, not null), as parsed request bodies and payloads are read. */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * How many levels of objects and arrays a request's JSON may nest, the outermost being level 1: the same for every
 * surface (the runner's input check, the MCP transport's before the SDK). No operation's input comes near it; far
 * beyond it, code that walks JSON by recursion (JSON.stringify, the MCP SDK, schema checks) overflows the stack.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether a parsed JSON value nests deeper than `limit` levels; walked without recursion, stopping at the first level over. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const item = values.pop();
    const depth = depths.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item))
      if (child !== null && typeof child === 'object') {
        values.push(child);
        depths.push(depth + 1);
      }
  }
  return false;
}
