import { z } from 'zod';
import { STAFF } from '../../../platform/roles.ts';
import { intParam } from '../../../platform/catalog/schemas.ts';
import { errors } from '../../../platform/errors.ts';
import type { BusinessContext } from '../../../platform/catalog/types.ts';
import { isCustomerOfBusiness, localPricesHiddenFrom } from '../repo/orders.ts';
import { OrderView } from '../views.ts';
import { actorOf } from '../actor.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { afterOrdersPlaced, OrderPlacementInput, placeOrders } from '../placement.ts';

export const orderCreate = defineOperation({
  name: 'client_order_create',
  summary: 'Create a local delivery (D), pickup (P) or peer-to-peer (P2P) order.',
  description:
    "The order starts in status NEW_ORDER, delivered by the business itself. Without `packages` it gets one unmeasured package (at most 50); the first package's number is the order's tracking number. Emits the order.created webhook event, and when one of the business's third-party rules matches, the order is handed to that delivery provider at once (`third_party_assignment`). When the business has a delivery price model, the order is priced as rate prices it and keeps that price (`shipping_price`, `tax`, `currency`, `price_details` in get_order_detail); without a model, or without the recipient's coordinates where the model charges per kilometre, it is created unpriced. The answer shows the price too (left out, with `price_hidden: true`, for a customer account its business hides local delivery prices from). A customer account's order is placed for itself; staff may name a customer account of the business with `customer_id`. Not idempotent: before retrying a call whose answer was lost, look for its `order_ref` with get_orders. Invalid input is VALIDATION_FAILED.",
  tag: 'Client',
  roles: [...STAFF, 'customer'],
  business: true,
  rest: { method: 'POST', path: '/v1/client/orderCreate' },
  graphql: { name: 'clientOrderCreate', kind: 'mutation' },
  mcp: { scope: 'orders:write', risk: 'medium', tool: 'create_order', servers: ['user', 'developer'] },
  input: OrderPlacementInput.extend({
    customer_id: intParam()
      .nullish()
      .describe(
        "The customer account (role customer, a B2B sub-account of your business) the order is placed for: it then sees the order and its webhook override receives the order's events. A customer account placing its own order leaves it out (or names itself).",
      ),
  }).strict(),
  output: z.object({
    result: z.literal(true),
    order_id: z.number().int(),
    tracking_number: z.string(),
    packages: z.array(z.object({ position: z.number().int(), package_number: z.string() })),
    third_party_assignment: z
      .string()
      .nullable()
      .describe("The assignment number when one of the business's third-party rules handed the order to a provider"),
    ...OrderView.pick({ shipping_price: true, tax: true, currency: true, price_details: true, price_hidden: true })
      .shape,
  }),
  async handler(input, ctx) {
    const customerId = await placementCustomerOf(ctx, input.customer_id ?? null);
    const [placed] = await placeOrders(
      ctx.em,
      ctx.caller.businessId,
      [{ ...input, customer_id: customerId }],
      actorOf(ctx),
      { pricing: ctx },
    );
    const [thirdPartyAssignment] = await afterOrdersPlaced(ctx, [placed!]);
    return {
      result: true as const,
      order_id: placed!.orderId,
      tracking_number: placed!.trackingNumber,
      packages: placed!.packageNumbers.map((number, i) => ({ position: i + 1, package_number: number })),
      third_party_assignment: thirdPartyAssignment ?? null,
      ...((await localPricesHiddenFrom(ctx.em, ctx.caller))
        ? { price_hidden: true as const }
        : {
            shipping_price: placed!.price?.shippingPrice ?? null,
            tax: placed!.price?.tax ?? null,
            currency: placed!.price?.currency ?? null,
            price_details: (placed!.price?.priceDetails as OrderView['price_details']) ?? null,
          }),
    };
  },
});

/**
 * The customer account an order is placed for: the caller itself when it is a customer account; else the one the
 * business names, which must be a customer account of the same business (VALIDATION_FAILED on customer_id otherwise,
 * the same answer for another business's account as for no account, so ids of other businesses are not probed).
 */
export async function placementCustomerOf(ctx: BusinessContext, named: number | null): Promise<number | null> {
  const { caller } = ctx;
  if (caller.role === 'customer') {
    if (named !== null && named !== caller.id) throw errors.field('customer_id', 'field.not_a_customer');
    return caller.id;
  }
  if (named === null) return null;
  if (!(await isCustomerOfBusiness(ctx.em, caller.businessId, named)))
    throw errors.field('customer_id', 'field.not_a_customer');
  return named;
}
