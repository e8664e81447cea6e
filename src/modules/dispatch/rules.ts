/** Whether an order may be given to a driver now (docs/routes.md, "Building routes": the same reasons). */
import { ASSIGNABLE_STATUS_IDS } from '../orders/index.ts';
import { fail, type DispatchCode } from './errorCodes.ts';
import { CODE_MESSAGE } from './messages.ts';
import type { DispatchOrder } from './repo/orders.ts';

/** The refusal and its message key, or null when the order waits for dispatch and the business carries it. */
export function dispatchRefusal(o: DispatchOrder): DispatchCode | null {
  if (o.carrierProviderId != null || !o.selfDelivery) return 'ORDER_PROVIDER_HELD';
  if (o.contractorHeld) return 'ORDER_CONTRACTOR_HELD';
  if (!ASSIGNABLE_STATUS_IDS.includes(o.statusId)) return 'ORDER_NOT_DISPATCHABLE';
  return null;
}

/** The refusal with its code's message. */
export const refuse = (code: DispatchCode) => fail(code, CODE_MESSAGE[code]);
