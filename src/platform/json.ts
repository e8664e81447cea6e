/** A JSON object (not an array, not null), as parsed request bodies and payloads are read. */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
