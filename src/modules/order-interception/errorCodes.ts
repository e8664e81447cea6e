import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

export const INTERCEPTION_ERRORS = {
  INTERCEPTION_NOT_HELD: {
    status: 409,
    meaning:
      "The interception's parcel is not held at a warehouse yet: its outcome can be carried out once a warehouse scan or its carrier reports it there.",
  },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof INTERCEPTION_ERRORS, true> {}
}

export const fail = failWith(INTERCEPTION_ERRORS);
