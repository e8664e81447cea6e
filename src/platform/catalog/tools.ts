/**
 * How the catalog's operations are named as MCP tools (docs/mcp.md): shared by the MCP servers, the discovery
 * documents and the approval queue, which records a proposal by its tool's name and runs the operation behind it.
 */
import type { McpServerName, Operation } from './types.ts';

/** An operation told in a few sentences: its summary, then its description (the MCP tools and AI manifests). */
export const describe = (op: Operation) => (op.description ? `${op.summary} ${op.description}` : op.summary);

/**
 * Whether a call changes nothing: a REST GET, or an operation GraphQL serves as a query (a read that takes a body over
 * REST, such as POST /v1/tracking/operationevents, which the specification fixes as a POST); never a tool that runs
 * other operations.
 */
export const isRead = (op: Operation) =>
  !op.mcp?.runsOperations &&
  (op.rest?.method === 'GET' || (op.graphql ? op.graphql.kind === 'query' : op.rest === undefined));

/** The servers an operation is a tool of, each with the tool's name there. */
export function aiToolNames(op: Operation): Partial<Record<McpServerName, string>> {
  if (!op.mcp) return {};
  const { tool, servers = ['user'] } = op.mcp;
  return Object.fromEntries(
    servers.map((server) => [server, (typeof tool === 'string' ? tool : tool?.[server]) ?? op.name]),
  );
}

/** The operation behind a server's tool of that name. */
export function operationOfTool(
  catalog: readonly Operation[],
  server: McpServerName,
  tool: string,
): Operation | undefined {
  return catalog.find((op) => aiToolNames(op)[server] === tool);
}
