import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

export const LOCKER_DELIVERIES_ERRORS = {
  CORRECTION_WINDOW_CLOSED: {
    status: 409,
    meaning: 'The correction window has closed, or the recipient has opened the doors already.',
  },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof LOCKER_DELIVERIES_ERRORS, true> {}
}

export const fail = failWith(LOCKER_DELIVERIES_ERRORS);
