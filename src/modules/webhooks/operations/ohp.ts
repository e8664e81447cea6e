import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  insertOhpSubscription,
  listOhpSubscriptions,
  MAX_OHP_SUBSCRIPTIONS,
  MAX_OHP_SUBSCRIPTIONS_PER_URL,
  ohpSubscriptionRefusal,
  revokeOhpSubscription,
  type EndpointRow,
  type OhpRefusal,
} from '../repo/endpoints.ts';
import { errors, type AppError } from '../../../platform/errors.ts';
import { fail } from '../errorCodes.ts';
import { postOutbound } from '../outbound.ts';
import type { EventRouting } from '../routing.ts';
import { signOhp } from '../signing.ts';
import { newKeyId, newSecret } from './providers.ts';
import { intParam } from '../../../platform/catalog/schemas.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { isHttpUrl, maskSecret, refusePrivateUrls } from './settings.ts';
import { WEBHOOK_FORMATS } from '../domain.ts';

const TAG = 'OHP';

const Subscription = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(z.string()).describe('Empty: every OHP event.'),
  format: z.enum(WEBHOOK_FORMATS),
  signature: z
    .enum(['ohp', 'standard_webhooks'])
    .describe('standard_webhooks adds webhook-* headers beside X-Ohp-Signature.'),
  secret: z.string().describe('Never echoed: the last four characters only.'),
  created_at: z.string(),
});

const present = (e: EndpointRow): z.input<typeof Subscription> => ({
  id: e.id,
  url: e.url,
  events: e.events,
  format: e.format,
  signature: e.standard_webhooks ? 'standard_webhooks' : 'ohp',
  secret: maskSecret(e.secret)!,
  created_at: new Date(e.created_at).toISOString(),
});

/**
 * Proves the subscriber controls the URL: it must answer 200 with the same challenge within 3 s. The request is
 * signed like a push, so the subscriber can check it too.
 */
async function challenge(url: string, secret: string, allowPrivate: boolean): Promise<string | null> {
  const value = randomBytes(24).toString('base64url');
  const body = JSON.stringify({ type: 'challenge', challenge: value });
  const headers = signOhp({
    secret,
    event: 'challenge',
    messageId: `challenge-${value.slice(0, 12)}`,
    body,
    timestamp: Math.floor(Date.now() / 1000),
  });
  const res = await postOutbound(url, headers, body, { allowPrivate, readBody: true });
  if (res.status === null) return res.error?.startsWith('no answer') ? 'no answer' : 'unreachable';
  if (res.status !== 200) return `HTTP ${res.status}`;
  let answer: { challenge?: unknown } | null = null;
  try {
    answer = JSON.parse(res.body ?? '') as { challenge?: unknown } | null;
  } catch {
    // An answer that is not JSON does not contain the challenge.
  }
  return answer?.challenge === value ? null : 'the answer did not contain the challenge';
}

/** The 409 of a subscription a limit refuses. */
function refusalError(refusal: OhpRefusal): AppError {
  if (refusal === 'exists') return fail('SUBSCRIPTION_EXISTS', 'webhook.subscription_exists');
  if (refusal === 'too_many')
    return fail('TOO_MANY_SUBSCRIPTIONS', 'webhook.too_many_subscriptions', { max: MAX_OHP_SUBSCRIPTIONS });
  return fail('TOO_MANY_SUBSCRIPTIONS_FOR_URL', 'webhook.too_many_subscriptions_for_url', {
    max: MAX_OHP_SUBSCRIPTIONS_PER_URL,
  });
}

/** Built with the service's events: a subscription names OHP events. */
export const ohpSubscriptionCreate = (routing: EventRouting) =>
  defineOperation({
    name: 'ohp_subscription_create',
    summary:
      'Subscribe a URL to OHP push events; it must first echo a challenge. The secret is generated and shown once when not given.',
    description: `It first POSTs a signed challenge to the URL, which must answer 200 with the same challenge within 3 seconds; the limits are checked before, so a refused call sends nothing. Empty \`events\`: every OHP event. Refuses a failed challenge (CHALLENGE_FAILED), the same URL and events live already (SUBSCRIPTION_EXISTS), over ${MAX_OHP_SUBSCRIPTIONS} per business or ${MAX_OHP_SUBSCRIPTIONS_PER_URL} per URL (TOO_MANY_SUBSCRIPTIONS, TOO_MANY_SUBSCRIPTIONS_FOR_URL) and a private URL (VALIDATION_FAILED).`,
    tag: TAG,
    roles: ['client_admin'],
    business: true,
    rest: { method: 'POST', path: '/v1/ohp/subscriptions', status: 201 },
    failures: {
      CHALLENGE_FAILED: 'The URL did not echo the challenge',
      SUBSCRIPTION_EXISTS: 'A live subscription already has the same URL and events',
      TOO_MANY_SUBSCRIPTIONS: `The business already holds ${MAX_OHP_SUBSCRIPTIONS} live subscriptions`,
      TOO_MANY_SUBSCRIPTIONS_FOR_URL: `The URL already has ${MAX_OHP_SUBSCRIPTIONS_PER_URL} live subscriptions`,
    },
    graphql: { name: 'ohpSubscriptionCreate', kind: 'mutation' },
    mcp: { scope: 'webhooks:write', risk: 'high', servers: ['developer'] },
    input: z
      .object({
        url: z
          .string()
          .trim()
          .max(2000)
          .refine(isHttpUrl, { params: { key: 'field.invalid_url' } }),
        secret: z.string().min(16).max(255).optional(),
        events: z
          .array(z.enum(routing.eventsOf('ohp')))
          .max(20)
          .default([]),
        format: z.enum(WEBHOOK_FORMATS).default('native'),
        signature: z.enum(['ohp', 'standard_webhooks']).default('ohp'),
      })
      .strict(),
    output: z.object({
      result: z.literal(true),
      subscription: Subscription,
      generated_secret: z.string().optional().describe('Present once when generated.'),
    }),
    async handler(input, ctx) {
      const { caller } = ctx;
      refusePrivateUrls(ctx, { url: [input.url] });
      // Limits first: a refused subscription sends no challenge.
      const early = await ohpSubscriptionRefusal(ctx.em, caller.businessId, input.url, input.events);
      if (early) throw refusalError(early);
      const secret = input.secret ?? newSecret();
      const failed = await challenge(input.url, secret, ctx.config.webhookAllowPrivateTargets);
      if (failed) throw fail('CHALLENGE_FAILED', 'webhook.challenge_failed', { reason: failed });
      const row = await insertOhpSubscription(ctx.em, caller.businessId, {
        url: input.url,
        events: input.events,
        format: input.format,
        standardWebhooks: input.signature === 'standard_webhooks',
        secret,
        keyId: newKeyId(),
      });
      if (typeof row === 'string') throw refusalError(row);
      ctx.log.info({ businessId: caller.businessId, subscriptionId: row.id }, 'OHP subscription created');
      return {
        result: true as const,
        subscription: present(row),
        ...(input.secret ? {} : { generated_secret: secret }),
      };
    },
  });

export const ohpSubscriptionList = defineOperation({
  name: 'ohp_subscription_list',
  summary: 'List the live OHP subscriptions of the business.',
  description:
    'Answers each live subscription with its URL, events (empty: all), format, signature scheme and creation time; the secret only as its last four characters. Revoked subscriptions are not listed. The pushes to them are in the delivery log (`webhook_delivery_list`).',
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'GET', path: '/v1/ohp/subscriptions' },
  graphql: { name: 'ohpSubscriptions', kind: 'query' },
  mcp: { scope: 'webhooks:read', risk: 'low', servers: ['developer'] },
  input: z.object({}).strict(),
  output: z.object({ result: z.literal(true), subscriptions: z.array(Subscription) }),
  async handler(_input, ctx) {
    const rows = await listOhpSubscriptions(ctx.em, ctx.caller.businessId);
    return { result: true as const, subscriptions: rows.map(present) };
  },
});

export const ohpSubscriptionRevoke = defineOperation({
  name: 'ohp_subscription_revoke',
  summary: 'Revoke an OHP subscription (id in the query string or the body); pushes already under way finish.',
  description:
    'Events the relay has not picked up yet are no longer sent to it, and its place under the limits per business and per URL is freed. A subscription cannot be edited: to change its URL, events or secret, revoke it and create another. An unknown id, one of another business, or a subscription already revoked answers NOT_FOUND.',
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'DELETE', path: '/v1/ohp/subscriptions' },
  failures: { NOT_FOUND: 'No such subscription of the business' },
  graphql: { name: 'ohpSubscriptionRevoke', kind: 'mutation' },
  mcp: { scope: 'webhooks:write', risk: 'medium', servers: ['developer'] },
  input: z.object({ id: intParam() }).strict(),
  output: z.object({ result: z.literal(true) }),
  async handler(input, ctx) {
    if (!(await revokeOhpSubscription(ctx.em, ctx.caller.businessId, input.id))) throw errors.notFound();
    return { result: true as const };
  },
});
