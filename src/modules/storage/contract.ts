/**
 * The storage processes (docs/customer-services.md, "Storage orders" and "The storage fee run"), imported by the API
 * (to start and signal them), by the tests and by the workflows. The storage_order and storage_fee rows are the read
 * model the activities write: only ids, counts and outcomes cross into history.
 */
import { defineSignal } from '@temporalio/workflow';
import { PROCESS_QUEUE } from '../../platform/temporal/queues.ts';

export const STORAGE_QUEUE = PROCESS_QUEUE;

/** The unpaid expiry of one storage order: workflow `storage-order-<id>`. */
export const STORAGE_ORDER_WORKFLOW = 'storageOrder';
export const storageOrderWorkflowId = (id: number): string => `storage-order-${id}`;

export interface StorageOrderInput {
  storage_order_id: number;
  /** When the order expires unpaid (ISO time): the process waits for its payment or cancel until then. */
  expires_at: string;
}

/** The order is fully paid (online or settled offline): nothing will expire. */
export const paidSignal = defineSignal('paid');
/** The order was cancelled: nothing will expire. */
export const cancelledSignal = defineSignal('cancelled');

/** What the process ended on: the payment, the cancel, or its expiry (what the expiry found under the row lock). */
export type StorageOrderOutcome = 'paid' | 'cancelled' | 'expired';

/** The storage fee run: schedule `storage-fee-run` (its runs `storage-fee-run-<scheduled time>`), or started by hand. */
export const STORAGE_FEE_RUN_WORKFLOW = 'storageFeeRun';
export const STORAGE_FEE_RUN_SCHEDULE = 'storage-fee-run';
export const storageFeeRunWorkflowId = (run: string): string => `storage-fees-${run}`;

/** Customers charged per activity, and activities per run before it continues as new. */
export const FEE_RUN_PAGE = 200;
export const FEE_RUN_PAGES_PER_RUN = 50;
/** Customers of a page charged at once, each in its own transaction. */
export const FEE_RUN_CONCURRENCY = 4;

export interface FeeRunTotals {
  /** Pages of customers done, over every continuation of the run. */
  pages: number;
  customers: number;
  /** Fee rows inserted (package periods charged). */
  fees: number;
  /** Wallet transfers made (one per customer and currency that had anything to pay with). */
  transfers: number;
}

export interface FeeRunInput {
  /** Only this business's customers (a test, the bench); every business when absent. */
  business_id?: number | null;
  /** The continuation's cursor: customers with an id above it are left. */
  after?: number;
  totals?: FeeRunTotals;
}

export interface FeePageResult {
  customers: number;
  fees: number;
  transfers: number;
  /** The last customer id of the page; null when the page was the last one. */
  next: number | null;
}

/** The activities, as they cross into history (activities.ts implements them). */
export type StorageActivities = {
  /**
   * Expires the order if it is still pending_payment, in one transaction under its row lock: its packages released,
   * a partial payment refunded (key `sto-<id>-refund`). Answers what it found: a paid order whose signal was lost
   * is `paid`; a retry changes nothing more.
   */
  expireStorageOrder(storageOrderId: number): Promise<StorageOrderOutcome>;
  /**
   * Charges the next `limit` customers (ids above `after`) with a storage period due or a fee owed, one
   * transaction each: the due fee rows inserted, one balancing wallet transfer, the fees marked paid oldest first.
   * A retry after a killed worker finds only what is still due.
   */
  chargeStorageFeesPage(input: { after: number; limit: number; business_id: number | null }): Promise<FeePageResult>;
};
