import type { Operation } from '../src/platform/catalog/types.ts';
import { inputJsonSchema, outputJsonSchema } from './graphql/schema.ts';

const ERROR_SCHEMA = {
  type: 'object',
  required: ['result', 'code', 'message'],
  properties: {
    result: { type: 'boolean', const: false },
    code: { type: 'string' },
    message: { type: 'string', description: 'In the language chosen by Accept-Language.' },
    errors: { type: 'array', items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } } },
  },
};

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } } };
const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': { description: 'The rate limit this operation counts against: its name, quota (q) and window in seconds (w)', schema: { type: 'string' } },
  RateLimit: { description: 'The limit\'s requests remaining (r) and seconds until its window starts afresh (t)', schema: { type: 'string' } },
};
const failureResponse = (status: string, description: string) => ({ ...errorResponse(description), ...(status === '429' && { headers: RETRY_AFTER }) });
const RATE_LIMITED = 'Rate limit spent (code RATE_LIMITED): see Retry-After and the RateLimit headers';

/** The 429 of an operation's rate limit, merged with a 429 it answers for a reason of its own. */
function rateLimitResponse(op: Operation) {
  const own = op.rest?.failures?.[429];
  return { ...errorResponse(own ? `${own}; or ${RATE_LIMITED[0]!.toLowerCase()}${RATE_LIMITED.slice(1)}` : RATE_LIMITED), headers: { ...RETRY_AFTER, ...RATE_LIMIT_HEADERS } };
}

/** The OpenAPI 3.1.0 document, derived from the same catalog as the routes. */
export function buildOpenApi(catalog: readonly Operation[], serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of catalog) {
    if (!op.rest) continue;
    const { method, path, status = 200 } = op.rest;
    const { $schema: _drop, ...input } = inputJsonSchema(op) as Record<string, unknown> & { properties?: Record<string, unknown>; required?: string[] };
    const { $schema: _drop2, ...output } = outputJsonSchema(op) as Record<string, unknown>;
    const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const props = input.properties ?? {};
    const required = new Set(input.required ?? []);
    const inQuery = method === 'GET' || method === 'DELETE';
    const parameters = Object.entries(props)
      .filter(([k]) => pathParams.includes(k) || inQuery)
      .map(([name, schema]) => ({ name, in: pathParams.includes(name) ? 'path' : 'query', required: pathParams.includes(name) || required.has(name), schema }));
    const bodyProps = Object.fromEntries(Object.entries(props).filter(([k]) => !pathParams.includes(k)));
    const body = inQuery || Object.keys(bodyProps).length === 0 ? undefined : {
      required: true,
      content: { 'application/json': { schema: { ...input, properties: bodyProps, required: [...required].filter((k) => !pathParams.includes(k)) } } },
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
      ...(op.mcp && { 'x-ai-scope': op.mcp.scope, 'x-ai-risk': op.mcp.risk }),
      responses: {
        [String(status)]: { description: 'Success', content: { 'application/json': { schema: output } }, ...(op.limit && { headers: RATE_LIMIT_HEADERS }) },
        ...(op.roles !== 'public' && { 401: errorResponse('Missing, expired or revoked token'), 403: errorResponse('Role or business not allowed') }),
        422: errorResponse('Invalid input; errors name each failing field'),
        ...Object.fromEntries(Object.entries(op.rest.failures ?? {}).map(([code, description]) => [code, failureResponse(code, description!)])),
        ...(op.limit && { 429: rateLimitResponse(op) }),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Transport Management System', version: '1.0' },
    servers: [{ url: `${serverUrl}/api` }],
    paths,
    components: {
      schemas: { Error: ERROR_SCHEMA },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
    security: [{ bearer: [] }],
  };
}
