/**
 * Webhooks: the outbox relay and first attempts, retry workflows, tenant settings, provider endpoints and OHP
 * subscriptions, the delivery log with replay and resend, the verifier, and the AsyncAPI document.
 */
import { defineModule } from '../../platform/module.ts';
import { createWebhookActivities } from './activities.ts';
import { WEBHOOK_DELIVERY_IDS, WEBHOOK_LOG_PRUNE_SCHEDULE, WEBHOOK_LOG_PRUNE_WORKFLOW, WEBHOOK_RETRIES_WORKFLOW } from './contract.ts';
import { WEBHOOKS_MESSAGES } from './messages.ts';
import { webhookDeliveryGet, webhookDeliveryList, webhookDeliveryReplay, webhookDeliveryResend } from './operations/deliveries.ts';
import { ohpSubscriptionCreate, ohpSubscriptionList, ohpSubscriptionRevoke } from './operations/ohp.ts';
import { providerWebhookSettingsGet, providerWebhookSettingsRotate, providerWebhookSettingsUpdate, providerWebhookTest } from './operations/providers.ts';
import { webhookSettingsGet, webhookSettingsUpdate } from './operations/settings.ts';
import { webhookSettingsTest, webhookVerify } from './operations/tools.ts';
import { OutboxRelay } from './relay.ts';
import { ENDPOINT_SECRETS } from './repo/endpoints.ts';
import { SIGN_SECRET } from './repo/settings.ts';
import { ASYNCAPI_PATH, buildAsyncApiDocument } from './asyncapi.ts';

export { ASYNCAPI_PATH, buildAsyncApiDocument } from './asyncapi.ts';

export const webhooks = defineModule({
  name: 'webhooks',
  operations: [
    webhookSettingsGet, webhookSettingsUpdate,
    webhookDeliveryList, webhookDeliveryGet, webhookDeliveryReplay, webhookDeliveryResend,
    webhookSettingsTest, webhookVerify,
    providerWebhookSettingsGet, providerWebhookSettingsUpdate, providerWebhookSettingsRotate, providerWebhookTest,
    ohpSubscriptionCreate, ohpSubscriptionList, ohpSubscriptionRevoke,
  ],
  activities: ({ orm, config }) => createWebhookActivities({ orm, publicBaseUrl: config.publicBaseUrl, allowPrivateTargets: config.webhookAllowPrivateTargets }),
  workflows: [WEBHOOK_RETRIES_WORKFLOW, WEBHOOK_LOG_PRUNE_WORKFLOW],
  messages: WEBHOOKS_MESSAGES,
  searchAttributes: [WEBHOOK_DELIVERY_IDS],
  schedules: (config) => [{
    id: WEBHOOK_LOG_PRUNE_SCHEDULE,
    workflowType: WEBHOOK_LOG_PRUNE_WORKFLOW,
    args: [config.webhookLogRetentionDays],
    spec: { calendars: [{ hour: 3, minute: 30 }] },
    purpose: 'Deletes webhook deliveries, attempts and published outbox events older than the retention.',
  }],
  documents: [{ path: ASYNCAPI_PATH.slice('/api'.length), build: buildAsyncApiDocument }],
  services: ({ orm, temporal, config, databaseUrl, log }) => [new OutboxRelay({ orm, temporal, config, databaseUrl, log })],
  sealedColumns: [SIGN_SECRET, ...ENDPOINT_SECRETS],
});
