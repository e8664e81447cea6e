/**
 * A storage order's states (docs/customer-services.md, "Storage orders"). The row keeps what payment and the
 * customer decide (pending_payment, confirmed, cancelled, expired); what the warehouse did since is read from the
 * packages: some received is `receiving`, all received `stored`, every one gone (shipped or released) `closed`.
 */
export const ORDER_STATES = ['pending_payment', 'confirmed', 'cancelled', 'expired'] as const;
export type OrderState = (typeof ORDER_STATES)[number];

export const STORAGE_ORDER_STATUSES = [
  'pending_payment',
  'confirmed',
  'receiving',
  'stored',
  'closed',
  'cancelled',
  'expired',
] as const;
export type StorageOrderStatus = (typeof STORAGE_ORDER_STATUSES)[number];

export type PackageState = 'expected' | 'stored' | 'reserved' | 'shipped' | 'released';

/** At most this many packages per order. */
export const MAX_PACKAGES = 100;

/** A package the warehouse has taken in: it has a received time (stored, reserved or shipped since). */
export const wasReceived = (p: { received_at: string | null }): boolean => p.received_at !== null;

export function statusOf(state: OrderState, packages: readonly { state: PackageState; received_at: string | null }[]) {
  if (state !== 'confirmed') return state;
  const received = packages.filter(wasReceived).length;
  if (received === 0) return 'confirmed';
  if (packages.every((p) => p.state === 'shipped' || p.state === 'released')) return 'closed';
  return received === packages.length ? 'stored' : 'receiving';
}

/** Nothing received and not cancelled or expired: the warehouse still takes changes. */
export const canEdit = (state: OrderState, packages: readonly { received_at: string | null }[]): boolean =>
  (state === 'pending_payment' || state === 'confirmed') && !packages.some(wasReceived);

/** pending_payment or confirmed with no package received. */
export const canCancel = canEdit;

/** The seconds a storage period lasts: a day of the business's settings, or 30 of them. */
export const periodSeconds = (period: 'day' | 'month', storageDaySeconds: number): number =>
  (period === 'month' ? 30 : 1) * storageDaySeconds;
