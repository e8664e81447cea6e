import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

export const DEVICE_ORDERS_ERRORS = {
  COMPARTMENT_OCCUPIED: { status: 409, meaning: 'The compartment holds another parcel.' },
  EXCEPTION_ALREADY_OPEN: { status: 409, meaning: 'The device order has an open exception of this type already.' },
  EXCEPTION_NOT_OPEN: { status: 409, meaning: 'The exception is resolved or dismissed already.' },
  PROCESS_OUTDATED: {
    status: 409,
    meaning: "The device order's process predates exceptions; it takes them once it has ended.",
  },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof DEVICE_ORDERS_ERRORS, true> {}
}

export const fail = failWith(DEVICE_ORDERS_ERRORS);
