import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

export const ORDER_CANCELLATION_ERRORS = {
  ORDER_GONE_OUT: {
    status: 409,
    meaning:
      'The order has gone out (on its way, pickup started, a failed attempt still with the driver): it can no longer be cancelled; request an interception.',
  },
  ORDER_FINISHED: {
    status: 409,
    meaning: 'The order was delivered, refused by its recipient or returned to its sender: nothing is left to cancel.',
  },
  ORDER_ALREADY_CANCELLED: { status: 409, meaning: 'The order is cancelled already.' },
  ORDER_UNDER_INTERCEPTION: {
    status: 409,
    meaning: 'The order is intercepted; its interception decides what happens to it.',
  },
  CANCEL_PENDING: {
    status: 409,
    meaning: "A cancellation of the order waits for its delivery provider's answer already.",
  },
  CANCEL_BY_VOID: {
    status: 409,
    meaning:
      'The order is a carrier label order: it is cancelled by voiding its label (cancel_shipping_label, or uniorder_cancel, which also cancels one whose purchase failed).',
  },
  CANCEL_ANSWERED: {
    status: 409,
    meaning: 'The cancellation request was answered already, or its deadline passed.',
  },
  ORDER_NOT_DELETABLE: {
    status: 409,
    meaning:
      'Only a cancelled or finished (delivered, refused, returned) order that no process holds any more can be deleted.',
  },
} satisfies ErrorCodes;

export type OrderCancellationCode = keyof typeof ORDER_CANCELLATION_ERRORS;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof ORDER_CANCELLATION_ERRORS, true> {}
}

export const fail = failWith(ORDER_CANCELLATION_ERRORS);
