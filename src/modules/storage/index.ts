/**
 * Storage (docs/customer-services.md, "Storage orders" and "The storage fee run"): customers' storage orders paid
 * from the wallet, with the process `storage-order-<id>` that expires an unpaid one; and the storage fee run, which
 * charges every stored package per period started and collects what is owed. It reaches the catalog, the wallet
 * and the warehouse only through customer-services, wallet and wms index.ts.
 */
import { defineModule } from '../../platform/module.ts';
import { createStorageActivities } from './activities.ts';
import {
  STORAGE_FEE_RUN_SCHEDULE,
  STORAGE_FEE_RUN_WORKFLOW,
  STORAGE_ORDER_WORKFLOW,
  STORAGE_QUEUE,
} from './contract.ts';
import { STORAGE_ERRORS } from './errorCodes.ts';
import { STORAGE_MESSAGES } from './messages.ts';
import { STORAGE_ORDER_OPERATIONS } from './operations/orders.ts';
import { listStoredPackages } from './operations/packages.ts';
import { storageFeesRun, storageFeesRunGet } from './operations/feeRun.ts';

import { owedOf } from './fees.ts';

export { owedOf, chargeCustomer } from './fees.ts';

export const storage = defineModule({
  name: 'storage',
  tags: {
    Storage:
      'Storage for customer accounts: order storage of packages at a warehouse of the business (a handling fee per package, paid from the wallet), follow their receipt, and read the packages in storage with their storage fees, charged per package and period started.',
  },
  operations: [...STORAGE_ORDER_OPERATIONS, listStoredPackages, storageFeesRun, storageFeesRunGet],
  messages: STORAGE_MESSAGES,
  errorCodes: STORAGE_ERRORS,
  hooks: { walletOwed: owedOf },
  taskQueue: STORAGE_QUEUE,
  activities: createStorageActivities,
  workflows: [STORAGE_ORDER_WORKFLOW, STORAGE_FEE_RUN_WORKFLOW],
  schedules: (config) => [
    {
      id: STORAGE_FEE_RUN_SCHEDULE,
      workflowType: STORAGE_FEE_RUN_WORKFLOW,
      args: [{}],
      spec: { intervals: [{ every: config.storageFeeRunSeconds * 1000 }] },
      purpose:
        'Charges every stored package its storage periods started (one fee row per package and period) and collects from the wallets what is owed.',
    },
  ],
});
