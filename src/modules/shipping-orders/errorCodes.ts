import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

/**
 * The shipping orders' own code (docs/customer-services.md, "Shipping orders"). A payment answers the wallet's
 * codes too: INSUFFICIENT_FUNDS, NOTHING_DUE and PRICE_HIDDEN_SETTLE_OFFLINE (wallet/errorCodes.ts).
 */
export const SHIPPING_ORDERS_ERRORS = {
  SHIPPING_ORDER_NOT_CANCELLABLE: {
    status: 409,
    meaning:
      'The shipping order cannot be cancelled: it is cancelled or expired already, or its delivery order could not be cancelled (out for delivery, label handed to the carrier, purchase still with the carrier). Nothing changed.',
  },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof SHIPPING_ORDERS_ERRORS, true> {}
}

export const fail = failWith(SHIPPING_ORDERS_ERRORS);
