/**
 * Comparing carriers and buying in one call (docs/labels.md, "Our own operations"): the rate input asked of every
 * carrier, ranked (cheapest, fastest, the best of each carrier); quote-and-ship then buys the chosen rate through
 * the one purchase path (buyAtRate), so its idempotency and its refusals are submitOrder's.
 */
import { z } from 'zod';
import { STAFF } from '../../../platform/roles.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { fail } from '../errorCodes.ts';
import { labelOrderByKey } from '../repo/labelOrders.ts';
import { rateById, type RateRow } from '../repo/rates.ts';
import { CarrierMessage, PurchaseAnswer, PurchaseInputShape, RateInputShape, RateView } from '../views.ts';
import { purchaseAnswer } from './present.ts';
import { buyAtRate, replay } from './purchase.ts';
import { labelPricesHidden, presentRate, quoteLabels } from './rate.ts';

const byPrice = (a: RateRow, b: RateRow) =>
  Number(a.total_charge) - Number(b.total_charge) || a.transit_days - b.transit_days;
const bySpeed = (a: RateRow, b: RateRow) =>
  a.transit_days - b.transit_days || Number(a.total_charge) - Number(b.total_charge);

/** The best rate of each carrier (cheapest, or fastest when prices are hidden), in the order of `rates`. */
function bestPerCarrier(rates: readonly RateRow[]): RateRow[] {
  const best = new Map<string, RateRow>();
  for (const r of rates) if (!best.has(r.carrier)) best.set(r.carrier, r);
  return [...best.values()];
}

const CompareAnswer = z.object({
  result: z.literal(true),
  rates: z.array(RateView).describe('Cheapest first; fastest first when price_hidden'),
  cheapest_rate_id: z
    .string()
    .optional()
    .describe('The lowest total_charge (then the fewest days); absent when price_hidden'),
  fastest_rate_id: z.string().describe('The fewest transit days (then the lowest price)'),
  best_per_carrier: z
    .array(z.object({ carrier: z.string(), carrier_name: z.string(), rate_id: z.string() }))
    .describe("Each carrier's cheapest rate (its fastest when price_hidden)"),
  messages: z.array(CarrierMessage).describe('Carriers that gave no rate, each with its own code and message'),
  price_hidden: z.literal(true).optional(),
});

/** Rates the shipment and ranks the rates for this caller: by transit days when prices are hidden from it. */
async function compareRates(ctx: BusinessContext, input: z.output<typeof CompareInput>) {
  const quote = await quoteLabels(ctx, input);
  if (quote.rates.length === 0) throw fail('NO_CARRIER_ACCOUNT', 'labels.no_carrier_account');
  const hidden = await labelPricesHidden(ctx);
  const rates = [...quote.rates].sort(hidden ? bySpeed : byPrice);
  return {
    hidden,
    rates,
    cheapest: [...quote.rates].sort(byPrice)[0]!,
    fastest: [...quote.rates].sort(bySpeed)[0]!,
    messages: quote.messages,
  };
}

const CompareInput = z.object(RateInputShape).strict();

export const labelCompare = defineOperation({
  name: 'labelservice_compare',
  summary: 'Rate a shipment with every carrier and rank the rates: cheapest, fastest and the best of each carrier.',
  description:
    'Asks the carriers as labelservice_rate does (the same input, the same stored rate_ids, the same `messages` for carriers that failed) and ranks the answer: `cheapest_rate_id` (lowest total_charge, then fewest transit days), `fastest_rate_id` (fewest transit days, then lowest price) and `best_per_carrier` (each carrier’s cheapest). For a customer account its business hides label prices from, prices are left out (`price_hidden: true`), there is no `cheapest_rate_id`, and rates are sorted by transit days, each carrier’s best being its fastest. When no rate is left after `services`, NO_CARRIER_ACCOUNT.',
  tag: 'Labels',
  roles: [...STAFF, 'customer'],
  business: true,
  rest: { method: 'POST', path: '/v1/labelservice/compare' },
  graphql: { name: 'labelserviceCompare', kind: 'mutation' },
  mcp: { scope: 'labels:read', risk: 'low', tool: 'compare_all_carriers' },
  limit: 'quote',
  failures: { NO_CARRIER_ACCOUNT: true, CARRIER_ERROR: true },
  input: CompareInput,
  output: CompareAnswer,
  async handler(input, ctx) {
    const c = await compareRates(ctx, input);
    return {
      result: true as const,
      rates: c.rates.map((r) => presentRate(ctx, r, c.hidden)),
      ...(!c.hidden && { cheapest_rate_id: c.cheapest.id }),
      fastest_rate_id: c.fastest.id,
      best_per_carrier: bestPerCarrier(c.rates).map((r) => {
        const view = presentRate(ctx, r, true);
        return { carrier: r.carrier, carrier_name: view.carrier_name, rate_id: r.id };
      }),
      messages: c.messages,
      ...(c.hidden && { price_hidden: true as const }),
    };
  },
});

const QuoteAndShipInput = z
  .object({
    ...RateInputShape,
    choose: z
      .enum(['cheapest', 'fastest'])
      .describe('Which rate to buy: the lowest total_charge, or the fewest transit days (ties: the other criterion)'),
    idempotency_key: PurchaseInputShape.idempotency_key,
    label_format: PurchaseInputShape.label_format,
    customer_id: PurchaseInputShape.customer_id,
  })
  .strict();

const QuoteAndShipAnswer = PurchaseAnswer.extend({
  chosen_rate: RateView.describe('The rate bought'),
  rates: z.array(RateView).describe('Every rate of the quote (on a replay, the rate bought only)'),
  messages: z.array(CarrierMessage),
});

export const labelQuoteAndShip = defineOperation({
  name: 'labelservice_quote_and_ship',
  summary: 'Rate a shipment with every carrier and buy the cheapest or fastest label in one call.',
  description:
    'Rates as labelservice_compare does, then buys the rate `choose` names through the same purchase as labelservice_submit_order: answers 201 with its answer plus `chosen_rate` and every `rates`. With `idempotency_key` a retry rates nothing and buys nothing: it answers the first purchase (`replayed: true`, `rates` holding the rate bought), its refusal included (LABEL_PURCHASE_FAILED, 424, the order kept in status 60); while the first is still with the carrier, PURCHASE_IN_PROGRESS. Prices are left out, with `price_hidden: true`, for a customer account its business hides label prices from.',
  tag: 'Labels',
  roles: [...STAFF, 'customer'],
  business: true,
  rest: { method: 'POST', path: '/v1/labelservice/quote-and-ship', status: 201 },
  graphql: { name: 'labelserviceQuoteAndShip', kind: 'mutation' },
  mcp: { scope: 'labels:write', risk: 'medium', tool: 'quote_and_ship' },
  limit: 'quote',
  failures: {
    NO_CARRIER_ACCOUNT: true,
    CARRIER_ERROR: true,
    RATE_EXPIRED: 'The rates expired before the purchase (a carrier slower than LABEL_RATE_TTL_MINUTES)',
    RATE_ALREADY_USED: true,
    IDEMPOTENCY_KEY_REUSED: true,
    PURCHASE_IN_PROGRESS: true,
    LABEL_PURCHASE_FAILED: true,
  },
  input: QuoteAndShipInput,
  output: QuoteAndShipAnswer,
  async handler(input, ctx) {
    const businessId = ctx.caller.businessId;
    const key = input.idempotency_key;
    const earlier = key ? await labelOrderByKey(ctx.em, businessId, key) : null;
    if (earlier) {
      await replay(ctx, earlier, null);
      const rate = earlier.rate_id ? await rateById(ctx.em, businessId, earlier.rate_id) : null;
      if (!rate) throw fail('IDEMPOTENCY_KEY_REUSED', 'labels.idempotency_key_reused');
      const answer = await purchaseAnswer(ctx, earlier.order_id, true);
      const chosen = presentRate(ctx, rate, await labelPricesHidden(ctx));
      return { ...answer, chosen_rate: chosen, rates: [chosen], messages: [] };
    }
    const c = await compareRates(ctx, input);
    const rate = input.choose === 'cheapest' ? c.cheapest : c.fastest;
    const { orderId, replayed } = await buyAtRate(ctx, {
      rate_id: rate.id,
      idempotency_key: key,
      label_format: input.label_format,
      customer_id: input.customer_id,
    });
    const answer = await purchaseAnswer(ctx, orderId, replayed);
    return {
      ...answer,
      chosen_rate: presentRate(ctx, rate, c.hidden),
      rates: c.rates.map((r) => presentRate(ctx, r, c.hidden)),
      messages: c.messages,
    };
  },
});
