import { condition, continueAsNew, proxyActivities, setHandler } from '@temporalio/workflow';
import { msUntilExpiry, ORDER_STEP_OPTIONS } from '../customer-services/contract.ts';
import {
  cancelledSignal,
  FEE_RUN_PAGE,
  FEE_RUN_PAGES_PER_RUN,
  paidSignal,
  type FeeRunInput,
  type FeeRunTotals,
  type StorageActivities,
  type StorageOrderInput,
  type StorageOrderOutcome,
} from './contract.ts';

const { expireStorageOrder } = proxyActivities<StorageActivities>(ORDER_STEP_OPTIONS);

/**
 * A customer's storage order waiting for its payment (docs/customer-services.md, "Storage orders"): the payment or
 * the cancel ends it (signals); at `expires_at` the expiry activity expires it if it is still unpaid, under its row
 * lock, so a payment whose signal was lost is found paid and nothing is expired.
 */
export async function storageOrder(input: StorageOrderInput): Promise<StorageOrderOutcome> {
  let ended: StorageOrderOutcome | null = null;
  setHandler(paidSignal, () => {
    ended ??= 'paid';
  });
  setHandler(cancelledSignal, () => {
    ended ??= 'cancelled';
  });
  if (await condition(() => ended !== null, msUntilExpiry(input.expires_at))) return ended!;
  return expireStorageOrder(input.storage_order_id);
}

/**
 * A customer page is 200 customers, one transaction each; a killed worker's page is run again by its retry and
 * charges only what is still due. It heartbeats per customer, so a page whose worker died runs again within 30 s.
 */
const { chargeStorageFeesPage } = proxyActivities<StorageActivities>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute' },
});

/**
 * The storage fee run (docs/customer-services.md, "The storage fee run"): pages through the customers with a
 * storage period due or a fee owed, in customer id order, and continues as new every 50 pages so its history stays
 * small. Answers the run's totals over every continuation.
 */
export async function storageFeeRun(input: FeeRunInput = {}): Promise<FeeRunTotals> {
  const totals: FeeRunTotals = input.totals ?? { pages: 0, customers: 0, fees: 0, transfers: 0 };
  let after = input.after ?? 0;
  const businessId = input.business_id ?? null;
  for (let page = 0; ; page++) {
    if (page === FEE_RUN_PAGES_PER_RUN)
      return continueAsNew<typeof storageFeeRun>({ business_id: businessId, after, totals });
    const done = await chargeStorageFeesPage({ after, limit: FEE_RUN_PAGE, business_id: businessId });
    totals.pages += 1;
    totals.customers += done.customers;
    totals.fees += done.fees;
    totals.transfers += done.transfers;
    if (done.next === null) return totals;
    after = done.next;
  }
}
