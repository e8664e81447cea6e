/**
 * The tools that describe the service itself (specification B; all on the developer server but get_capabilities),
 * built here, from the catalog and the documents, rather than in a module. Each is an operation like any other,
 * run by the one runner; they have no REST route, being answers the discovery documents already give over HTTP.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execute, GraphQLError, parse, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import { z } from 'zod';
import { defineOperation, type Operation } from '../../src/platform/catalog/types.ts';
import { ROLES } from '../../src/platform/roles.ts';
import { aiDocuments } from '../ai/manifests.ts';
import { skillFile, type Skill } from '../ai/skill.ts';
import { lazy } from '../../src/platform/lazy.ts';
import { checkDocument, checkQueryText, checkResponseSize, GRAPHQL_LIMIT_FAILURES } from '../graphql/limits.ts';
import { graphqlKind } from '../graphql/schema.ts';
import { aiToolNames } from '../../src/platform/catalog/tools.ts';

const TAG = 'Developer';
const DEVELOPER = { scope: null, risk: 'low', servers: ['developer'] } as const;
const query = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .optional()
  .describe('Words to look for (any case) in the name, path and summary; every entry when absent');
const matches = (q: string | undefined, ...texts: string[]) =>
  q === undefined ||
  q
    .toLowerCase()
    .split(/\s+/)
    .every((w) => texts.some((t) => t.toLowerCase().includes(w)));

/** The guides, each a document of docs/ read once at start. */
const GUIDES = { get_otep_guide: 'otep.md', get_webhook_guide: 'webhooks.md' } as const;
const DOCS = path.resolve(import.meta.dirname, '../../docs');
/** A GraphQL error as the endpoint answers it: message, locations, path and the REST body in extensions. */
const formatted = (e: GraphQLError) => ({ ...e.toJSON() });

/**
 * `everything` answers every operation agents reach once they are all built (get_capabilities lists itself too).
 */
export function developerOperations(
  catalog: readonly Operation[],
  skill: () => Skill,
  base: string,
  schema: () => GraphQLSchema,
  everything: () => readonly Operation[],
): Operation[] {
  const apiEndpoints = defineOperation({
    name: 'get_api_endpoints',
    summary:
      "Search the REST API: each endpoint's method, path, operation, summary, who may call it and its tool names.",
    description:
      "Every word of `query` must appear, in any case, in the operation's name, path, summary or family; without it every endpoint is listed. Paths are under `base_url`. Needs no token. Search GraphQL with get_graphql_operations; the whole contract, with schemas and error codes, is the OpenAPI document at /api/openapi.json.",
    tag: TAG,
    roles: 'public',
    mcp: DEVELOPER,
    input: z.object({ query }).strict(),
    output: z.object({
      base_url: z.string(),
      endpoints: z.array(
        z.object({
          method: z.string(),
          path: z.string(),
          operation: z.string(),
          summary: z.string(),
          tag: z.string(),
          roles: z.union([z.literal('public'), z.array(z.string())]),
          tools: z.record(z.string(), z.string()),
        }),
      ),
    }),
    async handler(input) {
      const endpoints = catalog
        .filter((op) => op.rest && matches(input.query, op.name, op.rest.path, op.summary, op.tag))
        .map((op) => ({
          method: op.rest!.method,
          path: `/api${op.rest!.path}`,
          operation: op.name,
          summary: op.summary,
          tag: op.tag,
          roles: op.roles === 'public' ? ('public' as const) : [...op.roles],
          tools: aiToolNames(op),
        }));
      return { base_url: base, endpoints };
    },
  });

  const graphqlOperations = defineOperation({
    name: 'get_graphql_operations',
    summary: "Search the GraphQL operations: each one's name, kind (query or mutation), summary and tool names.",
    description:
      "Every word of `query` must appear, in any case, in the GraphQL field's name, the operation's name or its summary; without it every operation is listed. Answers the endpoint that takes documents; run one with run_graphql_query. Needs no token.",
    tag: TAG,
    roles: 'public',
    mcp: DEVELOPER,
    input: z.object({ query }).strict(),
    output: z.object({
      endpoint: z.string(),
      operations: z.array(
        z.object({
          name: z.string(),
          kind: z.enum(['query', 'mutation']),
          summary: z.string(),
          tools: z.record(z.string(), z.string()),
        }),
      ),
    }),
    async handler(input) {
      const operations = catalog
        .filter((op) => op.graphql && matches(input.query, op.graphql.name, op.name, op.summary))
        .map((op) => ({
          name: op.graphql!.name,
          kind: graphqlKind(op),
          summary: op.summary,
          tools: aiToolNames(op),
        }));
      return { endpoint: `${base}/api/graphql`, operations };
    },
  });

  const graphqlQuery = defineOperation({
    name: 'run_graphql_query',
    summary: "Run a GraphQL document as POST /api/graphql runs it, as the connection's caller; answers {data, errors}.",
    description:
      'The same limits as the endpoint refuse a document too large, too deep or too costly, with too many aliases or mutations, or whose answer is too large (QUERY_TOO_LARGE, QUERY_TOO_DEEP, QUERY_TOO_COMPLEX, TOO_MANY_ALIASES, TOO_MANY_MUTATIONS, RESPONSE_TOO_LARGE). Each operation it reaches checks its own role, scope and confirmation, so it is no way around MISSING_SCOPE or CONFIRMATION_REQUIRED. Syntax errors, unknown fields and resolver failures come back in `errors`, with the REST error body in `extensions`. It needs a token and counts as a write.',
    tag: TAG,
    roles: ROLES,
    mcp: { scope: null, risk: 'medium', servers: ['developer'], runsOperations: true },
    failures: GRAPHQL_LIMIT_FAILURES,
    input: z
      .object({
        query: z.string().min(1).describe('The GraphQL document'),
        variables: z.record(z.string(), z.unknown()).optional(),
        operation_name: z.string().min(1).max(100).optional(),
      })
      .strict(),
    output: z.object({
      data: z.unknown(),
      errors: z.array(z.object({ message: z.string() }).passthrough()).optional(),
    }),
    async handler(input, ctx) {
      const limits = ctx.config.graphqlLimits;
      const refusedText = checkQueryText(input.query, limits);
      if (refusedText) throw refusedText;
      let document: DocumentNode;
      try {
        document = parse(input.query);
      } catch (err) {
        return { data: null, errors: [formatted(err as GraphQLError)] };
      }
      const refused = checkDocument(schema(), document, input.operation_name, input.variables, limits);
      if (refused) throw refused;
      const invalid = validate(schema(), document);
      if (invalid.length > 0) return { data: null, errors: invalid.map(formatted) };
      // The resolvers run their operations through the runner with this context, the agent's grant included.
      const result = await execute({
        schema: schema(),
        document,
        contextValue: ctx,
        variableValues: input.variables,
        operationName: input.operation_name,
      });
      const tooBig = checkResponseSize(result, limits);
      if (tooBig) throw tooBig;
      return { data: result.data ?? null, ...(result.errors && { errors: result.errors.map(formatted) }) };
    },
  });

  let capabilities: ReturnType<typeof aiDocuments>['capabilities'] | undefined;
  const getCapabilities = defineOperation({
    name: 'get_capabilities',
    summary: 'What agents can do here: each MCP server with its URL and its tools, grouped by the scope they need.',
    description:
      "The same answer as GET /api/ai/capabilities: public tools first (scope `public`), then each scope with the tools it opens. Use it to pick the narrowest profile or exact scopes before connecting; a tool outside the connection's scopes answers MISSING_SCOPE. Needs no token.",
    tag: TAG,
    roles: 'public',
    mcp: { scope: null, risk: 'low', servers: ['user'] },
    input: z.object({}).strict(),
    output: z.object({
      servers: z.array(
        z.object({
          name: z.string(),
          url: z.string(),
          categories: z.array(z.object({ scope: z.string(), tools: z.array(z.string()) })),
        }),
      ),
    }),
    async handler() {
      capabilities ??= aiDocuments(everything(), base).capabilities;
      return capabilities;
    },
  });

  const skillUpdate = defineOperation({
    name: 'check_skill_update',
    summary:
      'Compare the hash of the integration skill file an agent holds with the one served: whether to download it again.',
    description:
      "Send the hash your copy came with (`sha256:...`); `update_available` is true when the served file differs, and the answer gives its version, hash and `download_url`. Needs no token. Read the skill's text with get_integration_guide.",
    tag: TAG,
    roles: 'public',
    mcp: DEVELOPER,
    input: z
      .object({
        current_hash: z.string().trim().min(1).max(100).describe("The hash the agent's copy came with (sha256:...)"),
      })
      .strict(),
    output: z.object({
      update_available: z.boolean(),
      version: z.string(),
      hash: z.string(),
      download_url: z.string(),
    }),
    async handler(input) {
      return {
        update_available: input.current_hash !== skill().hash,
        version: skill().version,
        hash: skill().hash,
        download_url: `${base}/api/ai-skill`,
      };
    },
  });

  const guide = (name: string, summary: string, description: string, text: () => string) =>
    defineOperation({
      name,
      summary,
      description,
      tag: TAG,
      roles: 'public',
      mcp: DEVELOPER,
      input: z.object({}).strict(),
      output: z.object({ format: z.literal('markdown'), text: z.string() }),
      async handler() {
        return { format: 'markdown' as const, text: text() };
      },
    });
  const doc = (file: string) => {
    const text = fs.readFileSync(path.join(DOCS, file), 'utf8');
    return () => text;
  };

  return [
    apiEndpoints,
    graphqlOperations,
    graphqlQuery,
    getCapabilities,
    skillUpdate,
    guide(
      'get_integration_guide',
      'How an agent or integration signs in, picks its scopes, confirms risky writes, reads errors and verifies webhooks.',
      "The integration skill as markdown, the same text GET /api/ai-skill serves: read it before calling anything else. It names the high-risk tools that need `confirm: true`, the profiles to pick scopes from, the approval queue and how to check a webhook's signature. Needs no token; check_skill_update says when a kept copy is out of date.",
      () => skill().text,
    ),
    guide(
      'get_otep_guide',
      'The OTEP tracking guide: events, status codes, ingest formats and timelines, as markdown.',
      "Read it before sending tracking events with otep_ingest or reading timelines with otep_tracking_get: it explains the event's fields, the vocabulary of status codes, the conformance levels the validator and ingest apply, EPCIS identifiers, the ingest formats and the provider credentials. It is the guide this version of the service ships. Needs no token.",
      doc(GUIDES.get_otep_guide),
    ),
    guide(
      'get_webhook_guide',
      'The webhook guide: events, endpoints, signatures per sender, retries and dead letters, as markdown.',
      'Read it before setting webhook endpoints with webhook_settings_update: it explains which events go to which URL, the headers and signatures to verify, the retry schedule, where webhooks may not go, the delivery log with replay and resend, and the event catalog at /api/asyncapi-webhooks.json. It is the guide this version of the service ships. Needs no token.',
      doc(GUIDES.get_webhook_guide),
    ),
  ];
}

/** Every operation an agent can reach: the modules' catalog and the developer server's own tools. */
export function agentCatalog(
  catalog: readonly Operation[],
  base: string,
  version: string,
  schema: () => GraphQLSchema,
): { operations: Operation[]; skill: () => Skill } {
  // Made on first use, as the GraphQL schema: most processes never read the skill file.
  const skill = lazy(() => skillFile(catalog, base, version));
  const operations: Operation[] = [...catalog, ...developerOperations(catalog, skill, base, schema, () => operations)];
  return { operations, skill };
}
