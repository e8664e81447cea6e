import type { ReadCache } from '../db/readCache.ts';
import type { QuotaCounter } from '../quotaCounter.ts';
import type { z } from 'zod';
import type { Client } from '@temporalio/client';
import type { Config, RateLimitName } from '../config.ts';
import type { Em } from '../db/orm.ts';
import type { Language } from '../i18n/languages.ts';
import type { Role } from '../roles.ts';
import type { ErrorCode } from '../errorCodes.ts';
import type { Logger } from '../logger.ts';
import type { QuotaState } from '../rateLimits.ts';

/** The kinds of credential; an operation names the one it takes (`auth`), the session by default. */
export type CredentialUse = 'session' | 'otep_key' | 'device_key' | 'scanner_key';

export interface Caller {
  id: number;
  name: string;
  email: string;
  role: Role;
  businessId: number | null;
  tokenHash: string;
  /**
   * How the caller signed in: a user session token, a provider's OTEP ingest key (which can only ingest), a
   * locker's device key (which opens only its device's endpoints), or a scanner key (scans at its place only).
   */
  via: CredentialUse;
  /** The device a device key belongs to. */
  device?: { id: number; code: string };
  /** The place a scanner key belongs to. */
  place?: { id: number; code: string };
  /** When the credential stops being valid, where it expires by itself (a session token). */
  expiresAt?: Date;
}

export type McpServerName = 'user' | 'developer';

/** What an MCP agent may do on this call, from its connection's headers (docs/mcp.md). */
export interface AgentGrant {
  /** The scopes granted: every one ('*') for the full profile and legacy access. */
  scopes: '*' | readonly string[];
  /** The call carried `confirm: true`. */
  confirmed: boolean;
}

/** What a handler gets: never a Koa object, so it runs the same under REST, GraphQL and (later) MCP. */
export interface OperationContext {
  caller: Caller | null;
  lang: Language;
  em: Em;
  /**
   * Where the counts that outlive a call are written: wrong codes (codeChecks.ts) and rate-limit hits. Never inside a
   * transaction of the call's, so that a dry run, which rolls the call's own writes back, still counts them: a preview
   * is no free way to guess a pickup code, nor to get around a limit.
   */
  countsEm: Em;
  temporal: Client;
  config: Config;
  log: Logger;
  requestId: string;
  dryRun: boolean;
  /** Set when the call came from an MCP agent: the runner checks the tool's scope and confirmation against it. */
  agent?: AgentGrant;
  /** The client's address (TRUSTED_PROXY_HOPS says which one), which the per-address rate limits count against. */
  clientAddress: string;
  /** Set by the runner when the call counted against a rate limit; REST answers it as the RateLimit headers. */
  quota?: QuotaState;
  /** The process's cache of rarely changing reads (src/platform/db/readCache.ts). */
  reads: ReadCache;
  /** The process's side of the rate limits' counts (src/platform/quotaCounter.ts). */
  quotas: QuotaCounter;
  /**
   * The request's body, for an operation that takes a raw body (`rest.rawBody`); REST sets it. Its bytes are read
   * only when the handler asks for them, so after the caller, its role and the input have been checked: an
   * unauthenticated or refused upload is answered without reading it.
   */
  body?: RawUpload;
}

/** A raw request body of a declared media type, not read yet: `read()` reads it (once; 413 beyond the path's limit). */
export interface RawUpload {
  mediaType: string;
  read: () => Promise<Buffer>;
}

/** Bytes of a declared media type: a raw request body (`rest.rawBody`), or an answer that is a file (`rest.rawAnswer`). */
export interface RawContent {
  mediaType: string;
  bytes: Buffer;
}

/** A context whose caller is known and belongs to a business. */
export type BusinessContext = OperationContext & { caller: Caller & { businessId: number } };

export type Failures = Readonly<Partial<Record<ErrorCode, string | true>>>;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * A read whose answer comes in several representations, chosen by a query parameter or, when that is absent,
 * by the request's Accept header; the answer carries the chosen representation's media type.
 */
export interface Representation {
  param: string;
  fromAccept(accept: string): string | null;
  /** `value` is undefined when neither asked: the default representation's type. */
  mediaType(value: string | undefined): string | undefined;
  /** Every media type an answer can carry (the OpenAPI document lists them). */
  mediaTypes: readonly string[];
}

export interface Operation<
  I extends z.ZodType = z.ZodType,
  O extends z.ZodType = z.ZodType,
  C extends OperationContext = OperationContext,
> {
  /** Stable id: also the future MCP tool and manifest name. */
  name: string;
  /** One line: what it does. */
  summary: string;
  /**
   * For a person integrating, written once: what it does, when to use it, what it refuses. The OpenAPI operation's
   * description (api/openapi.ts adds who may call it and its MCP tool) and, after the summary, the MCP tool's and the
   * AI discovery manifests'.
   */
  description?: string;
  /** API family (OpenAPI tag). */
  tag: string;
  input: I;
  output: O;
  /** Who may call it; 'public' needs no token. Checked in one place, the runner. */
  roles: readonly Role[] | 'public';
  /**
   * The credentials it takes, a session when absent: a machine key (an OTEP ingest key, a device key, a scanner
   * key) opens only the operations that name its kind, and an operation may take several kinds.
   */
  auth?: CredentialUse | readonly CredentialUse[];
  rest?: {
    method: HttpMethod;
    path: string;
    status?: number;
    representation?: Representation;
    /**
     * 202 Accepted instead of `status` when the answer says the work goes on (a registration that waits for its
     * code or an approval): the OpenAPI document lists 202 with this description and example.
     */
    accepted?: { when: (output: never) => boolean; description: string; example: unknown };
    /**
     * The largest JSON body this path takes, in bytes, where it must be more than the service's 1 MiB (a path without
     * parameters; api/middleware/body.ts). GraphQL and MCP calls of the operation keep 1 MiB.
     */
    bodyLimit?: number;
    /**
     * The body is the bytes themselves (a photo), of one of `mediaTypes` and at most `limit` bytes: the handler reads
     * them as `ctx.body`, and the input holds the path and query parameters only. REST only: GraphQL and MCP carry
     * no bytes. A larger body answers 413 (api/middleware/body.ts); a body of another type is not read, `ctx.body`
     * is undefined, and the handler answers 415 (UNSUPPORTED_MEDIA_TYPE, which it declares) when it needs it.
     */
    rawBody?: { mediaTypes: readonly string[]; limit: number; description: string };
    /**
     * The answer is a file: the handler answers a RawContent (output schema `rawAnswer`, schemas.ts), sent as its
     * bytes with its media type, one of `mediaTypes`, and these headers.
     */
    rawAnswer?: { mediaTypes: readonly string[]; description: string; headers?: Readonly<Record<string, string>> };
  };
  /**
   * The error codes it answers besides those its other members imply (failures.ts: a token's, the input's, a rate
   * limit's), each with what it means here or `true` for the registry's meaning. The OpenAPI document lists them per
   * status and docs/errors.md per code; the runner logs any other code an operation answers as a broken contract.
   */
  failures?: Failures;
  /**
   * The reference's examples where those written from the schemas (src/platform/schemaExample.ts) would mislead: the
   * whole input (path and query parameters with the body's fields) and the answer. A test parses each with `input`
   * and `output`, as it does the written ones.
   */
  examples?: { input?: z.input<I>; output?: z.input<O> };
  graphql?: { name: string; kind?: 'query' | 'mutation' };
  /** The rate limit each call counts against (config.rateLimits; rateLimits.ts says by address or by credential). */
  limit?: RateLimitName;
  /**
   * Served as an MCP tool (docs/mcp.md): the scope an agent needs (null for a public tool), its risk (high is the
   * specification's C: nothing happens without `confirm: true`), the tool's name where the specification's catalog
   * names it otherwise than the operation, and the servers that list it (the user server by default).
   */
  mcp?: {
    scope: string | null;
    risk: 'low' | 'medium' | 'high';
    tool?: string | Partial<Record<McpServerName, string>>;
    servers?: readonly McpServerName[];
    /**
     * The tool runs other operations of the catalog (a GraphQL document), each checking its own role, scope and
     * confirmation. It may write whatever they write: its annotations say so, a dry run previews it, and it is
     * never proposed for approval, whose readers are chosen by the proposed tool's own role and scope.
     */
    runsOperations?: true;
  };
  /** Runs after authentication and before the role check: system availability (503). */
  available?: (ctx: OperationContext) => void | Promise<void>;
  /** Runs after the role check: per-business switches (403). */
  guard?: (ctx: BusinessContext) => void | Promise<void>;
  /** The caller must belong to a business (403 otherwise); the handler then receives a BusinessContext. */
  business?: boolean;
  handler: (input: z.output<I>, ctx: C) => Promise<z.input<O>>;
}

/**
 * Keeps the input and output types of each entry while the catalog stays a plain list. An entry that declares
 * `business: true` has its handler typed with the BusinessContext the runner guarantees.
 */
export function defineOperation<I extends z.ZodType, O extends z.ZodType>(
  op: Operation<I, O, BusinessContext> & { business: true },
): Operation<I, O>;
export function defineOperation<I extends z.ZodType, O extends z.ZodType>(
  op: Operation<I, O> & { business?: false },
): Operation<I, O>;
export function defineOperation<I extends z.ZodType, O extends z.ZodType>(
  op: Operation<I, O, BusinessContext> | Operation<I, O>,
): Operation<I, O> {
  return op as Operation<I, O>;
}
