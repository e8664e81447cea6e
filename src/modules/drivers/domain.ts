/** Driver records: statuses, what each decision may change, and the checks on a driver's day (docs/routes.md, Drivers). */

export const DRIVER_STATUSES = ['pending', 'active', 'rejected', 'suspended'] as const;
export type DriverStatus = (typeof DRIVER_STATUSES)[number];

/** The business's decisions on a driver record and the statuses each may start from. */
export const DECISIONS = {
  approve: { from: ['pending', 'rejected', 'suspended'], to: 'active' },
  reject: { from: ['pending'], to: 'rejected' },
  suspend: { from: ['pending', 'active'], to: 'suspended' },
} as const satisfies Record<string, { from: readonly DriverStatus[]; to: DriverStatus }>;
export type Decision = keyof typeof DECISIONS;

export const canDecide = (decision: Decision, status: DriverStatus): boolean =>
  (DECISIONS[decision].from as readonly DriverStatus[]).includes(status);

/** A time of day written HH:MM, 00:00 to 23:59. */
export const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;
export const SKILL = /^[a-z0-9_-]{1,40}$/;
export const MAX_SKILLS = 20;
export const MAX_BREAKS = 3;

export const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

export interface Shift {
  start: string;
  end: string;
}
export interface Break {
  start: string;
  end: string;
  minutes: number;
}

/**
 * Why a driver's day does not hold together, as the field and message key to answer, or null. The shift ends after it
 * starts (no shift across midnight); each break lies inside the shift (inside the day without one) and its minutes
 * fit between its start and end.
 */
export function dayProblem(
  shift: Shift | null,
  breaks: readonly Break[],
): {
  field: string;
  key: 'drivers.shift_order' | 'drivers.break_order' | 'drivers.break_outside_shift' | 'drivers.break_too_long';
} | null {
  if (shift && minutesOf(shift.end) <= minutesOf(shift.start))
    return { field: 'shift.end', key: 'drivers.shift_order' };
  for (const [i, b] of breaks.entries()) {
    const start = minutesOf(b.start);
    const end = minutesOf(b.end);
    if (end <= start) return { field: `breaks.${i}.end`, key: 'drivers.break_order' };
    if (shift && (start < minutesOf(shift.start) || end > minutesOf(shift.end)))
      return { field: `breaks.${i}`, key: 'drivers.break_outside_shift' };
    if (b.minutes > end - start) return { field: `breaks.${i}.minutes`, key: 'drivers.break_too_long' };
  }
  return null;
}

/** The event id of a driver's n-th duty change: stable across the event's retries. */
export const dutyEventId = (driverId: number, n: number): string => `DOD-${driverId}.${n}`;
