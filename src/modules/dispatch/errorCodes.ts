import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

export const DISPATCH_ERRORS = {
  ORDER_NOT_DISPATCHABLE: {
    status: 409,
    meaning:
      'The order does not wait for dispatch: it is on hold, cancelled, delivered, on its way or otherwise past dispatch.',
  },
  ORDER_PROVIDER_HELD: { status: 409, meaning: 'A third-party delivery provider carries the order.' },
  ORDER_CONTRACTOR_HELD: { status: 409, meaning: 'The order is actively assigned to a contractor.' },
  ORDER_STOP_STARTED: {
    status: 409,
    meaning: "The order's stop on its driver's route is done or under way: it stays with that driver.",
  },
  DRIVER_NOT_ACTIVE: { status: 409, meaning: 'The driver is not active (pending, rejected or suspended).' },
  ORDER_NOT_ASSIGNED: { status: 409, meaning: 'The order has no driver.' },
  ORDER_HAS_DRIVER: { status: 409, meaning: 'The order has a driver already; unassign it first.' },
  AUTO_ASSIGN_RUNNING: {
    status: 409,
    meaning: 'An auto-assign process of the order is running; wait for it to end.',
  },
  OFFER_NOT_YOURS: { status: 409, meaning: 'The order is offered to another driver.' },
  OFFER_EXPIRED: { status: 409, meaning: 'No offer of the order is open: its deadline passed or it was answered.' },
} satisfies ErrorCodes;

export type DispatchCode = keyof typeof DISPATCH_ERRORS;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof DISPATCH_ERRORS, true> {}
}

export const fail = failWith(DISPATCH_ERRORS);
