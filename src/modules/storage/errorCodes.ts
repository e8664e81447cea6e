import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

/**
 * The storage orders' own codes (docs/customer-services.md, "Storage orders"). A payment answers the wallet's
 * INSUFFICIENT_FUNDS too, and the codes every paying module answers, NOTHING_DUE and PRICE_HIDDEN_SETTLE_OFFLINE,
 * which the wallet defines (`failPayment`).
 */
export const STORAGE_ERRORS = {
  STORAGE_ORDER_NOT_CANCELLABLE: {
    status: 409,
    meaning:
      'The storage order cannot be cancelled: it is cancelled or expired already, or the warehouse has received a package of it. Nothing changed.',
  },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof STORAGE_ERRORS, true> {}
}

export const fail = failWith(STORAGE_ERRORS);
