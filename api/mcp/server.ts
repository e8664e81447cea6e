/**
 * The two MCP servers (docs/mcp.md), speaking JSON-RPC 2.0 over Streamable HTTP through the official SDK: the user
 * server `service` and the developer server `service-developer`, each listing the catalog's tools for it. A tool
 * call runs its operation through the one runner, as the caller of the connection's bearer token, with the
 * connection's scopes and the call's confirmation: every check happens there.
 */
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  createMcpHandler,
  fromJsonSchema,
  McpServer,
  type jsonSchemaValidator,
  type JsonSchemaValidatorResult,
} from '@modelcontextprotocol/server';
import type {
  AgentGrant,
  Caller,
  McpServerName,
  Operation,
  OperationContext,
} from '../../src/platform/catalog/types.ts';
import { AppError } from '../../src/platform/errors.ts';
import { translate } from '../../src/platform/i18n/messages.ts';
import { dryRunOperation } from '../../src/platform/catalog/dryRun.ts';
import { holdsScope, runOperation } from '../../src/platform/catalog/run.ts';
import { isRead } from '../../src/platform/catalog/tools.ts';
import { isObject } from '../../src/platform/json.ts';
import { errorBody, toAppError } from '../middleware/errors.ts';
import { reportSdkError } from './sdkErrors.ts';
import { API_TOKEN, CONFIRM, toolsOf, type Tool } from './tools.ts';

/** The operation a call is proposed through when its connection asks for approval. */
const PROPOSE_WRITE = 'propose_write';

export const SERVER_NAMES: Record<McpServerName, string> = { user: 'service', developer: 'service-developer' };

/** What the HTTP side hands a request's server: the operation context of its caller and connection. */
export interface Connection {
  /** The context of the connection's caller, or of `caller` when a deprecated api_token argument named another. */
  context(agent: AgentGrant, caller?: Caller | null): OperationContext;
  scopes: AgentGrant['scopes'];
  /** Whose token a deprecated api_token argument is. */
  callerOf(token: string): Promise<Caller | null>;
  now(): Date;
  /** X-MCP-Require-Approval: a high-risk tool call is proposed for approval instead of carried out. */
  requireApproval: boolean;
  /** X-MCP-Dry-Run: a write tool's call is previewed (src/platform/catalog/dryRun.ts), nothing written, started or sent. */
  dryRun: boolean;
}

/** What a write tool answers on this connection in place of its own answer, if anything: a preview or a proposal. */
function answersInstead(connection: Connection | undefined, tool: Tool): 'preview' | 'proposal' | null {
  if (connection?.dryRun && !isRead(tool.op)) return 'preview';
  return connection?.requireApproval && tool.op.mcp.risk === 'high' ? 'proposal' : null;
}

/** The developer server's deprecated per-tool token argument, accepted with a notice until the end of 2026. */
export const API_TOKEN_ENDS = Date.UTC(2027, 0, 1);

type Result = {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

const failed = (body: unknown): Result => ({ content: [{ type: 'text', text: JSON.stringify(body) }], isError: true });

async function callTool(
  server: McpServerName,
  tool: Tool,
  args: unknown,
  connection: Connection,
  propose: Operation | undefined,
): Promise<Result> {
  const { [CONFIRM]: confirm, ...given } = isObject(args) ? args : {};
  const grant = { scopes: connection.scopes, confirmed: confirm === true };
  // Only the developer server ever took a token argument; on the user server it stays an unknown field (422).
  const { [API_TOKEN]: apiToken, ...withoutToken } = given;
  const deprecated = server === 'developer' && apiToken !== undefined;
  const input = deprecated ? withoutToken : given;
  let ctx = connection.context(grant);
  if (deprecated) {
    if (connection.now().getTime() >= API_TOKEN_ENDS)
      return failed(errorBody(new AppError(400, 'API_TOKEN_ARGUMENT_REMOVED', 'error.api_token_removed'), ctx.lang));
    if (!ctx.caller) ctx = connection.context(grant, await connection.callerOf(String(apiToken)));
  }
  const instead = answersInstead(connection, tool);
  const queued = instead === 'proposal' && propose !== undefined;
  const notice = [
    ...(deprecated ? [{ type: 'text' as const, text: translate('notice.api_token_deprecated', ctx.lang) }] : []),
    ...(queued ? [{ type: 'text' as const, text: translate('notice.queued_for_approval', ctx.lang) }] : []),
  ];
  // A high-risk call the connection asked to have approved is proposed with the same arguments (docs/mcp.md, Approvals).
  const call = queued ? { op: propose, input: { tool: tool.name, server, arguments: input } } : { op: tool.op, input };
  try {
    const result =
      instead === 'preview' ? await dryRunOperation(tool.op, input, ctx) : await runOperation(call.op, call.input, ctx);
    // A proposal's or a preview's answer is not the tool's: it has no structured content in the tool's output schema.
    // Where there is structured content, the first text block is exactly its JSON (the direct path relies on it).
    return {
      content: [{ type: 'text', text: JSON.stringify(result) }, ...notice],
      ...(!instead && tool.outputSchema && isObject(result) && { structuredContent: result }),
    };
  } catch (err) {
    const failure = toAppError(err);
    if (failure.status >= 500) ctx.log.error({ err, tool: tool.name }, 'tool call failed');
    return failed(errorBody(failure, ctx.lang));
  }
}

/**
 * Arguments are checked by the operation runner against the zod schema their JSON Schema is derived from, as a
 * REST body is: the failure comes in the caller's language and names each field. The SDK passes them through.
 */
const RUNNER_CHECKS_INPUT: jsonSchemaValidator = {
  getValidator:
    <T>() =>
    (input: unknown): JsonSchemaValidatorResult<T> => ({ valid: true, data: input as T, errorMessage: undefined }),
};

/** The 2025-era revisions, which the SDK serves statelessly; a tools/call of theirs may take the direct path. */
const LEGACY_REVISIONS = new Set(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);

type JsonRpcId = string | number;
/** A single 2025-era `tools/call` of a known tool, as the direct path takes it; anything else goes to the SDK. */
function directCall(
  headers: Record<string, string | string[] | undefined>,
  body: unknown,
): { id: JsonRpcId; name: string; args: unknown } | undefined {
  const accept = String(headers.accept ?? '');
  const revision = headers['mcp-protocol-version'];
  if (
    !accept.includes('application/json') ||
    !accept.includes('text/event-stream') ||
    !String(headers['content-type'] ?? '').startsWith('application/json')
  )
    return undefined;
  if (revision !== undefined && !LEGACY_REVISIONS.has(String(revision))) return undefined;
  if (!isObject(body) || body.jsonrpc !== '2.0' || body.method !== 'tools/call' || Object.keys(body).length !== 4)
    return undefined;
  const { id, params } = body;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)))) return undefined;
  if (
    !isObject(params) ||
    typeof params.name !== 'string' ||
    Object.keys(params).some((k) => k !== 'name' && k !== 'arguments')
  )
    return undefined;
  if (params.arguments !== undefined && !isObject(params.arguments)) return undefined;
  return { id, name: params.name, args: params.arguments ?? {} };
}

export interface McpEndpoint {
  /** The SDK's handler, for every request the direct path does not take. */
  handle: ReturnType<typeof toNodeHandler>;
  /**
   * The answer to a plain 2025-era `tools/call` of a known tool, made without the SDK's per-request transport
   * (its cost is most of an MCP call's, docs/performance.md): the same call, the same output check, the JSON-RPC
   * response as `application/json`, which the protocol allows for a single request. Undefined otherwise.
   */
  direct(
    headers: Record<string, string | string[] | undefined>,
    body: unknown,
    connection: Connection,
  ): Promise<string> | undefined;
}

/** A handler per server; the connection rides on the request as `auth.extra.connection`. */
export function mcpHandlers(catalog: readonly Operation[], version: string): Record<McpServerName, McpEndpoint> {
  return Object.fromEntries(
    (Object.keys(SERVER_NAMES) as McpServerName[]).map((server): [McpServerName, McpEndpoint] => {
      // Each schema is compiled once; every request's server instance registers the same ones.
      const propose = catalog.find((op) => op.name === PROPOSE_WRITE);
      const tools = toolsOf(catalog, server).map((tool) => ({
        tool,
        input: fromJsonSchema(tool.inputSchema as never, RUNNER_CHECKS_INPUT),
        output: tool.outputSchema && fromJsonSchema(tool.outputSchema as never),
      }));
      const byName = new Map(tools.map((t) => [t.tool.name, t]));
      const handler = createMcpHandler(
        (request) => {
          const connection = request.authInfo?.extra?.connection as Connection;
          const mcp = new McpServer({ name: SERVER_NAMES[server], version }, { capabilities: { tools: {} } });
          const listed: Record<string, unknown>[] = [];
          for (const { tool, input, output } of tools) {
            // Where the connection gets a preview or a proposal from a tool instead of its answer, it has no output schema.
            const withOutput = output && !answersInstead(connection, tool);
            const config = {
              description: tool.description,
              inputSchema: input,
              ...(withOutput && { outputSchema: output }),
              annotations: tool.annotations,
            };
            mcp.registerTool(tool.name, config, (args: unknown) => callTool(server, tool, args, connection, propose));
            if (holdsScope(connection.scopes, tool.op.mcp.scope))
              listed.push({
                name: tool.name,
                description: tool.description,
                inputSchema: tool.inputSchema,
                ...(withOutput && { outputSchema: tool.outputSchema }),
                annotations: tool.annotations,
              });
          }
          // The list names only the tools the connection's scopes allow (docs/mcp.md); a call of another one is still
          // answered, with MISSING_SCOPE naming the scope it lacks, so the SDK's own list is replaced, not its calls.
          mcp.server.removeRequestHandler('tools/list');
          mcp.server.setRequestHandler('tools/list', () => ({ tools: listed as never }));
          return mcp;
        },
        { legacy: 'stateless', onerror: reportSdkError },
      );
      const direct: McpEndpoint['direct'] = (headers, body, connection) => {
        const call = directCall(headers, body);
        const entry = call && byName.get(call.name);
        if (!call || !entry) return undefined;
        return (async () => {
          let result = await callTool(server, entry.tool, call.args, connection, propose);
          // The SDK's own check of an answer against the tool's output schema, with its words.
          if (!result.isError && entry.output && !answersInstead(connection, entry.tool)) {
            const checked = await entry.output['~standard'].validate(result.structuredContent);
            if (checked.issues)
              result = {
                content: [
                  { type: 'text', text: `Output validation error: ${checked.issues.map((i) => i.message).join('; ')}` },
                ],
                isError: true,
              };
          }
          // callTool's structured answer is its first text block's JSON: that text is written as it is, not serialised again.
          const [first] = result.content;
          const reuse = result.structuredContent !== undefined && first !== undefined;
          const { structuredContent: _answer, ...rest } = result;
          const body = JSON.stringify({ jsonrpc: '2.0', id: call.id, result: rest });
          return reuse ? `${body.slice(0, -2)},"structuredContent":${first.text}}}` : body;
        })();
      };
      return [server, { handle: toNodeHandler(handler, { onerror: reportSdkError }), direct }];
    }),
  ) as Record<McpServerName, McpEndpoint>;
}
