/**
 * The shipping order process (docs/customer-services.md, "Shipping orders"), imported by the API (to start and
 * signal it) and by the workflow. Workflow id `shipping-order-<id>`; the shipping_order row is the read model its
 * activities write: only ids and outcomes cross into history.
 */
import { defineSignal } from '@temporalio/workflow';
import { PROCESS_QUEUE } from '../../platform/temporal/queues.ts';

export const SHIPPING_ORDER_WORKFLOW = 'shippingOrder';
export const SHIPPING_ORDER_QUEUE = PROCESS_QUEUE;
export const shippingOrderWorkflowId = (id: number): string => `shipping-order-${id}`;

export interface ShippingOrderInput {
  shipping_order_id: number;
  /** When an unpaid order expires (ISO time): the process waits for its payment until then. */
  expires_at: string;
  /** Confirmed at creation (a price of 0): its delivery order is placed at once. */
  confirmed: boolean;
}

/** The order is fully paid (online or settled offline) and confirmed: place its delivery order. */
export const paidSignal = defineSignal('paid');
/** The order was cancelled: the process ends. */
export const cancelledSignal = defineSignal('cancelled');

/** How the process ended. */
export type ShippingOrderOutcome = 'placed' | 'not_placed' | 'expired' | 'cancelled';

/** What the expiry found the order in, under its row lock: an unpaid one is expired by it. */
export type ExpiryOutcome = 'expired' | 'confirmed' | 'cancelled';

/** The activities, as they cross into history (activities.ts implements them). */
export type ShippingOrderActivities = {
  /**
   * Expires the order if it is still pending_payment (a partial payment refunded with key `so-<id>-refund`), in
   * one transaction under its row lock; answers what it found, so a confirmed order whose signal was lost is
   * placed all the same. A retry changes nothing more.
   */
  expireShippingOrder(shippingOrderId: number): Promise<ExpiryOutcome>;
  /**
   * Places the delivery order of a confirmed order once: own fleet through the orders module, a carrier's label
   * through labels (key `tms:so-<id>`). An order placed already, cancelled or expired places nothing; answers whether
   * the order has its delivery order now. A carrier with no rate for the service cancels the order (`no_rate`, its
   * wallet refunded); a label bought for an order cancelled meanwhile is voided, and a failed void is thrown, so the
   * activity retries it.
   */
  placeShippingDelivery(shippingOrderId: number): Promise<{ placed: boolean }>;
};
