/**
 * Distribution: the places a business receives, stores and hands out parcels at, and the carriers that deliver
 * through its network under a supplier account (docs/distribution.md). The distribution process of each package
 * comes next in this module.
 */
import { defineModule } from '../../platform/module.ts';
import { DISTRIBUTION_MESSAGES } from './messages.ts';
import { placeCreate, placeGet, placeList, supplierAccountCreate, supplierAccountEnd, supplierAccountList } from './operations.ts';

export const distribution = defineModule({
  name: 'distribution',
  operations: [placeCreate, placeList, placeGet, supplierAccountCreate, supplierAccountList, supplierAccountEnd],
  messages: DISTRIBUTION_MESSAGES,
});
