import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

/** The labels module's codes (docs/labels.md, "Error codes"); a carrier's own failure is 424 with its code. */
export const LABELS_ERRORS = {
  NO_CARRIER_ACCOUNT: {
    status: 409,
    meaning: 'The business has no active carrier account for the request (none connected, or none left by the filter).',
  },
  CARRIER_ERROR: {
    status: 424,
    meaning: 'Every carrier asked failed; `carrier_errors` lists each carrier with its own code and message.',
  },
  RATE_EXPIRED: { status: 409, meaning: 'The rate is past its `expires_at`: rate again.' },
  RATE_ALREADY_USED: { status: 409, meaning: 'The rate has bought a label already; `order_id` names its order.' },
  IDEMPOTENCY_KEY_REUSED: {
    status: 409,
    meaning:
      'The idempotency key names an earlier request with other content (another rate_id for a label; another service, parcels or recipient for a customer order): nothing new was made.',
  },
  PURCHASE_IN_PROGRESS: {
    status: 409,
    meaning: 'The purchase is still with the carrier: ask again in a moment; it is finished once, whatever happens.',
  },
  LABEL_PURCHASE_FAILED: {
    status: 424,
    meaning:
      'The carrier refused the label or did not answer in time: the order is kept in status 60 LABEL_PURCHASE_FAILED with the reason (`order_id`, `carrier_error`), and its label can be bought later.',
  },
  LABEL_ALREADY_PURCHASED: { status: 409, meaning: 'The order has its label already.' },
  NO_LABEL: { status: 409, meaning: 'The order has no label (its purchase is pending or failed).' },
  LABEL_VOIDED: { status: 409, meaning: 'The label was voided.' },
  LABEL_NOT_VOIDABLE: { status: 409, meaning: 'The label was handed to the carrier (manifested or later).' },
  LABEL_VOID_REFUSED: {
    status: 424,
    meaning: 'The carrier refused to void the label (`carrier_error`); nothing changed.',
  },
  NOT_A_LABEL_ORDER: { status: 409, meaning: 'The order is a local delivery order, not a label order.' },
  NOT_LOCAL_ORDER: { status: 409, meaning: 'The order is a label order: its label is the carrier\u2019s.' },
  CARRIER_ACCOUNT_TAKEN: {
    status: 409,
    meaning: 'The business has connected this carrier with this account number already.',
  },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof LABELS_ERRORS, true> {}
}

export const fail = failWith(LABELS_ERRORS);
