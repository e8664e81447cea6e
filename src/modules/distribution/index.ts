/**
 * Distribution: the places a business receives, stores and hands out parcels at, the carriers that deliver
 * through its network under a supplier account, and each package's distribution process `distribution-<package
 * number>`, moved by scans (docs/distribution.md).
 */
import { defineModule } from '../../platform/module.ts';
import { createDistributionActivities } from './activities.ts';
import { DISTRIBUTION_SEARCH_ATTRIBUTES, DISTRIBUTION_WORKFLOW } from './contract.ts';
import { DISTRIBUTION_MESSAGES } from './messages.ts';
import {
  placeCreate,
  placeGet,
  placeList,
  supplierAccountCreate,
  supplierAccountEnd,
  supplierAccountList,
} from './operations.ts';
import { SHELF_PICKUP_CODE } from './repo/distributions.ts';
import { callerForScannerKey, SCANNER_KEY_PREFIX } from './repo/scannerKeys.ts';
import { scannerKeyCreate, scannerKeyList, scannerKeyRevoke } from './scannerKeyOperations.ts';
import {
  distributionPackageGet,
  distributionScan,
  flaggedScanList,
  warehouseDistributionList,
} from './scanOperations.ts';

export { moveByTrackedEvents, removeCancelledPackages, type TrackedMove } from './trackedMoves.ts';

export const distribution = defineModule({
  name: 'distribution',
  operations: [
    placeCreate,
    placeList,
    placeGet,
    supplierAccountCreate,
    supplierAccountList,
    supplierAccountEnd,
    distributionScan,
    distributionPackageGet,
    warehouseDistributionList,
    flaggedScanList,
    scannerKeyCreate,
    scannerKeyList,
    scannerKeyRevoke,
  ],
  credentials: [{ prefix: SCANNER_KEY_PREFIX, resolve: callerForScannerKey }],
  activities: ({ orm, config }) => createDistributionActivities({ orm, config }),
  workflows: [DISTRIBUTION_WORKFLOW],
  messages: DISTRIBUTION_MESSAGES,
  searchAttributes: DISTRIBUTION_SEARCH_ATTRIBUTES,
  sealedColumns: [SHELF_PICKUP_CODE],
});
