/**
 * Distribution: the places a business receives, stores and hands out parcels at, the carriers that deliver
 * through its network under a supplier account, and each package's distribution process `distribution-<package
 * number>`, moved by scans (docs/distribution.md).
 */
import { defineModule } from '../../platform/module.ts';
import { CARRIER_PACKAGE_EVENTS } from './events.ts';
import { createDistributionActivities } from './activities.ts';
import { DISTRIBUTION_SEARCH_ATTRIBUTES, DISTRIBUTION_WORKFLOW, DISTRIBUTION_QUEUE } from './contract.ts';
import { DISTRIBUTION_ERRORS } from './errorCodes.ts';
import { DISTRIBUTION_MESSAGES } from './messages.ts';
import { leaveDistribution } from './trackedMoves.ts';
import { distributionExceptions, distributionProcesses } from './orderReads.ts';
import {
  placeCreate,
  placeGet,
  placeList,
  supplierAccountCreate,
  supplierAccountEnd,
  supplierAccountList,
} from './operations/places.ts';
import { SHELF_PICKUP_CODE } from './repo/distributions.ts';
import { callerForScannerKey, SCANNER_KEY_PREFIX } from './repo/scannerKeys.ts';
import { scannerKeyCreate, scannerKeyList, scannerKeyRevoke } from './operations/scannerKeys.ts';
import { distributionScanBatch } from './operations/scanBatches.ts';
import {
  distributionPackageGet,
  distributionScan,
  flaggedScanList,
  warehouseDistributionList,
} from './operations/scans.ts';

export { moveByTrackedEvents, removeCancelledPackages, type TrackedMove } from './trackedMoves.ts';

export const distribution = defineModule({
  name: 'distribution',
  tags: {
    Distribution:
      "Carrier packages through the business's warehouses, trucks and pickup places: the places, carrier supplier accounts, the scans that move a package (by staff or by a place's scanner key), distribution lists and flagged scans. The carrier_package.distribution.* webhooks follow each package.",
  },
  taskQueue: DISTRIBUTION_QUEUE,
  events: CARRIER_PACKAGE_EVENTS,
  // Its packages still being distributed and its standing flagged scans, for the orders module's reads.
  // The packages of a cancelled order leave their distribution.
  hooks: {
    orderProcesses: distributionProcesses,
    orderExceptions: distributionExceptions,
    orderCancelled: leaveDistribution,
  },
  operations: [
    placeCreate,
    placeList,
    placeGet,
    supplierAccountCreate,
    supplierAccountList,
    supplierAccountEnd,
    distributionScan,
    distributionScanBatch,
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
  errorCodes: DISTRIBUTION_ERRORS,
  searchAttributes: DISTRIBUTION_SEARCH_ATTRIBUTES,
  sealedColumns: [SHELF_PICKUP_CODE],
});
