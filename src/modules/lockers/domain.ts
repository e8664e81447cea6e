/** Compartment sizes, smallest first. */
export const COMPARTMENT_SIZES = ['S', 'M', 'L', 'XL'] as const;
export type CompartmentSize = (typeof COMPARTMENT_SIZES)[number];

/** What a locker reports of a door. */
export const DOOR_STATES = ['opened', 'closed'] as const;
export type DoorState = (typeof DOOR_STATES)[number];

/** A compartment as the locker is built: its grid code, hardware door, display number, shelf and size. */
export interface CompartmentSpec {
  gridCode: string;
  compartmentNumber: number;
  /** The number shown on the door; absent on lockers that show none. */
  pickupLockerNumber: number | null;
  shelfCode: string;
  size: CompartmentSize;
}

/** The door's label: `'{shelf_code}-{pickup_locker_number}'`, null without a display number. */
export const pickupLockerCode = (c: { shelfCode: string; pickupLockerNumber: number | null }): string | null =>
  c.pickupLockerNumber === null ? null : `${c.shelfCode}-${c.pickupLockerNumber}`;

/**
 * Compartments for these grid codes, in order, all of one size: door and display numbers from `firstNumber` on,
 * the shelf the code's leading letters ('A' when it has none), as the migration from grid code lists numbered them.
 */
export function compartmentsOf(
  gridCodes: readonly string[],
  size: CompartmentSize = 'M',
  firstNumber = 1,
): CompartmentSpec[] {
  return gridCodes.map((gridCode, i) => ({
    gridCode,
    compartmentNumber: firstNumber + i,
    pickupLockerNumber: firstNumber + i,
    shelfCode: /^[A-Za-z]+/.exec(gridCode)?.[0] ?? 'A',
    size,
  }));
}
