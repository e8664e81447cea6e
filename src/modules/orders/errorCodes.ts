import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

export const ORDERS_ERRORS = {
  ORDER_NOT_EDITABLE: {
    status: 409,
    meaning:
      'The order is past the point where this change can still reach whoever carries it (out for delivery, failed, delivered, refused, returned, cancelled, intercepted, or carried by a delivery provider); the message says which.',
  },
  ORDER_NOT_HOLDABLE: {
    status: 409,
    meaning:
      'The order cannot be put on hold: it is held already, dispatched, on a route, carried by a delivery provider or finished; the message says which.',
  },
  ORDER_NOT_HELD: { status: 409, meaning: 'The order is not on hold, so there is nothing to release.' },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof ORDERS_ERRORS, true> {}
}

export const fail = failWith(ORDERS_ERRORS);
