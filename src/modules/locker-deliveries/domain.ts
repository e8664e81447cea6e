/** Statuses of a partner locker delivery (docs/locker-deliveries.md). */
export const LOCKER_DELIVERY_STATUSES = [
  'awaiting_deposit',
  'depositing',
  'delivered',
  'picked_up',
  'failed',
  'expired',
  'cancelled',
] as const;
export type LockerDeliveryStatus = (typeof LOCKER_DELIVERY_STATUSES)[number];

export const OPEN_MODES = ['screen_code', 'remote_open'] as const;
export type OpenMode = (typeof OPEN_MODES)[number];

/** Statuses whose parcels still hold their compartments. */
export const HOLDING: readonly LockerDeliveryStatus[] = ['awaiting_deposit', 'depositing', 'delivered'];

export const isFinal = (s: LockerDeliveryStatus): boolean => !HOLDING.includes(s);

/** What moves a delivery, and from where. */
export const TRANSITIONS = {
  open: { from: ['awaiting_deposit', 'depositing'], to: 'depositing', event: 'partner_locker.delivery.doors_opened' },
  confirm: { from: ['depositing'], to: 'delivered', event: 'partner_locker.delivery.delivered' },
  fail: { from: ['awaiting_deposit', 'depositing'], to: 'failed', event: 'partner_locker.delivery.failed' },
  correct: { from: ['delivered'], to: 'delivered', event: 'partner_locker.delivery.correction_reopened' },
  pickup: { from: ['delivered'], to: 'picked_up', event: 'partner_locker.pickup.completed' },
  cancel: { from: ['awaiting_deposit', 'depositing'], to: 'cancelled', event: 'partner_locker.delivery.cancelled' },
  expire_delivery_code: { from: ['awaiting_deposit'], to: 'expired', event: 'partner_locker.delivery.expired' },
  expire_deposit: { from: ['delivered'], to: 'expired', event: 'partner_locker.delivery.expired' },
} as const satisfies Record<string, { from: readonly LockerDeliveryStatus[]; to: LockerDeliveryStatus; event: string }>;
export type LockerAction = keyof typeof TRANSITIONS;

/** The codes a rotation replaces, and the statuses each may be replaced in (a pickup code also not once the recipient has opened the doors). */
export const ROTATABLE = {
  delivery_code: ['awaiting_deposit', 'depositing'],
  pickup_code: ['awaiting_deposit', 'depositing', 'delivered'],
} as const satisfies Record<string, readonly LockerDeliveryStatus[]>;
export type RotatedCode = keyof typeof ROTATABLE;

/** What confirmed a deposit. */
export const CONFIRM_SOURCES = [
  'courier_terminal',
  'partner_api',
  'door_close',
  'timeout_door_closed',
  'console',
] as const;
export type ConfirmSource = (typeof CONFIRM_SOURCES)[number];

/** Why a parcel of a delivery failed (`fail`). */
export const FAILURE_CODES = [
  'parcel_damaged',
  'parcel_too_large',
  'compartment_unusable',
  'recipient_refused',
  'address_mismatch',
  'other',
] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];

/**
 * A business's timers for deliveries into its lockers, named as their columns and API fields, with their defaults
 * and bounds; a delivery copies them at create.
 */
export const LOCKER_SETTING_BOUNDS = {
  delivery_code_ttl_hours: { min: 1, max: 720, default: 72 },
  deposit_timeout_minutes: { min: 1, max: 1440, default: 15 },
  pickup_ttl_hours: { min: 1, max: 720, default: 72 },
  correction_window_minutes: { min: 0, max: 1440, default: 10 },
  code_rotation_hours: { min: 0, max: 720, default: 0 },
} as const;
export type LockerSettings = Record<keyof typeof LOCKER_SETTING_BOUNDS, number>;
export const LOCKER_SETTING_NAMES = Object.keys(LOCKER_SETTING_BOUNDS) as (keyof LockerSettings)[];
