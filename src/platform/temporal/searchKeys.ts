import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * Search attributes that mean the same in every module's workflows, so that an operator's filter
 * (`BusinessId = 7`, `OrderId = 42`) finds all of a business's or an order's processes. Module-specific keys
 * live in the module's contract.ts; the worker registers them all at start-up.
 */
export const BUSINESS_ID = defineSearchAttributeKey('BusinessId', SearchAttributeType.INT);
export const ORDER_ID = defineSearchAttributeKey('OrderId', SearchAttributeType.INT);
