import fs from 'node:fs';
import Koa from 'koa';
import Router from '@koa/router';
import type { Client } from '@temporalio/client';
import type { Config } from '../src/platform/config.ts';
import type { Orm } from '../src/platform/db/orm.ts';
import type { ReadCache } from '../src/platform/db/readCache.ts';
import type { QuotaCounter } from '../src/platform/quotaCounter.ts';
import type { Logger } from '../src/platform/logger.ts';
import { CATALOG, CREDENTIALS, MODULES, TASK_QUEUES } from '../src/modules/index.ts';
import type { Operation, OperationContext } from '../src/platform/catalog/types.ts';
import { buildSchema } from './graphql/schema.ts';
import { graphqlMiddleware } from './graphql/handler.ts';
import { healthChecks } from './health.ts';
import { authenticate, tokenResolver } from './middleware/auth.ts';
import { jsonBody, type RawBodyOf } from './middleware/body.ts';
import { requestContext, type State } from './middleware/context.ts';
import { errorHandler } from './middleware/errors.ts';
import { allowedHosts } from './middleware/hosts.ts';
import { byPath, chain } from './middleware/chain.ts';
import { buildOpenApi } from './openapi.ts';
import { docsRoutes } from './pages/docs.ts';
import { pageRoutes } from './pages/routes.ts';
import { aiRoutes } from './ai/routes.ts';
import { agentCatalog } from './mcp/developerOperations.ts';
import { mcpRoutes } from './mcp/routes.ts';
import { restRouter } from './rest.ts';
import { lazy } from '../src/platform/lazy.ts';

/**
 * Every catalog operation's REST path starts here, and no other route does (GraphQL, MCP, the documents and pages,
 * the AI discovery files are elsewhere): such a request goes straight to the REST router instead of passing each of
 * the others' path checks (bench section 11).
 */
const REST_PREFIX = '/api/v1/';

/** The REST paths that take a body larger than the service's limit, by `METHOD /api/v1/...` (api/middleware/body.ts). */
const largerBodies = (catalog: readonly Operation[]): Map<string, number> =>
  new Map(
    catalog.flatMap((op) =>
      op.rest?.bodyLimit ? [[`${op.rest.method} /api${op.rest.path}`, op.rest.bodyLimit] as const] : [],
    ),
  );

/** The REST paths that take a raw body (`rest.rawBody`), matched on the `/api/v1/...` path, by method. */
function rawBodies(catalog: readonly Operation[]): RawBodyOf {
  const paths = new Map<string, Map<string, { mediaTypes: readonly string[]; limit: number }>>();
  for (const op of catalog)
    if (op.rest?.rawBody)
      paths.set(op.rest.path, (paths.get(op.rest.path) ?? new Map()).set(op.rest.method, op.rest.rawBody));
  const matchers = [...paths].map(([path, byMethod]) => ({
    re: new RegExp(`^/api${path.replace(/\{\w+\}/g, '[^/]+')}/?$`),
    byMethod,
  }));
  return (path) => matchers.find((m) => m.re.test(path))?.byMethod;
}

export interface AppDeps {
  config: Config;
  orm: Orm;
  reads: ReadCache;
  quotas: QuotaCounter;
  temporal: Client;
  log: Logger;
  catalog?: readonly Operation[];
  /** The clock of dated rules (the MCP api_token deadline); tests move it. */
  clock?: () => Date;
}

export function createApp({
  config,
  orm,
  reads,
  quotas,
  temporal,
  log,
  catalog = CATALOG,
  clock = () => new Date(),
}: AppDeps): Koa<State> {
  const app = new Koa<State>();
  // X-Forwarded-For is read only as far back as the proxies the operator declared: anyone can write the header.
  app.proxy = config.trustedProxyHops > 0;
  app.maxIpsCount = config.trustedProxyHops;
  const makeContext = (state: State): OperationContext => ({
    caller: state.caller,
    lang: state.lang,
    // Forked on first use: a read served from the read cache needs neither (bench section 11).
    get em() {
      const em = orm.em.fork();
      Object.defineProperty(this, 'em', { value: em, writable: true, enumerable: true });
      return em;
    },
    get countsEm() {
      const em = orm.em.fork();
      Object.defineProperty(this, 'countsEm', { value: em, writable: true, enumerable: true });
      return em;
    },
    temporal,
    config,
    log: state.log,
    requestId: state.requestId,
    dryRun: false,
    clientAddress: state.clientAddress,
    reads,
    quotas,
  });
  // Built on its first request: most processes (and test files) never ask for it.
  const openapi = lazy(() => buildOpenApi(catalog, config.publicBaseUrl, { contactEmail: config.apiContactEmail }));

  const meta = new Router<State>({ prefix: '/api' });
  meta.get('/health', async (ctx) => {
    const checks = await healthChecks(orm, temporal, config.temporalNamespace, TASK_QUEUES);
    const ok = Object.values(checks).every((c) => c === 'ok');
    ctx.status = ok ? 200 : 503;
    ctx.body = ok ? { status: 'ok', checks } : { status: 'unavailable', checks };
  });
  meta.get('/openapi.json', (ctx) => {
    ctx.body = openapi();
  });
  for (const doc of MODULES.flatMap((m) => m.documents ?? []))
    meta.get(doc.path, (ctx) => {
      ctx.body = doc.build(config.publicBaseUrl, config.apiContactEmail);
    });

  const version = (
    JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version;
  const rest = restRouter(catalog, makeContext);
  // Agents reach the catalog and the developer server's own tools; the skill file describes them.
  // Built on first use, as the OpenAPI document: 0.14 s of every start-up before, for the few that serve GraphQL.
  const schema = lazy(() => buildSchema(catalog));
  const agents = agentCatalog(catalog, config.publicBaseUrl, version, schema);
  const ai = aiRoutes(agents.operations, config.publicBaseUrl, agents.skill, openapi);
  const restChain = chain<State>(rest.allowedMethods, rest.routes);
  const others = chain<State>(
    graphqlMiddleware(schema, makeContext, config.graphqlLimits),
    meta.routes(),
    ai.routes(),
    pageRoutes(),
    docsRoutes(),
    mcpRoutes(agents.operations, makeContext, config, {
      version,
      callerOf: tokenResolver(orm, CREDENTIALS, reads),
      clock,
    }),
    restChain,
  );
  app
    .use(requestContext(log))
    .use(errorHandler())
    .use(allowedHosts(config.allowedHosts))
    .use(jsonBody(largerBodies(catalog), rawBodies(catalog)))
    .use(authenticate(orm, CREDENTIALS, reads))
    .use(byPath(REST_PREFIX, restChain, others));
  return app;
}
