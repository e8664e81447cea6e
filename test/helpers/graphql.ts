/**
 * GraphQL text from JSON, for tests that send a REST body's worth of input through a mutation or query: object keys
 * unquoted, everything else as JSON (the schema's inputs are scalars and objects; its enum-like fields are strings).
 */
export const graphqlLiteral = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(graphqlLiteral).join(', ')}]`
    : v !== null && typeof v === 'object'
      ? `{${Object.entries(v)
          .map(([k, x]) => `${k}: ${graphqlLiteral(x)}`)
          .join(', ')}}`
      : JSON.stringify(v);
