/** The ship-out's states and keys (docs/customer-services.md, "Ship-outs"), pure. */
import type { ShipoutStatus } from './contract.ts';

/** Where a cancel is allowed: before the packages leave the shelf. */
export const CANCELLABLE: readonly ShipoutStatus[] = ['awaiting_price', 'pending_payment', 'paid'];
/** Where the process has ended. */
export const ENDED: readonly ShipoutStatus[] = ['handed_over', 'cancelled', 'expired'];

export const isCancellable = (s: ShipoutStatus): boolean => CANCELLABLE.includes(s);
export const isEnded = (s: ShipoutStatus): boolean => ENDED.includes(s);

/** The status a staff step needs, and the one it leads to. */
export const STEPS = {
  pick: { from: 'paid', to: 'picked' },
  pack: { from: 'picked', to: 'packed' },
  hand_over: { from: 'packed', to: 'handed_over' },
} as const satisfies Record<string, { from: ShipoutStatus; to: ShipoutStatus }>;
export type Step = keyof typeof STEPS;

/** The idempotency keys of the ship-out's transfers: its n-th hold, and that hold's post and void. */
export const holdKey = (id: number, n: number): string => `sho-${id}-pay-${n}`;
export const postKey = (id: number, n: number): string => `sho-${id}-post-${n}`;
export const voidKey = (id: number, n: number): string => `sho-${id}-void-${n}`;
/** The label purchase's idempotency key, in the `tms:` namespace public label keys refuse. */
export const labelKey = (id: number): string => `tms:sho-${id}`;

/** Status names a person reads. */
export const STATUS_NAMES: Record<ShipoutStatus, string> = {
  awaiting_price: 'Awaiting price',
  pending_payment: 'Pending payment',
  paid: 'Paid',
  picked: 'Picked',
  packed: 'Packed',
  handed_over: 'Handed over',
  cancelled: 'Cancelled',
  expired: 'Expired',
};
