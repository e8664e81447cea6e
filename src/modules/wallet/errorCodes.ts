import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

/**
 * The wallet's codes (docs/customer-services.md, "The wallet: a ledger"), and the two every paying module (shipping
 * orders, storage, ship-outs) answers alike: NOTHING_DUE and PRICE_HIDDEN_SETTLE_OFFLINE (`failPayment`).
 */
export const WALLET_ERRORS = {
  INSUFFICIENT_FUNDS: {
    status: 409,
    meaning: "The wallet's available amount does not cover the transfer (or is 0 for a balancing one): nothing moved.",
  },
  TRANSFER_KEY_REUSED: {
    status: 409,
    meaning: 'The idempotency key names an earlier transfer with other fields (amount, accounts, code or memo).',
  },
  HOLD_NOT_PENDING: {
    status: 409,
    meaning: 'The hold was posted or voided already: a hold is settled once.',
  },
  PRICE_HIDDEN_SETTLE_OFFLINE: {
    status: 403,
    meaning:
      "The business hides the prices of this service family (shipping_service, storage_services) from the customer: it cannot pay online; the business records the payment with the order's settle-offline operation.",
  },
  NOTHING_DUE: {
    status: 409,
    meaning:
      'Nothing is due on the order: it is paid already (or, for a shipping or storage order, cancelled or expired).',
  },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof WALLET_ERRORS, true> {}
}

export const fail = failWith(WALLET_ERRORS);
