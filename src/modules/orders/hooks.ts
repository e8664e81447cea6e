/**
 * What other modules do once an order is created, after its transaction has committed: a business's third-party
 * rules may hand it to a delivery provider. A module names its hook in its descriptor (`hooks: { orderCreated }`);
 * the orders module knows nothing of who listens.
 */
import type { BusinessContext } from '../../platform/catalog/types.ts';
import { hooksOf } from '../../platform/hooks.ts';

export interface CreatedOrder {
  id: number;
  businessId: number;
  postalCode: string;
}

/** A hook answers what it did that the order's creator should see (the third-party assignment's number), or nothing. */
export type OrderCreatedHook = (
  ctx: BusinessContext,
  order: CreatedOrder,
) => Promise<{ thirdPartyAssignment: string } | null>;

declare module '../../platform/hooks.ts' {
  interface ModuleHooks {
    orderCreated: OrderCreatedHook;
  }
}

/**
 * Runs every hook. The order has committed: a hook that fails is logged and the order is answered all the same,
 * since a failed answer would make its creator send it again and create a twin.
 */
export async function runOrderCreatedHooks(
  ctx: BusinessContext,
  order: CreatedOrder,
): Promise<{ thirdPartyAssignment: string | null }> {
  let thirdPartyAssignment: string | null = null;
  for (const hook of hooksOf('orderCreated')) {
    try {
      thirdPartyAssignment = (await hook(ctx, order))?.thirdPartyAssignment ?? thirdPartyAssignment;
    } catch (err) {
      ctx.log.error({ err, orderId: order.id }, 'an order-created hook failed; the order stays as created');
    }
  }
  return { thirdPartyAssignment };
}
