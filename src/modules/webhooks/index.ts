/**
 * Webhooks: the outbox relay and first attempts, retry workflows, tenant settings, provider endpoints and OHP
 * subscriptions, the delivery log with replay and resend, the verifier, and the AsyncAPI document.
 */
import type { EventDefinition } from '../../platform/events.ts';
import { defineModule, type WorkerDeps } from '../../platform/module.ts';
import { WEBHOOK_EVENTS } from './events.ts';
import { EventRouting } from './routing.ts';
import { createWebhookActivities } from './activities.ts';
import {
  WEBHOOK_DELIVERY_IDS,
  WEBHOOK_LOG_PRUNE_SCHEDULE,
  WEBHOOK_LOG_PRUNE_WORKFLOW,
  WEBHOOK_RETRIES_WORKFLOW,
  WEBHOOK_QUEUE,
} from './contract.ts';
import { WEBHOOKS_MESSAGES } from './messages.ts';
import { WEBHOOKS_ERRORS } from './errorCodes.ts';
import {
  webhookDeliveryGet,
  webhookDeliveryList,
  webhookDeliveryReplay,
  webhookDeliveryResend,
} from './operations/deliveries.ts';
import { ohpSubscriptionCreate, ohpSubscriptionList, ohpSubscriptionRevoke } from './operations/ohp.ts';
import {
  providerWebhookSettingsGet,
  providerWebhookSettingsRotate,
  providerWebhookSettingsUpdate,
  providerWebhookTest,
} from './operations/providers.ts';
import { webhookSettingsGet, webhookSettingsUpdate } from './operations/settings.ts';
import { webhookSettingsTest, webhookVerify } from './operations/tools.ts';
import { OutboxRelay } from './relay.ts';
import { OriginSlots } from './originSlots.ts';
import { RETRIES_PER_ORIGIN } from './deliver.ts';
import { ENDPOINT_SECRETS } from './repo/endpoints.ts';
import { SIGN_SECRET } from './repo/settings.ts';
import { ASYNCAPI_PATH, buildAsyncApiDocument } from './asyncapi.ts';

export { ASYNCAPI_PATH, buildAsyncApiDocument } from './asyncapi.ts';
export { EventRouting } from './routing.ts';
/** The outbound address guard, for the other modules that call a URL (the Operations AI Agent's model). */
export { guardedLookup, isPrivateUrl } from './targetPolicy.ts';

/** One set of retry slots per worker: its activities use them, its shutdown gives them back. */
const originSlots = new WeakMap<WorkerDeps, OriginSlots>();
function originSlotsOf(deps: WorkerDeps): OriginSlots {
  const slots = originSlots.get(deps) ?? new OriginSlots(deps.orm, RETRIES_PER_ORIGIN, deps.log);
  originSlots.set(deps, slots);
  return slots;
}

/**
 * The webhooks module is built with the events of every other module (their descriptors' `events`, gathered in
 * src/modules/index.ts) and adds its own: it routes, documents and checks test sends from that one list, and
 * imports no other module's events.
 */
export function webhooks(published: readonly EventDefinition[]) {
  const routing = new EventRouting([...published, ...WEBHOOK_EVENTS]);
  return defineModule({
    name: 'webhooks',
    tags: {
      Webhooks:
        "Where the business's events are pushed (webhook settings, per merchant or per customer), every delivery with its attempts, replays and resends, test sends, and a verifier that checks a received webhook as its receiver should. The events are described in the webhook catalog, /api/asyncapi-webhooks.json.",
      'Provider webhooks':
        "For locker and delivery providers: the endpoint your events are pushed to, its signing secret and the secret's rotation, and test sends.",
      OHP: 'OHP push subscriptions: subscribe a URL, which must first echo a challenge, to OHP events; pulling stays the source of truth.',
    },
    taskQueue: WEBHOOK_QUEUE,
    events: WEBHOOK_EVENTS,
    operations: [
      webhookSettingsGet,
      webhookSettingsUpdate(routing),
      webhookDeliveryList,
      webhookDeliveryGet,
      webhookDeliveryReplay,
      webhookDeliveryResend,
      webhookSettingsTest(routing),
      webhookVerify,
      providerWebhookSettingsGet,
      providerWebhookSettingsUpdate(routing),
      providerWebhookSettingsRotate,
      providerWebhookTest(routing),
      ohpSubscriptionCreate(routing),
      ohpSubscriptionList,
      ohpSubscriptionRevoke,
    ],
    activities: (deps) =>
      createWebhookActivities({
        orm: deps.orm,
        slots: originSlotsOf(deps),
        publicBaseUrl: deps.config.publicBaseUrl,
        allowPrivateTargets: deps.config.webhookAllowPrivateTargets,
        leaseMarginSec: deps.config.webhookLeaseMarginSec,
      }),
    workflows: [WEBHOOK_RETRIES_WORKFLOW, WEBHOOK_LOG_PRUNE_WORKFLOW],
    messages: WEBHOOKS_MESSAGES,
    errorCodes: WEBHOOKS_ERRORS,
    searchAttributes: [WEBHOOK_DELIVERY_IDS],
    schedules: (config) => [
      {
        id: WEBHOOK_LOG_PRUNE_SCHEDULE,
        workflowType: WEBHOOK_LOG_PRUNE_WORKFLOW,
        args: [config.webhookLogRetentionDays],
        spec: { calendars: [{ hour: 3, minute: 30 }] },
        purpose: 'Deletes webhook deliveries, attempts and published outbox events older than the retention.',
      },
    ],
    documents: [
      {
        path: ASYNCAPI_PATH.slice('/api'.length),
        build: (base, contactEmail) => buildAsyncApiDocument(routing, base, contactEmail),
      },
    ],
    services: (deps) => [
      new OutboxRelay({ ...deps, routing }),
      // Stopped before the worker: slots not in use go back at once, and none is given back once the database is closed.
      { start: async () => undefined, stop: () => originSlotsOf(deps).close() },
    ],
    sealedColumns: [SIGN_SECRET, ...ENDPOINT_SECRETS],
  });
}
