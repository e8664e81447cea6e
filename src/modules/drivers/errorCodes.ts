import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

export const DRIVERS_ERRORS = {
  DRIVER_STATUS_CONFLICT: {
    status: 409,
    meaning:
      "The driver's status does not allow the decision: approve takes a pending, rejected or suspended driver, reject a pending one, suspend a pending or active one.",
  },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof DRIVERS_ERRORS, true> {}
}

export const fail = failWith(DRIVERS_ERRORS);
