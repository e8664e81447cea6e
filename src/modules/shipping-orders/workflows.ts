import { condition, proxyActivities, setHandler } from '@temporalio/workflow';
import { msUntilExpiry, ORDER_STEP_OPTIONS } from '../customer-services/contract.ts';
import {
  cancelledSignal,
  paidSignal,
  type ShippingOrderActivities,
  type ShippingOrderInput,
  type ShippingOrderOutcome,
} from './contract.ts';

/** The expiry is one short transaction. */
const { expireShippingOrder } = proxyActivities<ShippingOrderActivities>(ORDER_STEP_OPTIONS);

/**
 * A placement asks a carrier for a rate and a label, each call bounded by the carrier deadline; a retry after a
 * killed worker finds what the first attempt placed (by the order's row and the label's key).
 */
const { placeShippingDelivery } = proxyActivities<ShippingOrderActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 10 },
});

/**
 * A shipping order from creation to its delivery order (docs/customer-services.md, "Shipping orders"): waits for
 * the payment (signal `paid`) or a cancel until the order expires; an expired order ends, a paid one has its
 * delivery order placed.
 */
export async function shippingOrder(input: ShippingOrderInput): Promise<ShippingOrderOutcome> {
  let paid = input.confirmed;
  let cancelled = false;
  setHandler(paidSignal, () => {
    paid = true;
  });
  setHandler(cancelledSignal, () => {
    cancelled = true;
  });
  const settled = await condition(() => paid || cancelled, msUntilExpiry(input.expires_at));
  if (cancelled) return 'cancelled';
  if (!settled) {
    const found = await expireShippingOrder(input.shipping_order_id);
    if (found !== 'confirmed') return found;
  }
  const { placed } = await placeShippingDelivery(input.shipping_order_id);
  return placed ? 'placed' : 'not_placed';
}
