import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

export const THIRD_PARTY_ERRORS = {
  ORDER_ROUTED: { status: 409, meaning: 'The order is on a route; take it off the route first.' },
  ORDER_NOT_ASSIGNABLE: { status: 409, meaning: "The order's status does not allow handing it to a provider." },
  ORDER_HELD: { status: 409, meaning: 'The order is held by a delivery provider already.' },
  ORDER_WITH_CONTRACTOR: {
    status: 409,
    meaning: 'The order is assigned to a contractor; revoke that assignment first.',
  },
  INVALID_STEP: { status: 409, meaning: "The third-party assignment's status does not allow this step now." },
  LEG_EXISTS: { status: 409, meaning: 'The assignment already has a leg with this carrier order number.' },
  PACKAGE_ON_LEG: { status: 409, meaning: 'A package is on another leg of the assignment already.' },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof THIRD_PARTY_ERRORS, true> {}
}

export const fail = failWith(THIRD_PARTY_ERRORS);
