/**
 * The modules of the service, in the order their operations appear in the catalog. Everything the platform
 * assembles (catalog, worker activities, search attributes, schedules, worker services, messages, credentials,
 * hooks, webhook events, ORM entities) is built from this list: a new family is one folder plus one line here
 * (and one line in workflows/index.ts when it has workflows). No module imports this file.
 */
import type { Operation } from '../platform/catalog/types.ts';
import { registerMessages } from '../platform/i18n/messages.ts';
import { registerErrorCodes } from '../platform/errorCodes.ts';
import { registerSealedColumns } from '../platform/secretBox.ts';
import { registerHooks } from '../platform/hooks.ts';
import type { CredentialKind, ModuleDescriptor } from '../platform/module.ts';
import { BUSINESS_ID, ORDER_ID } from '../platform/temporal/searchKeys.ts';
import { abuseLimits } from './abuse-limits/index.ts';
import { aiAgent } from './ai-agent/index.ts';
import { approvals } from './approvals/index.ts';
import { apps } from './apps/index.ts';
import { assignments } from './assignments/index.ts';
import { deliveryPrices } from './delivery-prices/index.ts';
import { deviceOrders } from './device-orders/index.ts';
import { dispatch } from './dispatch/index.ts';
import { distribution } from './distribution/index.ts';
import { driverLocation } from './driver-location/index.ts';
import { podFiles } from './pod-files/index.ts';
import { drivers } from './drivers/index.ts';
import { identity } from './identity/index.ts';
import { labels } from './labels/index.ts';
import { uniorder } from './uniorder/index.ts';
import { wms } from './wms/index.ts';
import { customerServices } from './customer-services/index.ts';
import { shippingOrders } from './shipping-orders/index.ts';
import { wallet } from './wallet/index.ts';
import { shipouts } from './shipouts/index.ts';
import { storage } from './storage/index.ts';
import { lockerDeliveries } from './locker-deliveries/index.ts';
import { lockers } from './lockers/index.ts';
import { notifications } from './notifications/index.ts';
import { orders } from './orders/index.ts';
import { orderBatches } from './order-batches/index.ts';
import { orderCancellation } from './order-cancellation/index.ts';
import { orderChat } from './order-chat/index.ts';
import { orderInterception } from './order-interception/index.ts';
import { platformAdmin } from './platform-admin/index.ts';
import { routes } from './routes/index.ts';
import { routeBoard } from './route-board/index.ts';
import { secrets } from './secrets/index.ts';
import { sms } from './sms/index.ts';
import { smsMarketing } from './sms-marketing/index.ts';
import { thirdPartyDeliveries } from './third-party-deliveries/index.ts';
import { tracking } from './tracking/index.ts';
import { webhooks } from './webhooks/index.ts';

/** The families: every module that is not built from the others. */
const FAMILIES: readonly ModuleDescriptor[] = [
  identity,
  orders,
  orderBatches,
  deliveryPrices,
  assignments,
  lockers,
  deviceOrders,
  lockerDeliveries,
  distribution,
  thirdPartyDeliveries,
  notifications,
  driverLocation,
  podFiles,
  drivers,
  tracking,
  secrets,
  abuseLimits,
  sms,
  apps,
  platformAdmin,
  orderChat,
  smsMarketing,
  orderInterception,
  orderCancellation,
  routes,
  dispatch,
  routeBoard,
  labels,
  uniorder,
  wms,
  customerServices,
  shippingOrders,
  wallet,
  shipouts,
  storage,
];

export const MODULES: readonly ModuleDescriptor[] = [
  ...FAMILIES,
  // Routes, documents and test-sends the webhook events the families publish.
  webhooks(FAMILIES.flatMap((m) => m.events ?? [])),
  // Runs the catalog's operations on approval: it reads the catalog when called, once the list below exists.
  approvals(() => CATALOG),
  // Offers the catalog's MCP user tools to its model, and proposes writes through the approval queue.
  aiAgent(() => CATALOG),
];

for (const m of MODULES) if (m.messages) registerMessages(m.messages);
for (const m of MODULES) if (m.errorCodes) registerErrorCodes(m.errorCodes);
registerSealedColumns(MODULES.flatMap((m) => m.sealedColumns ?? []));
registerHooks(MODULES.flatMap((m) => m.hooks ?? []));

/** Every business operation, defined once; REST, GraphQL and OpenAPI are derived from this list. */
export const CATALOG: readonly Operation[] = MODULES.flatMap((m) => m.operations ?? []);

/** Every tag a module declares, with its description; the OpenAPI document declares those its operations use. */
export const TAGS: Readonly<Record<string, string>> = Object.fromEntries(
  MODULES.flatMap((m) => Object.entries(m.tags ?? {})),
);
const declaredTwice = MODULES.flatMap((m) => Object.keys(m.tags ?? {})).filter((t, i, all) => all.indexOf(t) !== i);
if (declaredTwice.length) throw new Error(`Tags declared by two modules: ${declaredTwice.join(', ')}`);

export const ENTITIES = MODULES.flatMap((m) => m.entities ?? []);

/** Every task queue a module's contract names; a worker process serves all of them or those WORKER_QUEUES names. */
export const TASK_QUEUES: readonly string[] = [...new Set(MODULES.flatMap((m) => (m.taskQueue ? [m.taskQueue] : [])))];

/** Every webhook event, as the webhooks module routes them. */
export const EVENTS = MODULES.flatMap((m) => m.events ?? []);

export const SEARCH_ATTRIBUTES = [BUSINESS_ID, ORDER_ID, ...MODULES.flatMap((m) => m.searchAttributes ?? [])];

/** Longest prefix first, so the session token (no prefix) is the last resort. */
export const CREDENTIALS: readonly CredentialKind[] = MODULES.flatMap((m) => m.credentials ?? []).sort(
  (a, b) => b.prefix.length - a.prefix.length,
);
