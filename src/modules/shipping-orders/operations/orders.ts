/**
 * Creating and reading shipping orders (docs/customer-services.md, "Shipping orders"). A new order is priced by its
 * service, written pending_payment (confirmed at once when its price is 0) and its process started after the commit.
 */
import { z } from 'zod';
import { offsetOf, pageOf, pageOutput, pageParams } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { errors } from '../../../platform/errors.ts';
import { partyOf } from '../domain.ts';
import * as repo from '../repo.ts';
import { CreateInput, IdInput, OrderAnswer, SERVICE_CODE, ShippingOrderView } from '../views.ts';
import { minorOf, presentOrder, shippingPricesHidden, startProcess } from './present.ts';
import { activeShippingService, CUSTOMER_RULE, priceOf } from './services.ts';

const ROLES = ['customer'] as const;
const TAG = 'Customer shipping orders';
const ORDER_RULE =
  'For customer accounts only (every other role is FORBIDDEN); another customer’s order, or an unknown id, is NOT_FOUND.';
const HIDDEN_RULE =
  'When the business hides shipping_service prices from the customer, total, tax, currency, price_details, paid_amount and balance_due are left out and the answer carries `price_hidden: true`.';

/** The caller's order as answered, or NOT_FOUND. */
export async function readOrder(ctx: BusinessContext, id: number) {
  const row = await repo.shippingOrderOf(ctx.em, ctx.caller.businessId, ctx.caller.id, id);
  if (!row) throw errors.notFound();
  return { result: true as const, ...presentOrder(ctx, row, await shippingPricesHidden(ctx)) };
}

async function create(ctx: BusinessContext, input: CreateInput) {
  const businessId = ctx.caller.businessId;
  const customerId = ctx.caller.id;
  const key = input.idempotency_key ?? null;
  if (key) {
    const earlier = await repo.shippingOrderByKey(ctx.em, businessId, customerId, key);
    if (earlier) {
      // Its creation may have died between its commit and the start of its process.
      await startProcess(ctx.temporal, earlier);
      return readOrder(ctx, earlier.id);
    }
  }
  const service = await activeShippingService(ctx, input.service_code);
  const { settings, price } = await priceOf(ctx, service, input);
  const id = await repo.insertShippingOrder(ctx.em, {
    business_id: businessId,
    customer_id: customerId,
    service_id: service.id,
    service_code: service.code,
    status: price.amount === 0n ? 'confirmed' : 'pending_payment',
    reference: input.reference ?? null,
    sender: input.sender ? partyOf(input.sender) : null,
    recipient: partyOf(input.recipient),
    packages: input.packages.map((p) => ({
      weight_grams: p.weight_grams,
      length_mm: p.length_mm ?? null,
      width_mm: p.width_mm ?? null,
      height_mm: p.height_mm ?? null,
      description: p.description ?? null,
    })),
    currency: price.currency,
    total: price.amount,
    tax: taxOf(price),
    price_details: price.price_details,
    expires_at: new Date(Date.now() + settings.unpaid_expiry_seconds * 1000),
    idempotency_key: key,
  });
  // A racing creation of the same key wrote first: its order is this call's answer.
  const row = id
    ? await repo.shippingOrderOf(ctx.em, businessId, customerId, id)
    : await repo.shippingOrderByKey(ctx.em, businessId, customerId, key!);
  await startProcess(ctx.temporal, row!);
  return readOrder(ctx, row!.id);
}

export const createShippingOrder = defineOperation({
  name: 'create_shipping_order',
  summary: 'Order a shipment by a shipping service: priced now, paid from your wallet, then delivered.',
  description: `The shipment (sender optional: the business's default shipper; recipient; 1 to max_packages packages, each at most max_weight_grams, else VALIDATION_FAILED) is priced by the service and stored pending_payment until \`expires_at\` (the business's unpaid expiry): pay it with pay_shipping_order, or it expires. A price of 0 is confirmed at once. Once confirmed, its delivery order is placed (the business's own fleet, or a carrier label) and shows under \`order\`. With \`idempotency_key\` a repeat creates nothing and answers the first order of that key. Answers 201 with the order. ${CUSTOMER_RULE} ${HIDDEN_RULE}`,
  tag: TAG,
  roles: ROLES,
  business: true,
  rest: { method: 'POST', path: '/v1/customer/shipping-orders/services/{service_code}/orders', status: 201 },
  graphql: { name: 'createShippingOrder', kind: 'mutation' },
  failures: { NOT_FOUND: 'No active shipping service of the business has this code' },
  input: CreateInput,
  output: OrderAnswer,
  async handler(input, ctx) {
    return create(ctx, input);
  },
});

export const listShippingOrders = defineOperation({
  name: 'list_shipping_orders',
  summary: 'Your shipping orders of one service, newest first.',
  description: `A page of the caller's orders of the service (an inactive service's orders too); an unknown code answers an empty page. ${ORDER_RULE} ${HIDDEN_RULE}`,
  tag: TAG,
  roles: ROLES,
  business: true,
  rest: { method: 'GET', path: '/v1/customer/shipping-orders/services/{service_code}/orders' },
  graphql: { name: 'shippingOrders', kind: 'query' },
  input: z.object({ service_code: SERVICE_CODE, ...pageParams }).strict(),
  output: pageOutput('orders', ShippingOrderView),
  async handler(input, ctx) {
    const { total, rows } = await repo.listShippingOrders(ctx.em, {
      businessId: ctx.caller.businessId,
      customerId: ctx.caller.id,
      serviceCode: input.service_code,
      offset: offsetOf(input),
      limit: input.per_page,
    });
    const hidden = await shippingPricesHidden(ctx);
    return pageOf(
      input,
      'orders',
      total,
      rows.map((r) => presentOrder(ctx, r, hidden)),
    );
  },
});

export const getShippingOrder = defineOperation({
  name: 'get_shipping_order',
  summary: 'One of your shipping orders: its state, price, payments and delivery order.',
  description: `\`order\` is its delivery order once placed (tracking number and status), else null; \`balance_due\` what is left to pay; \`can_cancel\` whether cancel_shipping_order may still be asked. ${ORDER_RULE} ${HIDDEN_RULE}`,
  tag: TAG,
  roles: ROLES,
  business: true,
  rest: { method: 'GET', path: '/v1/customer/shipping-orders/{id}' },
  graphql: { name: 'shippingOrder', kind: 'query' },
  failures: { NOT_FOUND: 'No shipping order of yours has this id' },
  input: IdInput,
  output: OrderAnswer,
  async handler(input, ctx) {
    return readOrder(ctx, input.id);
  },
});

/** The tax of a price answer in minor units (its `amount` is the total's). */
const taxOf = (price: { tax: string; currency: string }): bigint => minorOf(price.tax, price.currency);
