/**
 * Creating and reading shipping orders (docs/customer-services.md, "Shipping orders"). A new order is priced by its
 * service, written pending_payment (confirmed at once when its price is 0), and committed only once its process has
 * started (writeOnceStarted): no order is left without the process that expires or places it.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { offsetOf, pageOf, pageOutput, pageParams } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { AppError, errors } from '../../../platform/errors.ts';
import { writeOnceStarted } from '../../../platform/temporal/startWithRows.ts';
import { partyOf } from '../../labels/index.ts';
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
  return { result: true as const, shipping_order: presentOrder(ctx, row, await shippingPricesHidden(ctx)) };
}

/** The request as stored: every optional field present (null when not given), in a fixed order. */
function requestOf(input: CreateInput) {
  return {
    service_code: input.service_code,
    sender: input.sender ? partyOf(input.sender) : null,
    recipient: partyOf(input.recipient),
    packages: input.packages.map((p) => ({
      weight_grams: p.weight_grams,
      length_mm: p.length_mm ?? null,
      width_mm: p.width_mm ?? null,
      height_mm: p.height_mm ?? null,
      description: p.description ?? null,
    })),
    reference: input.reference ?? null,
  };
}

/** The SHA-256 of the canonical request: what a repeat of its idempotency key must match. */
const hashOf = (request: ReturnType<typeof requestOf>): string =>
  createHash('sha256').update(JSON.stringify(request)).digest('hex');

/** Raised inside the creation's transaction when a concurrent creation took the idempotency key first. */
class KeyTaken extends Error {}

/**
 * The order an earlier creation of the key wrote, answered again when the request is the same; another service or
 * shipment is IDEMPOTENCY_KEY_REUSED (an order written before requests were kept compares its service only).
 */
async function replay(ctx: BusinessContext, key: string, request: ReturnType<typeof requestOf>, hash: string) {
  const earlier = await repo.shippingOrderByKey(ctx.em, ctx.caller.businessId, ctx.caller.id, key);
  if (!earlier) return null;
  const same =
    earlier.request_hash !== null ? earlier.request_hash === hash : earlier.service_code === request.service_code;
  if (!same) throw new AppError(409, 'IDEMPOTENCY_KEY_REUSED', 'shipping_orders.key_reused');
  return readOrder(ctx, earlier.id);
}

async function create(ctx: BusinessContext, input: CreateInput) {
  const businessId = ctx.caller.businessId;
  const customerId = ctx.caller.id;
  const key = input.idempotency_key ?? null;
  const request = requestOf(input);
  const hash = hashOf(request);
  if (key) {
    const earlier = await replay(ctx, key, request, hash);
    if (earlier) return earlier;
  }
  const service = await activeShippingService(ctx, input.service_code);
  const { settings, price } = await priceOf(ctx, service, input);
  const id = await repo.nextShippingOrderId(ctx.em);
  const status = price.amount === 0n ? 'confirmed' : 'pending_payment';
  const expiresAt = new Date(Date.now() + settings.unpaid_expiry_seconds * 1000);
  try {
    await writeOnceStarted(
      ctx.em,
      startProcess(ctx.temporal, businessId, {
        shipping_order_id: id,
        expires_at: expiresAt.toISOString(),
        confirmed: status === 'confirmed',
      }),
      async (tx) => {
        const written = await repo.insertShippingOrder(tx, {
          id,
          business_id: businessId,
          customer_id: customerId,
          service_id: service.id,
          service_code: service.code,
          status,
          reference: request.reference,
          sender: request.sender,
          recipient: request.recipient,
          packages: request.packages,
          currency: price.currency,
          total: price.amount,
          tax: taxOf(price),
          price_details: price.price_details,
          expires_at: expiresAt,
          idempotency_key: key,
          request_hash: hash,
        });
        if (!written) throw new KeyTaken();
      },
      ctx.log,
      'shipping order',
    );
  } catch (err) {
    if (!(err instanceof KeyTaken)) throw err;
    // A racing creation of the same key wrote first: its order is this call's answer.
    const earlier = await replay(ctx, key!, request, hash);
    if (earlier) return earlier;
    throw err;
  }
  return readOrder(ctx, id);
}

export const createShippingOrder = defineOperation({
  name: 'create_shipping_order',
  summary: 'Order a shipment by a shipping service: priced now, paid from your wallet, then delivered.',
  description: `The shipment (sender optional: the business's default shipper; recipient; 1 to max_packages packages, each at most max_weight_grams, else VALIDATION_FAILED) is priced by the service and stored pending_payment until \`expires_at\` (the business's unpaid expiry): pay it with pay_shipping_order, or it expires. A price of 0 is confirmed at once. Once confirmed, its delivery order is placed (the business's own fleet, or a carrier label) and shows under \`order\`. With \`idempotency_key\` a repeat of the same request creates nothing and answers the first order of that key; the key with another service or another shipment (sender, recipient, packages, reference) is IDEMPOTENCY_KEY_REUSED. Answers 201 with the order as \`shipping_order\`. ${CUSTOMER_RULE} ${HIDDEN_RULE}`,
  tag: TAG,
  roles: ROLES,
  business: true,
  rest: { method: 'POST', path: '/v1/customer/shipping-orders/services/{service_code}/orders', status: 201 },
  graphql: { name: 'createShippingOrder', kind: 'mutation' },
  mcp: { scope: 'customer_shipping:write', risk: 'medium' },
  failures: {
    NOT_FOUND: 'No active shipping service of the business has this code',
    IDEMPOTENCY_KEY_REUSED: 'The key created another shipping order (another service or another shipment)',
  },
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
  mcp: { scope: 'customer_shipping:read', risk: 'low' },
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
  description: `Answers the order as \`shipping_order\`: \`order\` is its delivery order once placed (tracking number and status), else null; \`balance_due\` what is left to pay; \`can_cancel\` whether cancel_shipping_order may still be asked; \`cancel_reason\` why a cancelled order was cancelled. ${ORDER_RULE} ${HIDDEN_RULE}`,
  tag: TAG,
  roles: ROLES,
  business: true,
  rest: { method: 'GET', path: '/v1/customer/shipping-orders/{id}' },
  graphql: { name: 'shippingOrder', kind: 'query' },
  mcp: { scope: 'customer_shipping:read', risk: 'low' },
  failures: { NOT_FOUND: 'No shipping order of yours has this id' },
  input: IdInput,
  output: OrderAnswer,
  async handler(input, ctx) {
    return readOrder(ctx, input.id);
  },
});

/** The tax of a price answer in minor units (its `amount` is the total's). */
const taxOf = (price: { tax: string; currency: string }): bigint => minorOf(price.tax, price.currency);
