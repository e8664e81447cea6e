export const DEVICE_ORDER_KINDS = ['delivery', 'return', 'storage'] as const;
export const DEVICE_ORDER_STATUSES = ['stored', 'overdue', 'collected', 'removed'] as const;
export const NEXT_ACTORS = ['recipient', 'courier', 'depositor', 'operator', 'none'] as const;
export const REMOVAL_REASONS = [
  'overdue_return',
  'handover',
  'relay',
  'anomaly',
  'recovery',
  'pending_area',
  'deleted',
  'destroyed',
] as const;

export type DeviceOrderKind = (typeof DEVICE_ORDER_KINDS)[number];
export type DeviceOrderStatus = (typeof DEVICE_ORDER_STATUSES)[number];
export type NextActor = (typeof NEXT_ACTORS)[number];
export type RemovalReason = (typeof REMOVAL_REASONS)[number];
export type DeviceOrderAction = 'collect' | 'remove' | 'overdue';

/** Whom a stored parcel awaits, by kind. */
export const AWAITED_BY: Record<DeviceOrderKind, NextActor> = {
  delivery: 'recipient',
  return: 'courier',
  storage: 'depositor',
};

/** Statuses in which the parcel is still in its compartment. */
export const ACTIVE_STATUSES: readonly DeviceOrderStatus[] = ['stored', 'overdue'];

const TRANSITIONS: Record<DeviceOrderAction, { from: readonly DeviceOrderStatus[]; to: DeviceOrderStatus }> = {
  collect: { from: ['stored', 'overdue'], to: 'collected' },
  remove: { from: ['stored', 'overdue'], to: 'removed' },
  overdue: { from: ['stored'], to: 'overdue' },
};

/** The statuses an action may start from. */
export function statusesAllowing(action: DeviceOrderAction): readonly DeviceOrderStatus[] {
  return TRANSITIONS[action].from;
}

/** The status an action leads to, and whom the order then awaits. */
export function outcomeOf(action: DeviceOrderAction): { status: DeviceOrderStatus; nextActor: NextActor } {
  const status = TRANSITIONS[action].to;
  return { status, nextActor: status === 'overdue' ? 'operator' : 'none' };
}

/** The status an action leads to from `status`, or null when the transition is not allowed. */
export function nextStatus(status: DeviceOrderStatus, action: DeviceOrderAction): DeviceOrderStatus | null {
  const t = TRANSITIONS[action];
  return t.from.includes(status) ? t.to : null;
}

export function isTerminal(status: DeviceOrderStatus): boolean {
  return !ACTIVE_STATUSES.includes(status);
}

/** The device order event written for each action. */
export const EVENT_OF_ACTION: Record<DeviceOrderAction | 'store', string> = {
  store: 'device_order.stored',
  collect: 'device_order.collected',
  remove: 'device_order.removed',
  overdue: 'device_order.overdue',
};

/** After a parcel leaves its compartment, how long the process waits for the door to be reported open. */
export const DOOR_WATCH_SECONDS = 600;
/** How long a door may stay open after a pickup before door_left_open opens by itself. */
export const DOOR_OPEN_LIMIT_SECONDS = 120;

/** The door timings a process is started with, scaled like every locker timer (LOCKER_TIMER_SCALE). */
export const doorTimings = (scale: number) => ({
  doorWatchMs: DOOR_WATCH_SECONDS * 1000 * scale,
  doorOpenLimitMs: DOOR_OPEN_LIMIT_SECONDS * 1000 * scale,
});
