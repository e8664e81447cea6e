/**
 * Local delivery prices (docs/orders.md, Local prices and customer-placed orders): the business administrator sets
 * and reads the price model; staff and customer accounts price a delivery without creating an order (rate, MCP
 * quote_delivery). A customer whose business hides local delivery prices from it gets the quote without a figure.
 */
import { z } from 'zod';
import { defineOperation } from '../../platform/catalog/types.ts';
import { localPricesHiddenFrom } from '../orders/index.ts';
import { fail } from './errorCodes.ts';
import { kilometres, priceWithModel } from './pricing.ts';
import { findPriceModel, savePriceModel } from './repo.ts';
import { modelOfInput, PriceModelInput, PriceModelView, presentModel, RateInput, RateOutput } from './views.ts';

const MODEL_EXAMPLE = {
  currency: 'EUR',
  base_fee: '4.90',
  per_km: '0.85',
  per_kg: '0.50',
  included_weight_kg: '5',
  p2p_surcharge: '2.00',
  time_window_surcharge: '3.00',
  extra_package_surcharge: '1.00',
  tax_rate: '20',
  origin: { lat: 48.8566, lng: 2.3522 },
};

export const priceModelGet = defineOperation({
  name: 'delivery_price_model_get',
  summary: "The business's local delivery price model.",
  description:
    'What client_order_create prices each new order with and rate quotes with: a base fee, a rate per kilometre from the depot (`origin`), a rate per started kilogram above the included weight, surcharges (P2P, time window, per extra package), a tax rate and a currency. Every figure is an exact decimal string. `price_model` is null until the administrator sets one; orders are then created without a price.',
  tag: 'Client',
  roles: ['client_admin'],
  business: true,
  rest: { method: 'GET', path: '/v1/client/delivery-price-model' },
  graphql: { name: 'deliveryPriceModel', kind: 'query' },
  input: z.object({}).strict(),
  output: z.object({ result: z.literal(true), price_model: PriceModelView.nullable() }),
  async handler(_input, ctx) {
    const model = await findPriceModel(ctx.em, ctx.caller.businessId);
    return { result: true as const, price_model: model ? presentModel(model) : null };
  },
});

export const priceModelSet = defineOperation({
  name: 'delivery_price_model_set',
  summary: "Set the business's local delivery price model (replaces it whole).",
  description:
    'Every figure is an exact decimal string (money up to 999999.9999 with four decimals at most, never a JSON number, so no rounding happens on the way); `currency` is an ISO 4217 code; `origin` is the depot the distance is measured from. Fields left out of per_kg, included_weight_kg, the surcharges and tax_rate are 0. Orders created from now on are priced with it; orders already created keep their price. VALIDATION_FAILED names each bad field.',
  tag: 'Client',
  roles: ['client_admin'],
  business: true,
  rest: { method: 'PUT', path: '/v1/client/delivery-price-model' },
  graphql: { name: 'deliveryPriceModelSet', kind: 'mutation' },
  input: PriceModelInput,
  output: z.object({ result: z.literal(true), price_model: PriceModelView }),
  examples: {
    input: MODEL_EXAMPLE,
    output: { result: true, price_model: { ...MODEL_EXAMPLE, updated_at: '2026-12-01T09:00:00.000Z' } },
  },
  async handler(input, ctx) {
    const saved = await ctx.em.transactional((tx) =>
      savePriceModel(tx, ctx.caller.businessId, modelOfInput(input), ctx.caller.id),
    );
    return { result: true as const, price_model: presentModel(saved) };
  },
});

export const quoteDelivery = defineOperation({
  name: 'quote_delivery',
  summary: 'Price a local delivery without creating an order.',
  description:
    "What client_order_create would charge for this delivery now, under the business's price model: `shipping_price` (tax included), `tax`, `currency` and the lines of `price_details` (base fee, distance, weight, surcharges), every amount an exact decimal string with the currency's decimals. The distance is by road when the service has a road router (ROUTER_URL), else great-circle (`distance_source`); a model that charges per kilometre needs the address's lat and lng (DELIVERY_COORDINATES_REQUIRED otherwise). PRICE_MODEL_MISSING until the administrator sets a model. A customer account whose business hides local delivery prices from it gets no figure and `price_hidden: true`. Rate-limited per account (RATE_LIMIT_QUOTE, 120 a minute by default; RATE_LIMITED beyond), since each quote may ask the road router.",
  tag: 'Client',
  roles: ['client_admin', 'employee', 'customer'],
  business: true,
  rest: { method: 'POST', path: '/v1/orders/rate' },
  graphql: { name: 'ordersRate', kind: 'query' },
  mcp: { scope: 'orders:read', risk: 'low' },
  limit: 'quote',
  failures: {
    PRICE_MODEL_MISSING: true,
    DELIVERY_COORDINATES_REQUIRED: true,
  },
  input: RateInput,
  output: RateOutput,
  async handler(input, ctx) {
    const { caller } = ctx;
    const model = await findPriceModel(ctx.em, caller.businessId);
    if (!model) throw fail('PRICE_MODEL_MISSING', 'delivery_prices.model_missing');
    const priced = await priceWithModel(ctx, model, {
      type: input.type,
      to: input.address,
      packageWeightsGrams: (input.packages ?? []).map((p) => p.weight_grams),
      hasTimeWindow: input.time_window !== undefined,
    });
    if (priced === 'NO_DISTANCE') throw fail('DELIVERY_COORDINATES_REQUIRED', 'delivery_prices.coordinates_required');
    const { quote, distance } = priced;
    const facts = {
      distance_km: distance ? kilometres(distance.meters) : null,
      distance_source: distance?.source ?? null,
      chargeable_weight_kg: quote.chargeable_weight_kg,
    };
    if (await localPricesHiddenFrom(ctx.em, caller))
      return { result: true as const, price_hidden: true as const, ...facts };
    return {
      result: true as const,
      shipping_price: quote.shipping_price,
      tax: quote.tax,
      currency: quote.currency,
      price_details: quote.price_details,
      ...facts,
    };
  },
});

export const DELIVERY_PRICE_OPERATIONS = [priceModelGet, priceModelSet, quoteDelivery];
