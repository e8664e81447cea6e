import { z } from 'zod';
import { findWebhookSettings, isCustomerOf, upsertWebhookSettings, type WebhookSettingsRow } from '../repo/settings.ts';
import type { Config } from '../../../platform/config.ts';
import { errors } from '../../../platform/errors.ts';
import { isPrivateUrl } from '../targetPolicy.ts';
import { splitUrls, URL_FIELDS, type EventRouting, type UrlField } from '../routing.ts';
import { intParam } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { WEBHOOK_FORMATS } from '../domain.ts';

const TAG = 'Webhooks';

export const isHttpUrl = (u: string) => {
  try {
    const url = new URL(u);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
  } catch {
    return false;
  }
};
/**
 * Unless private targets are allowed, each URL given must name a public host; the sender checks again on every
 * request, on the address it actually connects to. Answers 422 naming every field with a private URL.
 */
export function refusePrivateUrls(
  ctx: { config: Config },
  urls: Record<string, readonly (string | null | undefined)[]>,
): void {
  if (ctx.config.webhookAllowPrivateTargets) return;
  const fields = Object.entries(urls)
    .filter(([, list]) => list.some((u) => u && isPrivateUrl(u)))
    .map(([field]) => ({ field, key: 'field.private_url' as const }));
  if (fields.length > 0) throw errors.validation(fields);
}

const urlList = z
  .string()
  .trim()
  .max(2000)
  .refine((v) => v === '' || splitUrls(v).every(isHttpUrl), { params: { key: 'field.invalid_url' } })
  .nullable();
const eventList = (known: readonly string[]) =>
  z
    .string()
    .trim()
    .max(2000)
    .superRefine((v, ctx) => {
      for (const event of v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)) {
        if (!known.includes(event)) ctx.addIssue({ code: 'custom', params: { key: 'field.unknown_event', event } });
      }
    })
    .nullable();

const UrlFormatSchema = z
  .object({ format: z.enum(WEBHOOK_FORMATS), standard_webhooks: z.boolean().default(false) })
  .strict();
const urlFields = Object.fromEntries(URL_FIELDS.map((f) => [f, urlList.optional()])) as Record<
  UrlField,
  z.ZodOptional<typeof urlList>
>;
const customerId = intParam().nullish();

const SettingsSchema = z.object({
  customer_id: z.number().int().nullable(),
  webhook_sign_secret: z.string().nullable().describe('Never echoed: the last four characters only.'),
  ...(Object.fromEntries(URL_FIELDS.map((f) => [f, z.string().nullable()])) as Record<
    UrlField,
    z.ZodNullable<z.ZodString>
  >),
  url_formats: z.record(z.string(), UrlFormatSchema),
  device_order_events: z.string().nullable(),
  order_lifecycle_events: z.string().nullable(),
  driver_location_min_interval_sec: z.number().int(),
  updated_at: z.string().nullable(),
});
type SettingsView = z.input<typeof SettingsSchema>;

/** The last four characters, so an operator can tell which secret is set without the secret being readable. */
export const maskSecret = (secret: string | null) => (secret ? `…${secret.slice(-4)}` : null);

function present(customer: number | null, row: WebhookSettingsRow | null): SettingsView {
  return {
    customer_id: customer,
    webhook_sign_secret: maskSecret(row?.sign_secret ?? null),
    ...(Object.fromEntries(URL_FIELDS.map((f) => [f, row?.urls[f] ?? null])) as Record<UrlField, string | null>),
    url_formats: row?.url_formats ?? {},
    device_order_events: row?.device_order_events ?? null,
    order_lifecycle_events: row?.order_lifecycle_events ?? null,
    driver_location_min_interval_sec: row?.driver_location_min_interval_sec ?? 60,
    updated_at: row ? new Date(row.updated_at).toISOString() : null,
  };
}

/**
 * A customer override belongs to one customer account of the caller's business. A customer account itself reaches
 * only its own override, whether it names itself or not.
 */
export async function checkCustomer(ctx: BusinessContext, id: number | null | undefined): Promise<number | null> {
  if (ctx.caller.role === 'customer') {
    if (id != null && id !== ctx.caller.id) throw errors.field('customer_id', 'field.unknown_customer');
    return ctx.caller.id;
  }
  if (id == null) return null;
  if (!(await isCustomerOf(ctx.em, ctx.caller.businessId, id)))
    throw errors.field('customer_id', 'field.unknown_customer');
  return id;
}

const output = z.object({ result: z.literal(true), settings: SettingsSchema });

export const webhookSettingsGet = defineOperation({
  name: 'webhook_settings_get',
  summary: 'Read the webhook settings of the merchant, or of one customer account (override) with customer_id.',
  description:
    "Answers every URL field, the URL formats, the event restrictions and the driver location interval; the signing secret only as its last four characters. Without `customer_id` it reads the merchant-level settings, which receive every event of the business; with one, that customer's override. Settings never saved answer nulls. A `customer_id` that is not a customer of the business answers VALIDATION_FAILED. A customer account reads its own override, and only it.",
  tag: TAG,
  roles: ['client_admin', 'customer'],
  business: true,
  rest: { method: 'GET', path: '/v1/webhook-settings' },
  graphql: { name: 'webhookSettings', kind: 'query' },
  mcp: { scope: 'webhooks:read', risk: 'low', tool: 'get_webhook_settings', servers: ['developer'] },
  input: z.object({ customer_id: customerId }).strict(),
  output,
  async handler(input, ctx) {
    const customer = await checkCustomer(ctx, input.customer_id);
    return {
      result: true as const,
      settings: present(customer, await findWebhookSettings(ctx.em, ctx.caller.businessId, customer)),
    };
  },
});

/** What a customer account may set in its own override: where the interceptions of its own orders are sent. */
const CUSTOMER_FIELDS: ReadonlySet<string> = new Set([
  'customer_id',
  'webhook_sign_secret',
  'order_intercept_webhook_url',
]);

/** Built with the service's events: the restriction fields name events of their families. */
export const webhookSettingsUpdate = (routing: EventRouting) =>
  defineOperation({
    name: 'webhook_settings_update',
    summary: 'Update webhook settings (partial): a field left out keeps its value, null or "" clears it.',
    description:
      'Creates the settings on first use. URLs are http(s), comma-separated, without credentials; nothing is sent until a signing secret (16 to 255 characters) is set, and a new secret signs every later attempt, retries included. Events written before the settings existed are never delivered. Refuses an invalid or private URL (loopback, private network), an unknown event in a restriction list and a `customer_id` not of the business (VALIDATION_FAILED, naming each field). A customer account sets its own override, and in it only `order_intercept_webhook_url` and `webhook_sign_secret` (the interceptions of its own orders); any other field it sends is VALIDATION_FAILED.',
    tag: TAG,
    roles: ['client_admin', 'customer'],
    business: true,
    rest: { method: 'PUT', path: '/v1/webhook-settings' },
    graphql: { name: 'webhookSettingsUpdate', kind: 'mutation' },
    mcp: { scope: 'webhooks:write', risk: 'high', tool: 'update_webhook_settings', servers: ['developer'] },
    input: z
      .object({
        customer_id: customerId,
        webhook_sign_secret: z.string().min(16).max(255).nullable().optional(),
        ...urlFields,
        /** The specification's alternative spelling of tracking_event_webhook_url. */
        track_event_webhook_url: urlList.optional(),
        url_formats: z
          .record(z.string().refine(isHttpUrl, { params: { key: 'field.invalid_url' } }), UrlFormatSchema)
          .nullable()
          .optional(),
        device_order_events: eventList(routing.restrictedBy('device_order_events')).optional(),
        order_lifecycle_events: eventList([
          ...routing.restrictedBy('order_lifecycle_events'),
          'driver.location_update',
        ]).optional(),
        driver_location_min_interval_sec: z.number().int().min(0).max(86_400).optional(),
      })
      .strict(),
    output,
    async handler(input, ctx) {
      const customer = await checkCustomer(ctx, input.customer_id);
      if (ctx.caller.role === 'customer') {
        const others = Object.keys(input).filter(
          (f) => !CUSTOMER_FIELDS.has(f) && input[f as keyof typeof input] !== undefined,
        );
        if (others.length > 0)
          throw errors.validation(others.map((field) => ({ field, key: 'webhook.customer_field' as const })));
      }
      const given: Partial<Record<UrlField, string | null>> = {
        tracking_event_webhook_url: input.track_event_webhook_url,
        ...input,
      };
      const urls: Partial<Record<UrlField, string | null>> = {};
      for (const f of URL_FIELDS) if (given[f] !== undefined) urls[f] = given[f] ? splitUrls(given[f]).join(',') : null;
      refusePrivateUrls(ctx, {
        ...Object.fromEntries(Object.entries(urls).map(([f, v]) => [f, v ? v.split(',') : []])),
        url_formats: Object.keys(input.url_formats ?? {}),
      });
      const row = await upsertWebhookSettings(ctx.em, ctx.caller.businessId, customer, {
        signSecret: input.webhook_sign_secret,
        urls,
        urlFormats: input.url_formats,
        deviceOrderEvents: input.device_order_events,
        orderLifecycleEvents: input.order_lifecycle_events,
        driverLocationMinIntervalSec: input.driver_location_min_interval_sec,
      });
      ctx.log.info(
        {
          businessId: ctx.caller.businessId,
          customerId: customer,
          secretChanged: input.webhook_sign_secret !== undefined,
        },
        'webhook settings updated',
      );
      return { result: true as const, settings: present(customer, row) };
    },
  });
