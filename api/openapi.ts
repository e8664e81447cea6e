import type { Operation } from '../src/platform/catalog/types.ts';
import { safeJsonSchema } from '../src/platform/catalog/text.ts';
import { inputJsonSchema, outputJsonSchema } from './graphql/schema.ts';
import { aiToolNames } from '../src/platform/catalog/tools.ts';
import { failuresOf, type Failure } from '../src/platform/catalog/failures.ts';
import { errorCodeDefinition } from '../src/platform/errorCodes.ts';
import { errorExample, examplesOf, parameterExample } from './examples.ts';
import { TAGS } from '../src/modules/index.ts';
import { API_LICENSE, apiContact, DEFAULT_API_CONTACT_EMAIL } from '../src/platform/apiInfo.ts';

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

/**
 * A failure status's answer: the error body whose `code` is one of those listed, each with what it means here, and
 * the body of the first as its example.
 */
const errorResponse = (op: Operation, failures: readonly Failure[]) => ({
  description: failures.map((f) => `${f.code}: ${f.reason}`).join('; '),
  content: {
    'application/json': {
      schema: {
        allOf: [
          { $ref: '#/components/schemas/Error' },
          { type: 'object', properties: { code: { enum: failures.map((f) => f.code) } } },
        ],
      },
      example: errorExample(op, failures[0]!),
    },
  },
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

/** A raw body or answer: the bytes of a file of one of these media types; the first shows the example. */
const binaryContent = (mediaTypes: readonly string[]) =>
  Object.fromEntries(
    mediaTypes.map((type, i) => [
      type,
      { schema: { type: 'string', format: 'binary' }, ...(i === 0 && { example: `(the bytes of a ${type} file)` }) },
    ]),
  );

/** The REST body's own failures, for an operation that reads one. */
const BODY_FAILURES = ['MALFORMED_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'] as const;

/**
 * Every failure an operation can answer, per status, each with the error body and the codes it can carry: those the
 * catalog says (failures.ts) and, for an operation that reads a body, the body's.
 */
function failureResponses(op: Operation & { rest: NonNullable<Operation['rest']> }): Record<string, unknown> {
  const own = failuresOf(op);
  const { rawBody } = op.rest;
  const failures = [
    ...own,
    ...(op.rest.method === 'GET'
      ? []
      : BODY_FAILURES.filter((code) => !(rawBody && code === 'MALFORMED_JSON'))
          // An operation may say more of a body failure than the transport does (a raw body's media types).
          .filter((code) => !own.some((f) => f.code === code))
          .map((code) => {
            const { status, meaning } = errorCodeDefinition(code);
            // A path with a body limit of its own (rest.bodyLimit, a raw body's limit) says its own.
            const limit = code === 'PAYLOAD_TOO_LARGE' && (rawBody?.limit ?? op.rest.bodyLimit);
            const reason =
              rawBody && code === 'UNSUPPORTED_MEDIA_TYPE'
                ? `The body is not ${rawBody.mediaTypes.join(', ')}.`
                : meaning;
            return { code, status, reason: limit ? `The body is over ${limit / (1024 * 1024)} MiB.` : reason };
          })),
  ];
  const statuses = [...new Set(failures.map((f) => f.status))].sort((a, b) => a - b);
  const headersOf = (status: number) =>
    status !== 429 ? undefined : op.limit ? { ...RETRY_AFTER, ...RATE_LIMIT_HEADERS } : RETRY_AFTER;
  return Object.fromEntries(
    statuses.map((status) => {
      const headers = headersOf(status);
      const response = errorResponse(
        op,
        failures.filter((f) => f.status === status),
      );
      return [String(status), { ...response, ...(headers && { headers }) }];
    }),
  );
}

/** The document's introduction, for a person integrating: how to call, how answers and failures look. */
const INFO_DESCRIPTION = (serverUrl: string) =>
  [
    'Orders, contractor assignments, lockers and device orders, carrier distribution, third-party deliveries and ' +
      'tracking: every operation of the Transport Management Service. Many are also GraphQL fields (`x-graphql` ' +
      `names the field; \`POST ${serverUrl}/api/graphql\`) and MCP tools for AI agents (the description names the tool).`,
    'Authenticate with `Authorization: Bearer <token>`: a session token from `POST /v1/user/login`, or a key of ' +
      "its own kind where an operation says so (a locker's device key, a scanner key, an OTEP ingest key). Each " +
      'operation says who may call it.',
    'A failure answers `{ "result": false, "code": "...", "message": "..." }`, with the message in the language ' +
      'of `Accept-Language`; each failure status lists the codes it can carry and what each means here. A 429 ' +
      'says when to try again in `Retry-After`; rate-limited operations send `RateLimit-Policy` and `RateLimit`.',
    `The webhooks the service pushes are described in the webhook catalog, \`${serverUrl}/api/asyncapi-webhooks.json\`.`,
  ].join('\n\n');

/**
 * An operation's description in the reference: the catalog's words for it, then who may call it and, when it is an
 * MCP tool, the tool's names with its scope and risk, so that every renderer shows them.
 */
function referenceText(op: Operation): string {
  const who =
    op.roles === 'public'
      ? 'Public: no token needed.'
      : `Who may call it: ${op.roles.map((r) => `\`${r}\``).join(', ')}.`;
  const tools = Object.entries(aiToolNames(op)).map(([server, name]) => `\`${name}\` (${server} server)`);
  const tool =
    op.mcp && tools.length > 0
      ? `MCP tool: ${tools.join(', ')}; scope ${op.mcp.scope ? `\`${op.mcp.scope}\`` : 'none'}, risk ${op.mcp.risk}${op.mcp.risk === 'high' ? ' (needs `confirm: true`)' : ''}.`
      : null;
  return [op.description ?? op.summary, who, tool].filter(Boolean).join('\n\n');
}

/**
 * The OpenAPI 3.1.0 document, derived from the same catalog as the routes. `tags` are the families' descriptions, as
 * the modules declare them (their descriptor's `tags`); a tag no module declares is left undeclared, which the
 * contract lint (.spectral.yaml) refuses.
 */
export function buildOpenApi(
  catalog: readonly Operation[],
  serverUrl: string,
  {
    tags = TAGS,
    contactEmail = DEFAULT_API_CONTACT_EMAIL,
  }: { tags?: Readonly<Record<string, string>>; contactEmail?: string } = {},
) {
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
    const { rawBody, rawAnswer } = op.rest;
    const inQuery = method === 'GET' || method === 'DELETE' || !!rawBody;
    const parameters = Object.entries(props)
      .filter(([k]) => pathParams.includes(k) || inQuery)
      .map(([name, schema]) => ({
        name,
        in: pathParams.includes(name) ? 'path' : 'query',
        required: pathParams.includes(name) || required.has(name),
        // A field's own description (zod's .describe) is the parameter's, where renderers show it.
        ...(typeof (schema as { description?: unknown }).description === 'string' && {
          description: (schema as { description: string }).description,
        }),
        schema,
        example: parameterExample(op, name),
      }));
    const bodyProps = Object.fromEntries(Object.entries(props).filter(([k]) => !pathParams.includes(k)));
    const bodyRequired = [...required].filter((k) => !pathParams.includes(k));
    // A body is required when a field of it is: a request without one is read as {} and answers 422 only then.
    const body = rawBody
      ? { required: true, description: rawBody.description, content: binaryContent(rawBody.mediaTypes) }
      : inQuery || Object.keys(bodyProps).length === 0
        ? undefined
        : {
            required: bodyRequired.length > 0,
            content: {
              'application/json': {
                schema: { ...input, properties: bodyProps, required: bodyRequired },
                example: Object.fromEntries(
                  Object.entries(examplesOf(op).input).filter(([k]) => !pathParams.includes(k)),
                ),
              },
            },
          };
    paths[path] ??= {};
    paths[path][method.toLowerCase()] = {
      operationId: op.name,
      summary: op.summary,
      description: referenceText(op),
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
          description: rawAnswer?.description ?? 'Success',
          content: rawAnswer
            ? binaryContent(rawAnswer.mediaTypes)
            : Object.fromEntries(
                (op.rest.representation?.mediaTypes ?? ['application/json']).map((type) => [
                  type,
                  // The example is the default representation's; the others' shapes are their formats' own.
                  type === (op.rest!.representation?.mediaType(undefined) ?? 'application/json')
                    ? { schema: output, example: examplesOf(op).output }
                    : { schema: output },
                ]),
              ),
          ...(op.limit && { headers: RATE_LIMIT_HEADERS }),
        },
        ...(op.rest.accepted && {
          '202': {
            description: op.rest.accepted.description,
            content: { 'application/json': { schema: output, example: op.rest.accepted.example } },
            ...(op.limit && { headers: RATE_LIMIT_HEADERS }),
          },
        }),
        ...failureResponses({ ...op, rest: op.rest }),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Transport Management System',
      version: '1.0',
      description: INFO_DESCRIPTION(serverUrl),
      contact: apiContact(serverUrl, contactEmail),
      license: API_LICENSE,
    },
    servers: [{ url: `${serverUrl}/api`, description: 'This deployment' }],
    // The families in catalog order (the order a reader meets them), each declared by the module that owns it.
    tags: [...new Set(catalog.filter((op) => op.rest).map((op) => op.tag))].flatMap((name) =>
      tags[name] ? [{ name, description: tags[name] }] : [],
    ),
    paths,
    components: {
      schemas: { Error: ERROR_SCHEMA, SafeJson: safeJsonSchema(SAFE_JSON_REF) },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
    security: [{ bearer: [] }],
  };
}
