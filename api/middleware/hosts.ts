/**
 * The DNS rebinding guard, in front of every path (REST, GraphQL, pages, /api/ai, MCP, health). A page of another
 * site can make its own name resolve to this machine, and its requests then carry that name in Host (and in Origin
 * when the browser sends one): a request whose Host or Origin names a host outside `config.allowedHosts` is refused
 * before its body is read. A request without Host (HTTP/1.0 health checks) passes: no browser sends one.
 */
import type Koa from 'koa';
import { AppError } from '../../src/platform/errors.ts';
import { hostnameOf } from '../../src/platform/hostnames.ts';
import type { State } from './context.ts';

/** The MCP servers' paths (api/mcp/routes.ts), whose clients read a JSON-RPC error rather than the error body. */
const MCP_PATH = /^(\/api)?\/mcp(\/developer)?\/*$/;

/** Most Host and Origin values whose verdict is kept. */
const VERDICTS = 1000;

export function allowedHosts(allowed: readonly string[]): Koa.Middleware<State> {
  const hosts = new Set(allowed);
  // A request carries one of a few Host values: each is parsed (new URL) once, the first VERDICTS of them kept.
  const verdicts = new Map<string, boolean>();
  const foreign = (value: string) => {
    let verdict = verdicts.get(value);
    if (verdict === undefined) {
      verdict = !hosts.has(hostnameOf(value) ?? '');
      if (verdicts.size < VERDICTS) verdicts.set(value, verdict);
    }
    return verdict;
  };
  return async (ctx, next) => {
    // ctx.host is X-Forwarded-Host behind trusted proxies (TRUSTED_PROXY_HOPS), else Host.
    const origin = ctx.get('origin');
    const header = ctx.host && foreign(ctx.host) ? 'Host' : origin && foreign(origin) ? 'Origin' : null;
    if (!header) return next();
    ctx.state.log.warn({ host: ctx.host, origin: origin || undefined }, `${header} not allowed`);
    if (MCP_PATH.test(ctx.path)) {
      ctx.status = 403;
      ctx.body = { jsonrpc: '2.0', error: { code: -32600, message: `${header} not allowed` }, id: null };
      return;
    }
    throw new AppError(403, 'HOST_NOT_ALLOWED', 'error.host_not_allowed', { params: { header } });
  };
}
