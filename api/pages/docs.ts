/**
 * The API reference pages, public like the documents they render (docs/decisions.md, API reference pages):
 * - /api/docs: Swagger UI (swagger-ui-dist, served from node_modules) over /api/openapi.json.
 * - /api/docs/webhooks: a page of our own over /api/asyncapi-webhooks.json. The AsyncAPI project's renderer compiles
 *   JSON Schemas with `new Function` as it loads, which this page's Content-Security-Policy forbids.
 * Nothing comes from another site: the pages work offline and under a CSP that allows this origin only.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import Router from '@koa/router';
import type { State } from '../middleware/context.ts';

export const DOCS_PATH = '/api/docs';
export const WEBHOOK_DOCS_PATH = '/api/docs/webhooks';

/**
 * Scripts, styles and fetches from this origin only: no 'unsafe-inline', no 'unsafe-eval'. Swagger UI's stylesheet
 * draws its icons as data: SVG images. Its "Try it out" calls the API on this origin.
 */
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const SECURITY = {
  'Content-Security-Policy': DOCS_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};
/** Pages and our own files change with the service: asked again each time. */
const FRESH = 'no-cache';
/** A library file's path names its version, so a browser keeps it until the version changes. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const swaggerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const swaggerVersion = (
  JSON.parse(fs.readFileSync(path.join(swaggerDir, 'package.json'), 'utf8')) as { version: string }
).version;
const SWAGGER_ASSETS = `${DOCS_PATH}/assets/swagger-ui-${swaggerVersion}`;

interface Asset {
  path: string;
  type: string;
  cache: string;
  read(): Buffer;
}

const own = (file: string) => () => fs.readFileSync(new URL(file, import.meta.url));
const html = (file: string) => () =>
  Buffer.from(fs.readFileSync(new URL(file, import.meta.url), 'utf8').replaceAll('{{SWAGGER_ASSETS}}', SWAGGER_ASSETS));
const vendor = (file: string) => () => fs.readFileSync(path.join(swaggerDir, file));

const HTML = 'text/html; charset=utf-8';
const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

const ASSETS: Asset[] = [
  { path: DOCS_PATH, type: HTML, cache: FRESH, read: html('apiDocs.html') },
  { path: WEBHOOK_DOCS_PATH, type: HTML, cache: FRESH, read: html('webhookDocs.html') },
  { path: `${DOCS_PATH}/assets/api-docs.js`, type: JS, cache: FRESH, read: own('apiDocs.js') },
  { path: `${DOCS_PATH}/assets/api-docs.css`, type: CSS, cache: FRESH, read: own('apiDocs.css') },
  { path: `${DOCS_PATH}/assets/webhook-docs.js`, type: JS, cache: FRESH, read: own('webhookDocs.js') },
  { path: `${DOCS_PATH}/assets/webhook-docs.css`, type: CSS, cache: FRESH, read: own('webhookDocs.css') },
  { path: `${SWAGGER_ASSETS}/swagger-ui-bundle.js`, type: JS, cache: IMMUTABLE, read: vendor('swagger-ui-bundle.js') },
  { path: `${SWAGGER_ASSETS}/swagger-ui.css`, type: CSS, cache: IMMUTABLE, read: vendor('swagger-ui.css') },
];

/**
 * Each file is read once, and gzipped on its first request that accepts gzip (Swagger UI's bundle: 1.7 MB, about
 * 0.5 MB gzipped), so that starting the app costs nothing.
 */
export function docsRoutes() {
  const router = new Router<State>();
  for (const asset of ASSETS) {
    const body = asset.read();
    let gzipped: Buffer | undefined;
    router.get(asset.path, (ctx) => {
      ctx.set(SECURITY);
      ctx.set('Cache-Control', asset.cache);
      ctx.vary('Accept-Encoding');
      ctx.type = asset.type;
      if (body.length > 1024 && ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
        gzipped ??= gzipSync(body);
        ctx.set('Content-Encoding', 'gzip');
        ctx.body = gzipped;
      } else ctx.body = body;
    });
  }
  return router.routes();
}
