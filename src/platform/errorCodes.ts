/**
 * The error codes the service answers, one registry merged from the platform's table and each module's
 * `errorCodes.ts`, the way messages are. A code has one status and one meaning; the operations that can answer it
 * say so in their `failures` (or have it implied by what they declare: a token, a body, a rate limit). The OpenAPI
 * document lists each response's codes, and docs/errors.md is generated from this registry (`npm run docs:errors`).
 */
import { AppError } from './errors.ts';
import type { MessageKey, MessageParams } from './i18n/messages.ts';

export interface ErrorCodeDefinition {
  status: number;
  /** What the code means, in English, for the reference. */
  meaning: string;
  /** Where it is answered when no operation declares it: the transport that does (docs/errors.md says so). */
  where?: string;
  /** Members every answer with this code carries besides result, code and message, where a contract names them. */
  body?: Readonly<Record<string, unknown>>;
}

export type ErrorCodes = Record<string, ErrorCodeDefinition>;

/** Codes of the platform and codes more than one module answers. */
export const PLATFORM_ERRORS = {
  MALFORMED_JSON: { status: 400, meaning: 'The body is not JSON.' },
  UNAUTHENTICATED: { status: 401, meaning: 'The bearer token is missing, expired, revoked or unknown.' },
  INVALID_CREDENTIALS: { status: 401, meaning: 'The email and password do not match an account.' },
  FORBIDDEN: {
    status: 403,
    meaning: "The caller's role, credential kind or business may not use this operation.",
  },
  MISSING_SCOPE: { status: 403, meaning: "An agent's connection lacks the tool's scope." },
  NOT_FOUND: {
    status: 404,
    meaning: "No such record in the caller's reach; another business's records are not found.",
  },
  ROUTE_NOT_FOUND: { status: 404, meaning: 'No operation has this path.', where: 'any REST request' },
  METHOD_NOT_ALLOWED: {
    status: 405,
    meaning: 'The path has no operation for this method; Allow lists those it has.',
    where: 'any REST request',
  },
  HOST_NOT_ALLOWED: {
    status: 403,
    meaning:
      'The Host header, or the Origin header when sent, names a host the service does not answer to (ALLOWED_HOSTS): a guard against DNS rebinding.',
    where: 'any request',
  },
  INVALID_TRANSITION: { status: 409, meaning: "The process's state does not allow this step now." },
  TOO_MANY_KEYS: { status: 409, meaning: 'The owner already holds the most active keys allowed; revoke one first.' },
  PAYLOAD_TOO_LARGE: { status: 413, meaning: 'The body is over 1 MiB.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: 'The body is not application/json.' },
  VALIDATION_FAILED: { status: 422, meaning: 'The input is invalid; `errors` names each failing field.' },
  CONFIRMATION_REQUIRED: { status: 428, meaning: 'A high-risk tool was called without `confirm: true`.' },
  TOO_MANY_ATTEMPTS: {
    status: 429,
    meaning: 'Locked after repeated wrong codes or passwords; `retry_after` and Retry-After say for how long.',
  },
  RATE_LIMITED: {
    status: 429,
    meaning: 'A rate limit is spent; Retry-After and the RateLimit headers say when its window starts afresh.',
  },
  INTERNAL: {
    status: 500,
    meaning: 'The service failed; the request id in the logs tells what happened.',
    where: 'any request',
  },
  API_TOKEN_ARGUMENT_REMOVED: {
    status: 400,
    meaning: 'A tool call carried the removed `api_token` argument; the token goes in the Authorization header.',
    where: 'MCP tool calls',
  },
  QUERY_TOO_LARGE: {
    status: 413,
    meaning: 'The GraphQL query text is over its size limit.',
    where: 'POST /api/graphql',
  },
  TOO_MANY_MUTATIONS: {
    status: 400,
    meaning: 'The GraphQL request runs more mutations than allowed.',
    where: 'POST /api/graphql',
  },
  TOO_MANY_ALIASES: {
    status: 400,
    meaning: 'The GraphQL query uses more aliases than allowed.',
    where: 'POST /api/graphql',
  },
  QUERY_TOO_DEEP: { status: 400, meaning: 'The GraphQL query nests deeper than allowed.', where: 'POST /api/graphql' },
  QUERY_TOO_COMPLEX: {
    status: 400,
    meaning: "The GraphQL query's cost is over its limit.",
    where: 'POST /api/graphql',
  },
  RESPONSE_TOO_LARGE: {
    status: 400,
    meaning: 'The GraphQL answer would be over its size limit.',
    where: 'POST /api/graphql',
  },
} satisfies ErrorCodes;

/** The codes modules add: each module's errorCodes.ts merges its own into this interface. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ModuleErrorCodes {}

export type ErrorCode = keyof typeof PLATFORM_ERRORS | keyof ModuleErrorCodes;

const registry = new Map<string, ErrorCodeDefinition>(Object.entries(PLATFORM_ERRORS));

/** Adds a module's codes; a code defined twice is a programming error, found at start-up. */
export function registerErrorCodes(codes: ErrorCodes): void {
  for (const [code, definition] of Object.entries(codes)) {
    if (registry.has(code) && registry.get(code) !== definition) throw new Error(`error code ${code} is defined twice`);
    registry.set(code, definition);
  }
}

/** Every registered code, for the OpenAPI document and docs/errors.md. */
export function allErrorCodes(): ReadonlyMap<string, ErrorCodeDefinition> {
  return registry;
}

export function errorCodeDefinition(code: string): ErrorCodeDefinition {
  const definition = registry.get(code);
  if (!definition) throw new Error(`error code ${code} is not registered`);
  return definition;
}

type PlatformCode = keyof typeof PLATFORM_ERRORS;

/**
 * A module's way to refuse with one of its codes or a platform's: the status comes from the table, so a call site
 * names the code and the message only (`throw fail('ORDER_HELD', 'assignment.held')`).
 */
export function failWith<T extends ErrorCodes>(table: T) {
  return (code: (keyof T | PlatformCode) & ErrorCode, key: MessageKey, params?: MessageParams): AppError => {
    const definition = (table as ErrorCodes)[code] ?? (PLATFORM_ERRORS as ErrorCodes)[code]!;
    return new AppError(definition.status, code, key, { params, extra: definition.body });
  };
}

/** Refuses with a platform code (INVALID_TRANSITION, TOO_MANY_KEYS, ...). */
export const fail = failWith({});
