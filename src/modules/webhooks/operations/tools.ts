import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { insertOutboxEvent } from '../../../platform/db/outbox.ts';
import { testTargets } from '../fanOut.ts';
import { findWebhookSettings } from '../repo/settings.ts';
import { errors } from '../../../platform/errors.ts';
import { fail } from '../errorCodes.ts';
import type { EventRouting } from '../routing.ts';
import { SENDERS } from '../signing.ts';
import { verifyWebhook } from '../verify.ts';
import { intParam } from '../../../platform/catalog/schemas.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { checkCustomer } from './settings.ts';

const TAG = 'Webhooks';

/** Built with the service's events: a test send may name any tenant event. */
export const webhookSettingsTest = (routing: EventRouting) =>
  defineOperation({
    name: 'webhook_settings_test',
    summary:
      'Send a signed test event (webhook.test, or the named event with a test body) through the delivery engine to the configured URLs, or to one of them.',
    description:
      'Writes a test event (`TEST-<uuid>`, `data.test: true`) aimed at these settings only, so it takes the real path: relay, format, signature, retries, delivery log. `event` picks the URL field as a real event would, ignoring restriction lists; `webhook.test` goes to every configured URL. Refuses settings without a secret (WEBHOOK_SECRET_MISSING) and a `url` or `event` with no receiving URL (VALIDATION_FAILED); rate-limited per credential.',
    tag: TAG,
    roles: ['client_admin'],
    business: true,
    limit: 'webhook_test',
    rest: { method: 'POST', path: '/v1/webhook-settings/test', status: 202 },
    failures: { WEBHOOK_SECRET_MISSING: 'No signing secret is set' },
    graphql: { name: 'webhookSettingsTest', kind: 'mutation' },
    mcp: { scope: 'webhooks:write', risk: 'low', tool: 'test_webhook_delivery', servers: ['developer'] },
    input: z
      .object({
        customer_id: intParam().nullish(),
        url: z
          .string()
          .trim()
          .max(2000)
          .nullish()
          .describe('One of the configured URLs; all that receive the event when left out.'),
        event: z
          .enum(routing.eventsOf('tenant'))
          .default('webhook.test')
          .describe('Chooses the settings field, as a real event of that name would.'),
      })
      .strict(),
    output: z.object({ result: z.literal(true), event_id: z.string(), urls: z.array(z.string()) }),
    async handler(input, ctx) {
      const customer = await checkCustomer(ctx, input.customer_id);
      const settings = await findWebhookSettings(ctx.em, ctx.caller.businessId, customer);
      if (!settings?.sign_secret) throw fail('WEBHOOK_SECRET_MISSING', 'webhook.secret_missing');
      const urls = testTargets(routing, settings, input.event, input.url ?? null);
      if (urls.length === 0) throw errors.field(input.url ? 'url' : 'event', 'field.no_receiving_url');
      const eventId = `TEST-${randomUUID()}`;
      await insertOutboxEvent(ctx.em, {
        businessId: ctx.caller.businessId,
        customerId: customer,
        eventId,
        eventType: input.event,
        referenceType: 'webhook_settings',
        referenceId: String(settings.id),
        payload: {
          event_id: eventId,
          event: input.event,
          business_id: ctx.caller.businessId,
          occurred_at: new Date().toISOString(),
          data: { test: true, message: 'A test event sent from the webhook settings.' },
        },
        targetSettingsId: settings.id,
        targetUrl: input.url ?? null,
      });
      return { result: true as const, event_id: eventId, urls };
    },
  });

export const webhookVerify = defineOperation({
  name: 'verify_webhook_signature',
  summary:
    'Check a received webhook as its receiver should: raw body, content digest, timestamp tolerance, constant-time signature compare; answers which check failed.',
  description:
    "Give the `sender`, the headers and the raw body exactly as received, and the secret: it answers `valid`, or which check failed (`missing_header`, `content_digest`, `timestamp`, `signature`) and on which header. Use it to debug a receiver's own check; `now` checks a captured request later. Needs no token; the secret is used for this check only, never stored or logged.",
  tag: TAG,
  // Public, as the specification's developer tool is: it reads nothing of the service, only what it is given.
  roles: 'public',
  limit: 'public_read',
  rest: { method: 'POST', path: '/v1/webhooks/verify' },
  graphql: { name: 'verifyWebhookSignature', kind: 'query' },
  mcp: { scope: null, risk: 'low', servers: ['developer'] },
  input: z
    .object({
      sender: z.enum(SENDERS),
      headers: z
        .record(z.string().max(100), z.string().max(8192))
        .refine((h) => Object.keys(h).length <= 100, { params: { key: 'field.too_many_items', maximum: 100 } }),
      body: z.string().max(262_144).describe('The raw request body, exactly as received (at most 256 KiB).'),
      secret: z.string().min(1).max(255).describe('Used for this check only; never stored or logged.'),
      now: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe('Unix seconds to check the timestamp against (a captured request); the clock by default.'),
      tolerance_sec: z
        .number()
        .int()
        .min(0)
        .max(31_536_000)
        .optional()
        .describe('Timestamp tolerance; 300 by default.'),
    })
    .strict(),
  output: z.object({
    result: z.literal(true),
    valid: z.boolean(),
    reason: z.enum(['missing_header', 'content_digest', 'timestamp', 'signature']).optional(),
    header: z.string().optional(),
    message: z.string().optional(),
  }),
  async handler(input) {
    const outcome = verifyWebhook({
      sender: input.sender,
      secret: input.secret,
      headers: input.headers,
      rawBody: input.body,
      now: input.now,
      toleranceSec: input.tolerance_sec,
    });
    return outcome.valid
      ? { result: true as const, valid: true }
      : {
          result: true as const,
          valid: false,
          reason: outcome.failed,
          header: outcome.header,
          message: outcome.message,
        };
  },
});
