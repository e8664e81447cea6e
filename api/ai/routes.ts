/** The public AI discovery endpoints (specification A5) and the MCP servers' RFC 9728 metadata, from the catalog. */
import Router from '@koa/router';
import type { Operation } from '../../src/platform/catalog/types.ts';
import { errors } from '../../src/platform/errors.ts';
import type { State } from '../middleware/context.ts';
import type { Skill } from './skill.ts';
import { lazy } from '../../src/platform/lazy.ts';
import { aiDocuments, AI_FORMATS, type AiFormat } from './manifests.ts';

export function aiRoutes(
  catalog: readonly Operation[],
  base: string,
  skill: () => Skill,
  openapi: () => unknown,
): Router<State> {
  // Made on the first discovery request: most processes never serve one.
  const docs = lazy(() => aiDocuments(catalog, base));
  const router = new Router<State>();
  const text = (type: string, body: string) => (ctx: { type: string; body: unknown }) => {
    ctx.type = type;
    ctx.body = body;
  };

  router.get(['/api/.well-known/ai-tools.json', '/.well-known/ai-tools.json'], (ctx) => {
    ctx.body = docs().manifest;
  });
  router.get(['/llms.txt', '/api/llms.txt'], (ctx) => text('text/plain; charset=utf-8', docs().llmsTxt)(ctx));
  router.get('/api/ai/tools', (ctx) => {
    const format = ctx.query.format ?? 'mcp';
    const server = ctx.query.server ?? 'user';
    if (typeof format !== 'string' || !(AI_FORMATS as readonly string[]).includes(format))
      throw errors.field('format', 'field.invalid_value', { values: AI_FORMATS.join(', ') });
    if (server !== 'user' && server !== 'developer')
      throw errors.field('server', 'field.invalid_value', { values: 'user, developer' });
    ctx.body = docs().toolsIn(format as AiFormat, server);
  });
  router.get('/api/ai/tools/openapi', (ctx) => {
    ctx.body = openapi();
  });
  router.get('/api/ai/tools/graphql', (ctx) => {
    ctx.body = docs().graphql;
  });
  router.get('/api/ai/capabilities', (ctx) => {
    ctx.body = docs().capabilities;
  });
  router.get('/api/ai-skill', (ctx) => text('text/markdown; charset=utf-8', skill().text)(ctx));
  router.get('/api/ai-skill/version', (ctx) => {
    const { version, hash } = skill();
    ctx.body = { version, hash, download_url: `${base}/api/ai-skill` };
  });
  // The metadata of the user server, and of each server by its path (RFC 9728, section 3.1).
  router.get('/.well-known/oauth-protected-resource', (ctx) => {
    ctx.body = docs().protectedResource('/mcp');
  });
  for (const path of ['/mcp', '/api/mcp', '/mcp/developer', '/api/mcp/developer']) {
    router.get(`/.well-known/oauth-protected-resource${path}`, (ctx) => {
      ctx.body = docs().protectedResource(path);
    });
  }
  return router;
}
