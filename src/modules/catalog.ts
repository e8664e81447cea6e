import { assignmentAssign, assignmentList, assignmentRelease, assignmentRevoke } from './assignments/operations.ts';
import { login, logout, me } from './identity/operations.ts';
import { deviceOrderCollect, deviceOrderGet, deviceOrderList, deviceOrderRemove, deviceOrderStore } from './device-orders/operations.ts';
import { orderCreate, orderGet, orderList, planningPool } from './orders/operations.ts';
import { driverLocationReport } from './driver-location/operations.ts';
import { ohpSubscriptionCreate, ohpSubscriptionList, ohpSubscriptionRevoke } from './webhooks/operations/ohp.ts';
import { providerWebhookSettingsGet, providerWebhookSettingsRotate, providerWebhookSettingsUpdate, providerWebhookTest } from './webhooks/operations/providers.ts';
import { otepTrackingBatch, otepTrackingEvents, otepTrackingGet, otepValidate, otepVocabulary, publicTracking } from './tracking/operations/read.ts';
import { otepCredentialCreate, otepCredentialList, otepCredentialRevoke, otepIngest, otepIngestEpcis } from './tracking/operations/ingest.ts';
import type { Operation } from '../platform/catalog/types.ts';
import { webhookDeliveryGet, webhookDeliveryList, webhookDeliveryReplay, webhookDeliveryResend } from './webhooks/operations/deliveries.ts';
import { webhookSettingsGet, webhookSettingsUpdate } from './webhooks/operations/settings.ts';
import { webhookSettingsTest, webhookVerify } from './webhooks/operations/tools.ts';

/** Every business operation, defined once; REST, GraphQL and OpenAPI are derived from this list. */
export const CATALOG: readonly Operation[] = [
  login, logout, me,
  orderCreate, orderList, orderGet, planningPool,
  assignmentList, assignmentAssign, assignmentRevoke, assignmentRelease,
  deviceOrderStore, deviceOrderCollect, deviceOrderRemove, deviceOrderGet, deviceOrderList,
  webhookSettingsGet, webhookSettingsUpdate,
  webhookDeliveryList, webhookDeliveryGet, webhookDeliveryReplay, webhookDeliveryResend,
  webhookSettingsTest, webhookVerify,
  driverLocationReport,
  providerWebhookSettingsGet, providerWebhookSettingsUpdate, providerWebhookSettingsRotate, providerWebhookTest,
  ohpSubscriptionCreate, ohpSubscriptionList, ohpSubscriptionRevoke,
  otepVocabulary, otepTrackingGet, otepTrackingEvents, otepTrackingBatch, publicTracking, otepValidate,
  otepIngest, otepIngestEpcis, otepCredentialCreate, otepCredentialList, otepCredentialRevoke,
] as unknown as readonly Operation[];
