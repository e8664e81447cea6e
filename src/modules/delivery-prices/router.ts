/**
 * The distance a local delivery is priced on: by road from an OSRM server when the operator set ROUTER_URL, else
 * great-circle. A route that fails (no answer within ROUTER_TIMEOUT_MS, an error status, an answer that is not an
 * OSRM route, a private address the operator did not allow) falls back to great-circle, logged: a price is never
 * refused because the router is down. Like a webhook, the call never follows a redirect, and unless
 * ROUTER_ALLOW_PRIVATE is on never reaches a loopback, private or link-local address, by literal or after DNS.
 */
import { z } from 'zod';
import type { Config } from '../../platform/config.ts';
import type { Logger } from '../../platform/logger.ts';
import { greatCircleMeters } from './domain.ts';
import { routerGet } from './routerGet.ts';

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
  const { status, text } = await routerGet(url, {
    allowPrivate: router.allowPrivate,
    timeoutMs: router.timeoutMs,
    maxBytes: MAX_ANSWER_BYTES,
  });
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
