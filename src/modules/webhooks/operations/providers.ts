import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { insertOutboxEvent } from '../../../platform/db/outbox.ts';
import {
  findProviderEndpoint,
  insertProviderEndpoint,
  rotateEndpointSecret,
  updateEndpoint,
  type EndpointKind,
  type EndpointRow,
} from '../repo/endpoints.ts';
import { errors } from '../../../platform/errors.ts';
import { fail } from '../errorCodes.ts';
import { PROVIDERS } from '../../../platform/roles.ts';
import type { EventRouting } from '../routing.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { isHttpUrl, maskSecret, refusePrivateUrls } from './settings.ts';
import { WEBHOOK_FORMATS } from '../domain.ts';

const TAG = 'Provider webhooks';
/** After a rotation the previous key keeps signing beside the new one for this long. */
export const ROTATION_GRACE_HOURS = 24;

const KIND_OF_ROLE: Record<string, EndpointKind> = {
  locker_provider: 'partner_locker',
  delivery_provider: 'third_party',
};

/** A generated secret: 32 random bytes, shown once. */
export const newSecret = () => `whk_${randomBytes(32).toString('base64url')}`;
export const newKeyId = () => `key_${randomBytes(6).toString('hex')}`;

const httpUrl = z
  .string()
  .trim()
  .max(2000)
  .refine(isHttpUrl, { params: { key: 'field.invalid_url' } });
const secret = z.string().min(16).max(255);

const Settings = z.object({
  sender: z.enum(['partner_locker', 'third_party']),
  url: z.string(),
  sandbox_url: z.string().nullable(),
  sandbox_enabled: z.boolean(),
  events: z.array(z.string()).describe('Empty: every event of the sender.'),
  format: z.enum(WEBHOOK_FORMATS),
  standard_webhooks: z.boolean(),
  secret: z.string().describe('Never echoed: the last four characters only.'),
  key_id: z.string(),
  previous_key_id: z.string().nullable().describe('Still signing beside the current key until previous_valid_until.'),
  previous_valid_until: z.string().nullable(),
  updated_at: z.string(),
});

function present(e: EndpointRow): z.input<typeof Settings> {
  const graceLive = e.previous_valid_until !== null && new Date(e.previous_valid_until) > new Date();
  return {
    sender: e.kind as 'partner_locker' | 'third_party',
    url: e.url,
    sandbox_url: e.sandbox_url,
    sandbox_enabled: e.sandbox_enabled,
    events: e.events,
    format: e.format,
    standard_webhooks: e.standard_webhooks,
    secret: maskSecret(e.secret)!,
    key_id: e.key_id,
    previous_key_id: graceLive ? e.previous_key_id : null,
    previous_valid_until: graceLive ? new Date(e.previous_valid_until!).toISOString() : null,
    updated_at: new Date(e.updated_at).toISOString(),
  };
}

const kindOf = (ctx: BusinessContext): EndpointKind => KIND_OF_ROLE[ctx.caller.role]!;
const generated = z.string().optional().describe('Present once, when the service generated the secret: store it now.');

async function endpointOr409(ctx: BusinessContext): Promise<EndpointRow> {
  const endpoint = await findProviderEndpoint(ctx.em, ctx.caller.businessId, kindOf(ctx));
  if (!endpoint) throw fail('PROVIDER_WEBHOOK_NOT_CONFIGURED', 'webhook.provider_not_configured');
  return endpoint;
}

export const providerWebhookSettingsGet = defineOperation({
  name: 'provider_webhook_settings_get',
  summary: "Read the provider account's webhook endpoint (null until configured).",
  description: `The role decides which endpoint: a locker provider's receives partner locker events, a delivery provider's the third-party assignment (and distribution) events. Answers the URLs, the sandbox switch, the selected events (empty: all), the format, the secret as its last four characters, the current key id and, for ${ROTATION_GRACE_HOURS} hours after a rotation, the previous one. Configure it with \`provider_webhook_settings_update\`.`,
  tag: TAG,
  roles: PROVIDERS,
  business: true,
  rest: { method: 'GET', path: '/v1/provider/webhook-settings' },
  graphql: { name: 'providerWebhookSettings', kind: 'query' },
  mcp: { scope: 'webhooks:read', risk: 'low', servers: ['developer'] },
  input: z.object({}).strict(),
  output: z.object({ result: z.literal(true), settings: Settings.nullable() }),
  async handler(_input, ctx) {
    const endpoint = await findProviderEndpoint(ctx.em, ctx.caller.businessId, kindOf(ctx));
    return { result: true as const, settings: endpoint && present(endpoint) };
  },
});

/** Built with the service's events: an endpoint selects among its sender's. */
export const providerWebhookSettingsUpdate = (routing: EventRouting) =>
  defineOperation({
    name: 'provider_webhook_settings_update',
    summary:
      'Create or update (partially) the provider endpoint: URL, sandbox URL and switch, event selection, format, secret (generated and shown once when not given).',
    description:
      'The first call creates the endpoint and needs `url`; a secret left out is then generated and answered once in `generated_secret`. Later calls change only the fields given; a new `secret` replaces the old one at once, where `provider_webhook_secret_rotate` keeps the old one signing for a while. Refuses a missing `url` on creation, an event the sender does not send and a private URL (VALIDATION_FAILED).',
    tag: TAG,
    roles: PROVIDERS,
    business: true,
    rest: { method: 'PUT', path: '/v1/provider/webhook-settings' },
    graphql: { name: 'providerWebhookSettingsUpdate', kind: 'mutation' },
    mcp: { scope: 'webhooks:write', risk: 'high', servers: ['developer'] },
    input: z
      .object({
        url: httpUrl.optional(),
        sandbox_url: httpUrl.nullable().optional(),
        sandbox_enabled: z.boolean().optional(),
        events: z.array(z.string().max(64)).max(50).optional(),
        format: z.enum(WEBHOOK_FORMATS).optional(),
        standard_webhooks: z.boolean().optional(),
        secret: secret
          .optional()
          .describe('Replaces the secret at once; use rotate-secret to keep the old one signing for 24 hours.'),
      })
      .strict(),
    output: z.object({ result: z.literal(true), settings: Settings, generated_secret: generated }),
    async handler(input, ctx) {
      const kind = kindOf(ctx);
      const unknown = (input.events ?? []).filter((e) => !routing.eventsOf(kind).includes(e));
      if (unknown.length) throw errors.field('events', 'field.unknown_event', { event: unknown.join(', ') });
      const existing = await findProviderEndpoint(ctx.em, ctx.caller.businessId, kind);
      if (!existing && !input.url) throw errors.field('url', 'field.required');
      refusePrivateUrls(ctx, { url: [input.url], sandbox_url: [input.sandbox_url] });
      const generatedSecret = !existing && !input.secret ? newSecret() : undefined;
      const patch = {
        url: input.url,
        sandboxUrl: input.sandbox_url,
        sandboxEnabled: input.sandbox_enabled,
        events: input.events,
        format: input.format,
        standardWebhooks: input.standard_webhooks,
        secret: input.secret ?? generatedSecret,
        keyId: input.secret || generatedSecret ? newKeyId() : undefined,
      };
      const row = existing
        ? await updateEndpoint(ctx.em, existing.id, patch)
        : await insertProviderEndpoint(ctx.em, ctx.caller.businessId, kind, {
            ...patch,
            url: input.url!,
            secret: patch.secret!,
            keyId: patch.keyId!,
          });
      ctx.log.info(
        { businessId: ctx.caller.businessId, kind, secretChanged: Boolean(input.secret || generatedSecret) },
        'provider webhook settings updated',
      );
      return {
        result: true as const,
        settings: present(row),
        ...(generatedSecret && { generated_secret: generatedSecret }),
      };
    },
  });

export const providerWebhookSettingsRotate = defineOperation({
  name: 'provider_webhook_secret_rotate',
  summary: `Make a new secret current; the previous one keeps signing beside it for ${ROTATION_GRACE_HOURS} hours.`,
  description:
    "Use it to change the secret without losing deliveries: during the grace period every delivery carries one signature per live key, current first, so the receiver can switch when ready. A secret left out is generated and answered once in `generated_secret`; rotating again ends the older key's grace at once. Refuses an account without an endpoint (PROVIDER_WEBHOOK_NOT_CONFIGURED).",
  tag: TAG,
  roles: PROVIDERS,
  business: true,
  rest: { method: 'POST', path: '/v1/provider/webhook-settings/rotate-secret' },
  failures: { PROVIDER_WEBHOOK_NOT_CONFIGURED: 'No webhook endpoint is set up yet' },
  graphql: { name: 'providerWebhookSecretRotate', kind: 'mutation' },
  mcp: { scope: 'webhooks:write', risk: 'high', servers: ['developer'] },
  input: z.object({ secret: secret.optional() }).strict(),
  output: z.object({ result: z.literal(true), settings: Settings, generated_secret: generated }),
  async handler(input, ctx) {
    const endpoint = await endpointOr409(ctx);
    const generatedSecret = input.secret ? undefined : newSecret();
    const row = await rotateEndpointSecret(
      ctx.em,
      endpoint.id,
      input.secret ?? generatedSecret!,
      newKeyId(),
      ROTATION_GRACE_HOURS,
    );
    ctx.log.info(
      { businessId: ctx.caller.businessId, keyId: row.key_id, previousKeyId: row.previous_key_id },
      'provider webhook secret rotated',
    );
    return {
      result: true as const,
      settings: present(row),
      ...(generatedSecret && { generated_secret: generatedSecret }),
    };
  },
});

/** A test body per sender: a partner locker sandbox event, or a third-party mock event. */
function testPayload(kind: EndpointKind, event: string, eventId: string): Record<string, unknown> {
  const occurredAt = new Date().toISOString();
  if (kind === 'partner_locker') {
    return {
      event_id: eventId,
      event,
      livemode: false,
      occurred_at: occurredAt,
      data: { delivery_id: `MOCK-${eventId.slice(-8)}`, test: true },
    };
  }
  return {
    event_id: eventId,
    event,
    occurred_at: occurredAt,
    data: {
      assignment_number: `TEST-${eventId.slice(-8)}`,
      order: { id: 0, order_ref: 'TEST', tracking_number: null },
      packages: [],
      test: true,
    },
  };
}

/** Built with the service's events: the test event is one the endpoint's sender sends. */
export const providerWebhookTest = (routing: EventRouting) =>
  defineOperation({
    name: 'provider_webhook_test',
    summary:
      'Send a test event through the delivery engine: partner lockers get a sandbox event (livemode false, PLE-MOCK-, X-Webhook-Test: 1) at the sandbox URL when set; third-party providers a mock event (X-Webhook-Test: 1, data.test).',
    description:
      "The event is written into the outbox, so it takes the real path (signature, retries, delivery log); it is one of the endpoint's selected events, the first by default. Answers 202 with the event id and the URL it goes to. Refuses an account without an endpoint (PROVIDER_WEBHOOK_NOT_CONFIGURED), a partner locker endpoint with its sandbox off (SANDBOX_DISABLED) and an event the endpoint does not receive (VALIDATION_FAILED); counts against the webhook test rate limit.",
    tag: TAG,
    roles: PROVIDERS,
    business: true,
    limit: 'webhook_test',
    rest: { method: 'POST', path: '/v1/provider/webhook-settings/test', status: 202 },
    failures: {
      PROVIDER_WEBHOOK_NOT_CONFIGURED: 'No webhook endpoint is set up yet',
      SANDBOX_DISABLED: 'A partner locker endpoint without its sandbox',
    },
    graphql: { name: 'providerWebhookTest', kind: 'mutation' },
    mcp: { scope: 'webhooks:write', risk: 'low', servers: ['developer'] },
    input: z
      .object({
        event: z
          .string()
          .max(64)
          .optional()
          .describe('One of the selected events; the first selected (or the first of the sender) by default.'),
      })
      .strict(),
    output: z.object({ result: z.literal(true), event_id: z.string(), url: z.string() }),
    async handler(input, ctx) {
      const endpoint = await endpointOr409(ctx);
      const kind = endpoint.kind;
      const selectable = endpoint.events.length ? endpoint.events : routing.eventsOf(kind);
      const event = input.event ?? selectable[0]!;
      if (!selectable.includes(event)) throw errors.field('event', 'field.no_receiving_url');
      if (kind === 'partner_locker' && !endpoint.sandbox_enabled)
        throw fail('SANDBOX_DISABLED', 'webhook.sandbox_disabled');
      const eventId = `${kind === 'partner_locker' ? 'PLE-MOCK-' : 'TPE-TEST-'}${randomUUID()}`;
      await insertOutboxEvent(ctx.em, {
        businessId: ctx.caller.businessId,
        eventId,
        eventType: event,
        referenceType: 'provider_webhook',
        referenceId: String(endpoint.id),
        payload: testPayload(kind, event, eventId),
        providerId: ctx.caller.businessId,
      });
      return {
        result: true as const,
        event_id: eventId,
        url: kind === 'partner_locker' ? (endpoint.sandbox_url ?? endpoint.url) : endpoint.url,
      };
    },
  });
