import type { Operation } from '../src/platform/catalog/types.ts';
import { safeJsonSchema } from '../src/platform/catalog/text.ts';
import { inputJsonSchema, outputJsonSchema } from './graphql/schema.ts';
import { aiToolNames } from '../src/platform/catalog/tools.ts';

const SAFE_JSON_REF = '#/components/schemas/SafeJson';

const ERROR_SCHEMA = {
  type: 'object',
  required: ['result', 'code', 'message'],
  properties: {
    result: { type: 'boolean', const: false },
    code: { type: 'string' },
    message: { type: 'string', description: 'In the language chosen by Accept-Language.' },
    errors: {
      type: 'array',
      items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } },
    },
  },
};

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});
const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } },
};
const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': {
    description: 'The rate limit this operation counts against: its name, quota (q) and window in seconds (w)',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: "The limit's requests remaining (r) and seconds until its window starts afresh (t)",
    schema: { type: 'string' },
  },
};
const RATE_LIMITED = 'Rate limit spent (code RATE_LIMITED): see Retry-After and the RateLimit headers';

/**
 * Every failure an operation can answer, each status with the error body and every reason it can have: the token
 * (401, 403), the body (400, 413, 415), the input (422), the operation's own, its rate limit (429).
 */
function failureResponses(op: Operation & { rest: NonNullable<Operation['rest']> }): Record<string, unknown> {
  const reasons = new Map<number, string[]>();
  const add = (status: number, reason: string) => reasons.set(status, [...(reasons.get(status) ?? []), reason]);
  if (op.roles !== 'public') {
    add(401, 'Missing, expired or revoked token');
    add(403, 'Role or business not allowed');
  }
  if (op.rest.method !== 'GET') {
    add(400, 'The body is not JSON (code MALFORMED_JSON)');
    add(413, 'The body is over 1 MiB (code PAYLOAD_TOO_LARGE)');
    add(415, 'The body is not application/json (code UNSUPPORTED_MEDIA_TYPE)');
  }
  add(422, 'Invalid input; errors name each failing field');
  for (const [status, reason] of Object.entries(op.rest.failures ?? {})) add(Number(status), reason);
  if (op.limit) add(429, RATE_LIMITED);
  if (op.available) add(503, 'Switched off system-wide, or briefly unavailable');
  const headersOf = (status: number) =>
    status !== 429 ? undefined : op.limit ? { ...RETRY_AFTER, ...RATE_LIMIT_HEADERS } : RETRY_AFTER;
  return Object.fromEntries(
    [...reasons]
      .sort(([a], [b]) => a - b)
      .map(([status, list]) => {
        const headers = headersOf(status);
        return [String(status), { ...errorResponse(list.join('; or ')), ...(headers && { headers }) }];
      }),
  );
}

/** The OpenAPI 3.1.0 document, derived from the same catalog as the routes. */
export function buildOpenApi(catalog: readonly Operation[], serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of catalog) {
    if (!op.rest) continue;
    const { method, path, status = 200 } = op.rest;
    const { $schema: _drop, ...input } = inputJsonSchema(op, SAFE_JSON_REF) as Record<string, unknown> & {
      properties?: Record<string, unknown>;
      required?: string[];
    };
    const { $schema: _drop2, ...output } = outputJsonSchema(op) as Record<string, unknown>;
    const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const props = input.properties ?? {};
    const required = new Set(input.required ?? []);
    const inQuery = method === 'GET' || method === 'DELETE';
    const parameters = Object.entries(props)
      .filter(([k]) => pathParams.includes(k) || inQuery)
      .map(([name, schema]) => ({
        name,
        in: pathParams.includes(name) ? 'path' : 'query',
        required: pathParams.includes(name) || required.has(name),
        schema,
      }));
    const bodyProps = Object.fromEntries(Object.entries(props).filter(([k]) => !pathParams.includes(k)));
    const bodyRequired = [...required].filter((k) => !pathParams.includes(k));
    // A body is required when a field of it is: a request without one is read as {} and answers 422 only then.
    const body =
      inQuery || Object.keys(bodyProps).length === 0
        ? undefined
        : {
            required: bodyRequired.length > 0,
            content: { 'application/json': { schema: { ...input, properties: bodyProps, required: bodyRequired } } },
          };
    paths[path] ??= {};
    paths[path][method.toLowerCase()] = {
      operationId: op.name,
      summary: op.summary,
      tags: [op.tag],
      ...(op.roles === 'public' ? { security: [] } : { 'x-roles': op.roles }),
      ...(parameters.length && { parameters }),
      ...(body && { requestBody: body }),
      ...(op.graphql && { 'x-graphql': op.graphql.name }),
      ...(op.mcp && {
        'x-ai-scope': op.mcp.scope,
        'x-ai-risk': op.mcp.risk,
        'x-ai-confirm': op.mcp.risk === 'high',
        'x-ai-tools': aiToolNames(op),
      }),
      responses: {
        [String(status)]: {
          description: 'Success',
          content: Object.fromEntries(
            (op.rest.representation?.mediaTypes ?? ['application/json']).map((type) => [type, { schema: output }]),
          ),
          ...(op.limit && { headers: RATE_LIMIT_HEADERS }),
        },
        ...failureResponses({ ...op, rest: op.rest }),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Transport Management System', version: '1.0' },
    servers: [{ url: `${serverUrl}/api` }],
    paths,
    components: {
      schemas: { Error: ERROR_SCHEMA, SafeJson: safeJsonSchema(SAFE_JSON_REF) },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
    security: [{ bearer: [] }],
  };
}
