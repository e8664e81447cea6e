/**
 * Pricing with a business's model: the distance measured (road or great-circle, router.ts) and the pure price
 * (domain.ts). The rate operation answers it; the orders module's pricing hook stores it on each new order.
 */
import type { Em } from '../../platform/db/orm.ts';
import type { OrderPrice, OrderPricingHook, OrderToPrice, PricingEnv } from '../orders/index.ts';
import { formatDecimal, parseDecimal, priceDelivery, type PriceModel, type Quote } from './domain.ts';
import { findPriceModel } from './repo.ts';
import { measureDistance, type DistanceSource, type RouterConfig } from './router.ts';

export interface PricedDelivery {
  quote: Quote;
  /** Null when the model prices no distance. */
  distance: { meters: number; source: DistanceSource } | null;
}

/** The delivery priced under the model, or NO_DISTANCE when the model charges per km and `to` has no coordinates. */
export async function priceWithModel(
  env: PricingEnv,
  model: PriceModel,
  d: {
    type: 'D' | 'P' | 'P2P';
    to: { lat?: number | null; lng?: number | null };
    packageWeightsGrams: readonly (number | null | undefined)[];
    hasTimeWindow: boolean;
  },
  router: RouterConfig | null = env.config.router,
): Promise<PricedDelivery | 'NO_DISTANCE'> {
  const chargesDistance = (parseDecimal(model.per_km, 4) ?? 0n) > 0n;
  const { lat, lng } = d.to;
  const distance =
    chargesDistance && lat != null && lng != null
      ? await measureDistance(router, model.origin, { lat, lng }, env.log)
      : null;
  const quote = priceDelivery(model, {
    type: d.type,
    distanceMeters: distance?.meters ?? null,
    packageWeightsGrams: d.packageWeightsGrams.length > 0 ? d.packageWeightsGrams : [null],
    hasTimeWindow: d.hasTimeWindow,
  });
  return quote === 'NO_DISTANCE' ? quote : { quote, distance };
}

export const kilometres = (meters: number) => formatDecimal(BigInt(meters), 3);

/**
 * The orders module's pricing hook: every new order of a business with a model is priced as rate would price it;
 * an order the model cannot price (no coordinates where it charges per km) is created unpriced, never refused.
 * Once the road router fails, the rest of the placement is priced great-circle: a batch of thousands must not wait
 * out the router's timeout once per order.
 */
export const priceNewOrders: OrderPricingHook = async (em: Em, env: PricingEnv, businessId, orders) => {
  const model = await findPriceModel(em, businessId);
  if (!model) return orders.map(() => null);
  let router = env.config.router;
  const prices: (OrderPrice | null)[] = [];
  for (const o of orders) {
    const priced = await priceWithModel(env, model, deliveryOf(o), router);
    if (priced !== 'NO_DISTANCE' && priced.distance?.source === 'great_circle') router = null;
    prices.push(orderPriceOf(priced));
    env.onPriced?.();
  }
  return prices;
};

const deliveryOf = (o: OrderToPrice) => ({
  type: o.type,
  to: o.recipient.address,
  packageWeightsGrams: o.packageWeightsGrams,
  hasTimeWindow: o.hasTimeWindow,
});

const orderPriceOf = (p: PricedDelivery | 'NO_DISTANCE'): OrderPrice | null =>
  p === 'NO_DISTANCE'
    ? null
    : {
        shippingPrice: p.quote.shipping_price,
        tax: p.quote.tax,
        currency: p.quote.currency,
        priceDetails: p.quote.price_details as unknown as Record<string, unknown>[],
      };
