/**
 * A value made on its first use and kept: for what the service would otherwise build at start-up although many
 * processes never read it (the OpenAPI document, the MCP servers' compiled tool schemas; docs/testing.md).
 */
export function lazy<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
