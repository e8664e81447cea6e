import type { ErrorCodes } from '../../platform/errorCodes.ts';

/**
 * Uniorder answers codes other modules define (docs/uniorder.md): PRICE_MODEL_MISSING (delivery-prices), the
 * purchase codes of labels (RATE_EXPIRED, RATE_ALREADY_USED, IDEMPOTENCY_KEY_REUSED, PURCHASE_IN_PROGRESS,
 * LABEL_PURCHASE_FAILED, ...) and order-cancellation's. It adds none of its own: a code means one thing everywhere.
 * `NOT_LABEL_SHIPPABLE` is only a message code in a rate answer, never an error.
 */
export const UNIORDER_ERRORS = {} satisfies ErrorCodes;
