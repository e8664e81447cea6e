import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

export const ASSIGNMENTS_ERRORS = {
  NOT_ASSIGNED_TO_YOU: { status: 400, meaning: 'The order is not held by the calling contractor.' },
  ORDER_ON_ROUTE: { status: 400, meaning: 'The order is on a route; take it off the route first.' },
  MODULE_DISABLED: {
    status: 403,
    meaning: "The contractor assignment module is not enabled for the caller's business.",
  },
  MODULE_UNAVAILABLE: { status: 503, meaning: 'The contractor assignment module is switched off system-wide.' },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof ASSIGNMENTS_ERRORS, true> {}
}

export const fail = failWith(ASSIGNMENTS_ERRORS);
