import { assignmentAssign, assignmentList, assignmentRelease, assignmentRevoke } from './assignments.ts';
import { login, logout, me } from './auth.ts';
import { deviceOrderCollect, deviceOrderGet, deviceOrderList, deviceOrderRemove, deviceOrderStore } from './deviceOrders.ts';
import { orderCreate, orderGet, orderList, planningPool } from './orders.ts';
import { driverLocationReport } from './driverLocation.ts';
import { ohpSubscriptionCreate, ohpSubscriptionList, ohpSubscriptionRevoke } from './ohpSubscriptions.ts';
import { providerWebhookSettingsGet, providerWebhookSettingsRotate, providerWebhookSettingsUpdate, providerWebhookTest } from './providerWebhooks.ts';
import { otepTrackingBatch, otepTrackingEvents, otepTrackingGet, otepValidate, otepVocabulary, publicTracking } from './otep.ts';
import { otepCredentialCreate, otepCredentialList, otepCredentialRevoke, otepIngest, otepIngestEpcis } from './otepIngest.ts';
import type { Operation } from './types.ts';
import { webhookDeliveryGet, webhookDeliveryList, webhookDeliveryReplay, webhookDeliveryResend } from './webhookDeliveries.ts';
import { webhookSettingsGet, webhookSettingsUpdate } from './webhookSettings.ts';
import { webhookSettingsTest, webhookVerify } from './webhookTools.ts';

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
