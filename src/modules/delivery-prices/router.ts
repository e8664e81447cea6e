/**
 * The distance a local delivery is priced on: by road from an OSRM server when the operator set ROUTER_URL, else
 * great-circle. A route that fails (no answer within ROUTER_TIMEOUT_MS, an error status, an answer that is not an
 * OSRM route, a private address the operator did not allow) falls back to great-circle, logged: a price is never
 * refused because the router is down. Like a webhook, the call never follows a redirect, and unless
 * ROUTER_ALLOW_PRIVATE is on never reaches a loopback, private or link-local address, by literal or after DNS.
 */
import http from 'node:http';
import https from 'node:https';
import { z } from 'zod';
import type { Config } from '../../platform/config.ts';
import type { Logger } from '../../platform/logger.ts';
import { guardedLookup, isPrivateUrl } from '../webhooks/index.ts';
import { greatCircleMeters } from './domain.ts';

export type RouterConfig = NonNullable<Config['router']>;
type Point = { lat: number; lng: number };

/** How the distance was measured. */
export type DistanceSource = 'road' | 'great_circle';

/** What is read of an answer at most; a longer one is a failure. */
const MAX_ANSWER_BYTES = 1024 * 1024;
/** A road route longer than this is not believed (the Earth's circumference). */
const MAX_ROUTE_METERS = 40_075_000;

const OsrmRoute = z.object({
  code: z.literal('Ok'),
  routes: z.array(z.object({ distance: z.number().nonnegative().max(MAX_ROUTE_METERS) })).min(1),
});

const agents = {
  open: { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) },
  guarded: {
    'http:': new http.Agent({ keepAlive: true, lookup: guardedLookup }),
    'https:': new https.Agent({ keepAlive: true, lookup: guardedLookup }),
  },
};

/** The delivery's distance in metres and how it was measured. */
export async function measureDistance(
  router: RouterConfig | null,
  from: Point,
  to: Point,
  log: Logger,
): Promise<{ meters: number; source: DistanceSource }> {
  if (router) {
    try {
      return { meters: await roadMeters(router, from, to), source: 'road' };
    } catch (err) {
      log.warn({ reason: (err as Error).message }, 'road router failed; the price uses the great-circle distance');
    }
  }
  return { meters: greatCircleMeters(from, to), source: 'great_circle' };
}

/** OSRM's route service: `GET {url}/route/v1/driving/{lng},{lat};{lng},{lat}?overview=false`, the first route's metres. */
async function roadMeters(router: RouterConfig, from: Point, to: Point): Promise<number> {
  const url = `${router.url}/route/v1/driving/${from.lng},${from.lat};${to.lng},${to.lat}?overview=false&alternatives=false&steps=false`;
  // An address literal is dialled without a lookup, so guardedLookup never sees it: it is judged here.
  if (!router.allowPrivate && isPrivateUrl(url)) throw new Error('refused: a private address');
  const { status, text } = await get(router, url);
  if (status !== 200) throw new Error(`HTTP ${status}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('the answer is not JSON');
  }
  const parsed = OsrmRoute.safeParse(json);
  if (!parsed.success) throw new Error('the answer is not an OSRM route');
  return Math.round(parsed.data.routes[0]!.distance);
}

function get(router: RouterConfig, url: string): Promise<{ status: number; text: string }> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  const agent = (router.allowPrivate ? agents.open : agents.guarded)[target.protocol as 'http:' | 'https:'];
  return new Promise((resolve, reject) => {
    const req = client.request(
      target,
      { method: 'GET', agent, signal: AbortSignal.timeout(router.timeoutMs), headers: { accept: 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_ANSWER_BYTES) req.destroy(new Error('the answer is too large'));
          else chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.name === 'AbortError' || err.name === 'TimeoutError'
          ? new Error(`no answer within ${router.timeoutMs} ms`)
          : err.code === 'EPRIVATETARGET'
            ? new Error('refused: a private address')
            : err,
      ),
    );
    req.end();
  });
}
