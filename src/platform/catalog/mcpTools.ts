/**
 * The MCP tools, derived from the operation catalog: every operation that declares `mcp` is a tool of the servers
 * it names, with its name, description, input and output JSON Schema, annotations, scope and risk. No tool is
 * written by hand (docs/mcp.md). Here rather than in api/mcp/ because the Operations AI Agent offers its model the
 * same tools (src/modules/ai-agent/), and a module may not import a surface.
 */
import { z } from 'zod';
import { notBlankRule, withTextRule } from './text.ts';
import { aiToolNames, describe, isRead } from './tools.ts';
import type { McpServerName, Operation } from './types.ts';

/**
 * An operation's input as JSON Schema, with the text rule every input is held to and the rule of trimmed required
 * text (text.ts); `anyJsonRef` names the schema of any JSON value under that rule, for the places that take any
 * value. The OpenAPI document, GraphQL and the tools all use it.
 */
export const inputJsonSchema = (op: Operation, anyJsonRef?: string): Record<string, unknown> =>
  withTextRule(z.toJSONSchema(op.input, { io: 'input', unrepresentable: 'any', override: notBlankRule }), anyJsonRef);
export const outputJsonSchema = (op: Operation): Record<string, unknown> =>
  z.toJSONSchema(op.output, { io: 'output', unrepresentable: 'any' });

export interface Tool {
  op: Operation & { mcp: NonNullable<Operation['mcp']> };
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** Present where the operation answers a JSON object: the result's structuredContent follows it. */
  outputSchema?: Record<string, unknown>;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: false };
}

/** The argument a high-risk tool takes to be carried out. */
export const CONFIRM = 'confirm';

/** The developer server's deprecated per-tool token argument (docs/mcp.md). */
export const API_TOKEN = 'api_token';

const withoutDialect = ({ $schema: _dialect, ...schema }: Record<string, unknown>) => schema;

function toolOf(op: Tool['op'], server: McpServerName): Tool {
  const input = withoutDialect(inputJsonSchema(op) as Record<string, unknown>) as {
    properties?: Record<string, unknown>;
    required?: string[];
  };
  const high = op.mcp.risk === 'high';
  // Tool arguments are always an object: an operation that takes any JSON (a document to validate) takes an object here.
  const inputSchema = {
    type: 'object',
    ...input,
    properties: {
      ...input.properties,
      ...(high && {
        [CONFIRM]: {
          type: 'boolean',
          description: 'true to carry out this high-risk tool; without it nothing is done',
        },
      }),
      ...(server === 'developer' &&
        op.mcp.scope !== null && {
          [API_TOKEN]: {
            type: 'string',
            deprecated: true,
            description: 'Deprecated, accepted until 2026-12-31: send the token in the Authorization header instead',
          },
        }),
    },
  };
  const output = withoutDialect(outputJsonSchema(op) as Record<string, unknown>);
  const read = isRead(op);
  const scope = op.mcp.scope
    ? ` Scope: ${op.mcp.scope}.`
    : op.roles === 'public'
      ? ' Public: no token needed.'
      : ' Needs a token; what it runs checks its own scopes.';
  return {
    op,
    name: aiToolNames(op)[server]!,
    description: `${describe(op)}${scope} Risk: ${op.mcp.risk}${high ? ' (needs confirm: true)' : ''}.`,
    inputSchema,
    ...(output.type === 'object' && { outputSchema: output }),
    annotations: {
      readOnlyHint: read,
      // A tool that runs other operations may run one that removes something.
      destructiveHint: !read && (high || op.rest?.method === 'DELETE' || op.mcp.runsOperations === true),
      idempotentHint: read || op.rest?.method === 'PUT' || op.rest?.method === 'DELETE',
      openWorldHint: false,
    },
  };
}

/** The tools of one server, in catalog order. */
export function toolsOf(catalog: readonly Operation[], server: McpServerName): Tool[] {
  return catalog
    .filter((op): op is Tool['op'] => op.mcp !== undefined && (op.mcp.servers ?? ['user']).includes(server))
    .map((op) => toolOf(op, server));
}
