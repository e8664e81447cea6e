/**
 * The HTTP side of the MCP servers: `/mcp` and `/api/mcp` (user server), `/mcp/developer` and `/api/mcp/developer`
 * (developer server), both forms answering identically. It reads the connection's scopes from its headers and hands
 * the request to the server's SDK handler; a foreign Host or Origin (DNS rebinding) never gets here
 * (api/middleware/hosts.ts refuses it on every path, with a JSON-RPC error on these).
 */
import type Koa from 'koa';
import type { Config } from '../../src/platform/config.ts';
import type { Caller, McpServerName, Operation } from '../../src/platform/catalog/types.ts';
import type { State } from '../middleware/context.ts';
import type { ContextFactory } from '../rest.ts';
import { refusedTooDeep } from './depth.ts';
import { scopesOf } from './grant.ts';
import { mcpHandlers, type Connection } from './server.ts';
import { servedBySdk } from './sdkErrors.ts';
import { lazy } from '../../src/platform/lazy.ts';

const SERVER_OF_PATH: Record<string, McpServerName> = {
  '/mcp': 'user',
  '/api/mcp': 'user',
  '/mcp/developer': 'developer',
  '/api/mcp/developer': 'developer',
};

/** A JSON-RPC error the transport answers before any server reads the request. */
function refuse(ctx: Koa.Context, status: number, message: string): void {
  ctx.status = status;
  ctx.body = { jsonrpc: '2.0', error: { code: -32600, message }, id: null };
}

export interface McpDeps {
  version: string;
  /** Whose token an argument names (the developer server's deprecated api_token). */
  callerOf(token: string): Promise<Caller | null>;
  /** The clock the api_token deadline is read against (tests move it). */
  clock(): Date;
}

export function mcpRoutes(
  catalog: readonly Operation[],
  makeContext: ContextFactory,
  config: Config,
  deps: McpDeps,
): Koa.Middleware<State> {
  // Compiled on the first MCP request: most processes (and test files) never take one.
  const handlers = lazy(() => mcpHandlers(catalog, deps.version));
  return async (ctx, next) => {
    const server = SERVER_OF_PATH[ctx.path.replace(/\/+$/, '')];
    if (!server) return next();
    ctx.state.operation = `mcp:${server}`;
    // A token that is no live token answers 401 at once, pointing to the metadata (RFC 9728); no token is anonymous.
    if (ctx.get('authorization') && !ctx.state.caller) {
      ctx.set(
        'WWW-Authenticate',
        `Bearer error="invalid_token", resource_metadata="${config.publicBaseUrl}/.well-known/oauth-protected-resource${ctx.path.replace(/\/+$/, '')}"`,
      );
      return refuse(
        ctx,
        401,
        'The bearer token is missing, expired or revoked; sign in again (POST /api/v1/user/login)',
      );
    }
    const grant = scopesOf({
      profile: ctx.get('x-mcp-profile') || undefined,
      scopes: ctx.get('x-mcp-scopes') || undefined,
    });
    if ('invalid' in grant) return refuse(ctx, 400, grant.invalid);
    const approval = ctx.get('x-mcp-require-approval');
    if (approval && approval !== '1' && approval !== '0')
      return refuse(ctx, 400, 'X-MCP-Require-Approval is 1 (queue high-risk writes for approval) or 0');
    const dryRun = ctx.get('x-mcp-dry-run');
    if (dryRun && dryRun !== '1' && dryRun !== '0')
      return refuse(ctx, 400, 'X-MCP-Dry-Run is 1 (preview write tools without carrying them out) or 0');
    if (refusedTooDeep(ctx)) return;
    const state = ctx.state;
    const connection: Connection = {
      scopes: grant.scopes,
      callerOf: deps.callerOf,
      now: deps.clock,
      requireApproval: approval === '1',
      dryRun: dryRun === '1',
      context: (agent, caller) => ({ ...makeContext(state), ...(caller !== undefined && { caller }), agent }),
    };
    const direct = handlers()[server].direct(ctx.headers, ctx.request.body, connection);
    if (direct) {
      ctx.body = await direct;
      ctx.type = 'application/json';
      return;
    }
    Object.assign(ctx.req, {
      auth: { token: '', clientId: String(state.caller?.id ?? 'anonymous'), scopes: [], extra: { connection } },
    });
    ctx.respond = false;
    await servedBySdk(state.log, ctx.res, () => handlers()[server].handle(ctx.req, ctx.res, ctx.request.body));
  };
}
