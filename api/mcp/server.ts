/**
 * The two MCP servers (docs/mcp.md), speaking JSON-RPC 2.0 over Streamable HTTP through the official SDK: the user
 * server `service` and the developer server `service-developer`, each listing the catalog's tools for it. A tool
 * call runs its operation through the one runner, as the caller of the connection's bearer token, with the
 * connection's scopes and the call's confirmation: every check happens there.
 */
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, fromJsonSchema, McpServer, type jsonSchemaValidator, type JsonSchemaValidatorResult } from '@modelcontextprotocol/server';
import type { AgentGrant, McpServerName, Operation, OperationContext } from '../../src/platform/catalog/types.ts';
import { runOperation } from '../../src/platform/catalog/run.ts';
import { isObject } from '../../src/platform/json.ts';
import { errorBody, toAppError } from '../middleware/errors.ts';
import { CONFIRM, toolsOf, type Tool } from './tools.ts';

export const SERVER_NAMES: Record<McpServerName, string> = { user: 'service', developer: 'service-developer' };

/** What the HTTP side hands a request's server: the operation context of its caller and connection. */
export interface Connection {
  context(agent: AgentGrant): OperationContext;
  scopes: AgentGrant['scopes'];
}

type Result = { content: { type: 'text'; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

async function callTool(tool: Tool, args: unknown, connection: Connection): Promise<Result> {
  const { [CONFIRM]: confirm, ...input } = isObject(args) ? args : {};
  const ctx = connection.context({ scopes: connection.scopes, confirmed: confirm === true });
  try {
    const result = await runOperation(tool.op, input, ctx);
    return { content: [{ type: 'text', text: JSON.stringify(result) }], ...(tool.outputSchema && isObject(result) && { structuredContent: result }) };
  } catch (err) {
    const failure = toAppError(err);
    if (failure.status >= 500) ctx.log.error({ err, tool: tool.name }, 'tool call failed');
    return { content: [{ type: 'text', text: JSON.stringify(errorBody(failure, ctx.lang)) }], isError: true };
  }
}

/**
 * Arguments are checked by the operation runner against the zod schema their JSON Schema is derived from, as a
 * REST body is: the failure comes in the caller's language and names each field. The SDK passes them through.
 */
const RUNNER_CHECKS_INPUT: jsonSchemaValidator = {
  getValidator: <T>() => (input: unknown): JsonSchemaValidatorResult<T> => ({ valid: true, data: input as T, errorMessage: undefined }),
};

/** A Node request handler per server; the connection rides on the request as `auth.extra.connection`. */
export function mcpHandlers(catalog: readonly Operation[], version: string) {
  return Object.fromEntries((Object.keys(SERVER_NAMES) as McpServerName[]).map((server) => {
    // Each schema is compiled once; every request's server instance registers the same ones.
    const tools = toolsOf(catalog, server).map((tool) => ({
      tool, input: fromJsonSchema(tool.inputSchema as never, RUNNER_CHECKS_INPUT), output: tool.outputSchema && fromJsonSchema(tool.outputSchema as never),
    }));
    const handler = createMcpHandler((request) => {
      const connection = request.authInfo?.extra?.connection as Connection;
      const mcp = new McpServer({ name: SERVER_NAMES[server], version }, { capabilities: { tools: {} } });
      for (const { tool, input, output } of tools) {
        mcp.registerTool(tool.name, { description: tool.description, inputSchema: input, ...(output && { outputSchema: output }), annotations: tool.annotations },
          (args: unknown) => callTool(tool, args, connection));
      }
      return mcp;
    }, { legacy: 'stateless' });
    return [server, toNodeHandler(handler)];
  })) as Record<McpServerName, ReturnType<typeof toNodeHandler>>;
}
