/**
 * The service's own web pages, plain files served as they are (no build step): the MCP approval queue at
 * /mcp-approvals (docs/mcp.md, Approvals). They talk to the REST API with the signed-in person's token.
 */
import fs from 'node:fs';
import Router from '@koa/router';
import type { State } from '../middleware/context.ts';

const read = (name: string) => fs.readFileSync(new URL(name, import.meta.url), 'utf8');

/** Scripts and styles from this origin only; nothing framed, no form posted elsewhere. */
const HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
};

export function pageRoutes() {
  const router = new Router<State>();
  const files: [string, string, string][] = [
    ['/mcp-approvals', 'mcpApprovals.html', 'text/html; charset=utf-8'],
    ['/mcp-approvals.js', 'mcpApprovals.js', 'text/javascript; charset=utf-8'],
    ['/mcp-approvals.css', 'mcpApprovals.css', 'text/css; charset=utf-8'],
  ];
  for (const [path, file, type] of files) {
    const body = read(file);
    router.get(path, (ctx) => {
      ctx.set(HEADERS);
      ctx.type = type;
      ctx.body = body;
    });
  }
  return router.routes();
}
