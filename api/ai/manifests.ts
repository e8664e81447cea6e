/**
 * The public AI discovery documents (specification A5), all generated from the catalog's MCP tools: the manifest
 * (`/.well-known/ai-tools.json`, `/llms.txt`), the tools in four clients' own formats, the GraphQL operations with
 * their hints, the capability overview, and the RFC 9728 protected-resource metadata of the MCP servers.
 */
import type { McpServerName, Operation } from '../../src/platform/catalog/types.ts';
import { describe } from '../../src/platform/catalog/tools.ts';
import { graphqlKind } from '../graphql/schema.ts';
import { PROFILES } from '../mcp/grant.ts';
import { SERVER_NAMES } from '../mcp/server.ts';
import { toolsOf, type Tool } from '../mcp/tools.ts';

export const AI_FORMATS = ['openai', 'anthropic', 'mcp', 'langchain'] as const;
export type AiFormat = (typeof AI_FORMATS)[number];

export const PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
const PATHS: Record<McpServerName, string> = { user: '/mcp', developer: '/mcp/developer' };

const hints = (t: Tool) => ({
  scope: t.op.mcp.scope,
  risk: t.op.mcp.risk,
  confirm: t.op.mcp.risk === 'high',
  read_only: t.annotations.readOnlyHint,
});

/** One tool as the named client declares its tools. */
function inFormat(t: Tool, format: AiFormat): Record<string, unknown> {
  switch (format) {
    // Chat Completions function calling.
    case 'openai':
      return { type: 'function', function: { name: t.name, description: t.description, parameters: t.inputSchema } };
    // The Messages API's client tools.
    case 'anthropic':
      return { name: t.name, description: t.description, input_schema: t.inputSchema };
    // An entry of tools/list.
    case 'mcp':
      return {
        name: t.name,
        description: t.description,
        inputSchema: t.inputSchema,
        ...(t.outputSchema && { outputSchema: t.outputSchema }),
        annotations: t.annotations,
      };
    // LangChain's tool({ name, description, schema }), whose schema may be a JSON Schema.
    case 'langchain':
      return { name: t.name, description: t.description, schema: t.inputSchema };
  }
}

export function aiDocuments(catalog: readonly Operation[], base: string) {
  const servers = (['user', 'developer'] as const).map((server) => ({ server, tools: toolsOf(catalog, server) }));
  const scopes = [
    ...new Set(servers.flatMap((s) => s.tools.map((t) => t.op.mcp.scope)).filter((s): s is string => s !== null)),
  ].sort();

  const manifest = {
    schema_version: '1.0',
    name: 'Transport Management Service',
    description:
      'Delivery and pickup orders, carrier distribution, smart-locker deliveries, OTEP tracking and signed webhooks.',
    authentication: {
      type: 'bearer',
      header: 'Authorization',
      obtain: `${base}/api/v1/user/login`,
      public_tools_need_no_token: true,
    },
    profiles: Object.fromEntries(Object.entries(PROFILES).map(([name, s]) => [name, s === '*' ? ['*'] : s])),
    headers: {
      'X-MCP-Profile': 'one of the profiles',
      'X-MCP-Scopes': 'comma-separated scopes; overrides the profile',
      'X-MCP-Dry-Run': '1 previews write tools: what they would write, emit and start, nothing done',
      'X-MCP-Require-Approval': '1 queues a high-risk write for a person',
    },
    servers: servers.map(({ server, tools }) => ({
      name: SERVER_NAMES[server],
      url: `${base}${PATHS[server]}`,
      transport: 'streamable-http',
      protocol_versions: PROTOCOL_VERSIONS,
      tools: tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema, ...hints(t) })),
    })),
    documents: {
      openapi: `${base}/api/ai/tools/openapi`,
      graphql: `${base}/api/ai/tools/graphql`,
      capabilities: `${base}/api/ai/capabilities`,
      skill: `${base}/api/ai-skill`,
      llms_txt: `${base}/llms.txt`,
      oauth_protected_resource: `${base}/.well-known/oauth-protected-resource`,
    },
  };

  const llmsTxt = [
    '# Transport Management Service',
    '',
    '> Delivery and pickup orders, carrier distribution, smart-locker deliveries, OTEP tracking and signed webhooks, for people and for agents.',
    '',
    `Agents connect to the MCP servers below with \`Authorization: Bearer <token>\` (from POST ${base}/api/v1/user/login) and pick their scopes with \`X-MCP-Profile\`. High-risk tools need \`confirm: true\`. Read the integration skill first: ${base}/api/ai-skill`,
    '',
    '## Documents',
    '',
    `- [Tool manifest](${base}/api/.well-known/ai-tools.json): every tool with its scope, risk and input schema`,
    `- [OpenAPI](${base}/api/ai/tools/openapi): the REST API with x-ai-* extensions`,
    `- [Integration skill](${base}/api/ai-skill): sign in, profiles, confirmation, approvals, webhook signatures`,
    ...servers.flatMap(({ server, tools }) => [
      '',
      `## ${SERVER_NAMES[server]} (${base}${PATHS[server]})`,
      '',
      ...tools.map((t) => `- ${t.name}: ${t.description}`),
    ]),
    '',
  ].join('\n');

  const toolsIn = (format: AiFormat, server: McpServerName) => ({
    format,
    server: SERVER_NAMES[server],
    tools: servers.find((s) => s.server === server)!.tools.map((t) => inFormat(t, format)),
  });

  const graphql = {
    endpoint: `${base}/api/graphql`,
    operations: catalog
      .filter((op) => op.graphql)
      .map((op) => {
        const tool = servers.flatMap((s) => s.tools).find((t) => t.op === op);
        return {
          name: op.graphql!.name,
          kind: graphqlKind(op),
          description: describe(op),
          aiHints: tool ? { tool: tool.name, ...hints(tool) } : { tool: null, public: op.roles === 'public' },
        };
      }),
  };

  const capabilities = {
    servers: servers.map(({ server, tools }) => ({
      name: SERVER_NAMES[server],
      url: `${base}${PATHS[server]}`,
      categories: [null, ...scopes]
        .map((scope) => ({
          scope: scope ?? 'public',
          tools: tools.filter((t) => t.op.mcp.scope === scope).map((t) => t.name),
        }))
        .filter((c) => c.tools.length > 0),
    })),
  };

  /** RFC 9728: the MCP servers are protected resources; this service issues their tokens. */
  const protectedResource = (path: string) => ({
    resource: `${base}${path}`,
    authorization_servers: [base],
    scopes_supported: scopes,
    bearer_methods_supported: ['header'],
    resource_name: 'Transport Management Service MCP',
    resource_documentation: `${base}/api/ai-skill`,
  });

  return { manifest, llmsTxt, toolsIn, graphql, capabilities, protectedResource };
}
