/** The shipping order's states and keys (docs/customer-services.md, "Shipping orders"). */

export const SHIPPING_ORDER_STATUSES = ['pending_payment', 'confirmed', 'cancelled', 'expired'] as const;
export type ShippingOrderStatus = (typeof SHIPPING_ORDER_STATUSES)[number];

/** The wallet transfer of the n-th payment (n from 1): a retried payment moves no more than was due. */
export const payKey = (id: number, n: number): string => `so-${id}-pay-${n}`;
/** The one refund of everything paid, whoever refunds (a cancel or the expiry). */
export const refundKey = (id: number): string => `so-${id}-refund`;
/**
 * The label purchase of a carrier service's order: in the `tms:` namespace, which the public idempotency keys of
 * label purchases refuse, so no caller can take it first.
 */
export const labelKey = (id: number): string => `tms:so-${id}`;

/** A customer may cancel an order not cancelled or expired (its delivery order permitting). */
export const cancellable = (status: ShippingOrderStatus): boolean =>
  status === 'pending_payment' || status === 'confirmed';

/** Why a cancelled order was cancelled (cancel_reason). */
export const CANCEL_REASONS = ['customer', 'delivery_cancelled', 'no_rate'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

/** The reference type of the order's wallet transfers. */
export const REFERENCE_TYPE = 'shipping_order';
