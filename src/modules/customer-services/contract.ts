/**
 * What the customer orders' processes share (docs/customer-services.md): shipping orders, storage orders and
 * ship-outs each wait for their payment until an unpaid expiry, then expire the order in one short transaction.
 * Imported by their workflows (nothing here reaches outside `@temporalio/workflow`).
 */
import type { ActivityOptions } from '@temporalio/workflow';

/** A step of one short transaction that a retry finds done (the expiry, a recorded step): retried until it answers. */
export const ORDER_STEP_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
};

/** How long until `expiresAt` (an ISO time), in ms: at least 1, so an order past its expiry expires at once. */
export const msUntilExpiry = (expiresAt: string): number => Math.max(1, Date.parse(expiresAt) - Date.now());
