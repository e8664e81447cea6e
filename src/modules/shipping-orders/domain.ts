/** The shipping order's states and keys (docs/customer-services.md, "Shipping orders"). */

export const SHIPPING_ORDER_STATUSES = ['pending_payment', 'confirmed', 'cancelled', 'expired'] as const;
export type ShippingOrderStatus = (typeof SHIPPING_ORDER_STATUSES)[number];

/** The wallet transfer of the n-th payment (n from 1): a retried payment moves no more than was due. */
export const payKey = (id: number, n: number): string => `so-${id}-pay-${n}`;
/** The one refund of everything paid, whoever refunds (a cancel or the expiry). */
export const refundKey = (id: number): string => `so-${id}-refund`;
/** The label purchase of a carrier service's order. */
export const labelKey = (id: number): string => `so-${id}`;

/** A customer may cancel an order not cancelled or expired (its delivery order permitting). */
export const cancellable = (status: ShippingOrderStatus): boolean =>
  status === 'pending_payment' || status === 'confirmed';

/** The reference type of the order's wallet transfers. */
export const REFERENCE_TYPE = 'shipping_order';

interface PartyIn {
  name: string;
  company?: string | null | undefined;
  phone?: string | null | undefined;
  email?: string | null | undefined;
  address: {
    line1: string;
    line2?: string | null | undefined;
    city: string;
    state?: string | null | undefined;
    postal_code: string;
    country: string;
  };
}

/** A party with every optional field present (null when not given), as stored and answered. */
export const partyOf = (p: PartyIn) => ({
  name: p.name,
  company: p.company ?? null,
  phone: p.phone ?? null,
  email: p.email ?? null,
  address: {
    line1: p.address.line1,
    line2: p.address.line2 ?? null,
    city: p.address.city,
    state: p.address.state ?? null,
    postal_code: p.address.postal_code,
    country: p.address.country,
  },
});
