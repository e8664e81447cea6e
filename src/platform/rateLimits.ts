/**
 * Rate limits: how many requests a client address (public reads, sign-in) or a credential (ingest, webhook tests)
 * may send in a window, counted in PostgreSQL so that every API process shares the count (quotaCounter.ts). An operation names its
 * limit in the catalog; the runner spends it (catalog/run.ts). Defaults and reasons: docs/abuse-limits.md.
 */
import net from 'node:net';
import type { OperationContext } from './catalog/types.ts';
import type { Quota, RateLimitName } from './config.ts';
import { errors } from './errors.ts';
import { rateLimitRefusals } from './telemetry/metrics.ts';

/** What each limit counts against. */
export const RATE_LIMIT_SUBJECT: Readonly<Record<RateLimitName, 'address' | 'credential'>> = {
  public_read: 'address',
  sign_in: 'address',
  ingest: 'credential',
  webhook_test: 'credential',
  quote: 'credential',
  driver_register: 'address',
};

/** A limit's state after a request: sent as the RateLimit and RateLimit-Policy headers. */
export interface QuotaState extends Quota {
  policy: RateLimitName;
  remaining: number;
  resetSeconds: number;
}

/** The RateLimit-Policy and RateLimit header fields (draft-ietf-httpapi-ratelimit-headers), as structured field lists. */
export function rateLimitHeaders(q: QuotaState): Record<string, string> {
  return {
    'RateLimit-Policy': `"${q.policy}";q=${q.limit};w=${q.windowSeconds}`,
    RateLimit: `"${q.policy}";r=${q.remaining};t=${q.resetSeconds}`,
  };
}

/**
 * The address a limit counts against: an IPv4 address as it is (also when written IPv4-mapped), an IPv6 address
 * by its /64 network, since one subscriber commonly holds a whole /64 and could otherwise take a new address per request.
 */
export function addressSubject(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!net.isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** Counts this call against its limit; over the limit it answers 429 with Retry-After and the RateLimit headers. */
export async function spendQuota(ctx: OperationContext, policy: RateLimitName): Promise<void> {
  const quota = ctx.config.rateLimits[policy];
  if (!quota) return;
  const subject =
    RATE_LIMIT_SUBJECT[policy] === 'address'
      ? `ip:${addressSubject(ctx.clientAddress)}`
      : ctx.caller!.via !== 'session'
        ? `key:${ctx.caller!.tokenHash}`
        : `user:${ctx.caller!.id}`;
  const { hits, resetSeconds } = await ctx.quotas.count(() => ctx.countsEm, policy, subject, quota);
  const state: QuotaState = { policy, ...quota, remaining: Math.max(0, quota.limit - hits), resetSeconds };
  if (hits > quota.limit) {
    rateLimitRefusals.inc({ policy });
    throw errors.rateLimited(resetSeconds, rateLimitHeaders(state));
  }
  ctx.quota = state;
}
