/** Rates spanning both kinds (docs/uniorder.md, "Rates spanning both kinds"), one shipment or a batch of 20. */
import { STAFF } from '../../../platform/roles.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { parseInput } from '../../../platform/catalog/validate.ts';
import { AppError } from '../../../platform/errors.ts';
import { BATCH_LIMIT, mapLimited, UNIORDER_CARRIER_CONCURRENCY } from '../domain.ts';
import { RateBatchAnswer, RateBatchInput, UniorderRateAnswer, UniorderRateInput } from '../views.ts';
import { rateItem, refusalOf } from './items.ts';

const RATE_RULES =
  'The self delivery rate is priced by the business’s local price model exactly as orders_rate prices it (type, coordinates for a per-km model, parcels’ weights, time window); it is stored with an `sr_` rate_id. With `quote_labels: true` every connected label carrier is asked too, as labelservice_rate asks it (for P2P the label ships from `pickup`; a collection, type P, has no label rates: message NOT_LABEL_SHIPPABLE), each rate stored with an `lr_` rate_id. Rates come self delivery first, then labels by total_charge. A kind or carrier that gives no rate is a `messages` entry with its code (PRICE_MODEL_MISSING, DELIVERY_COORDINATES_REQUIRED, NO_CARRIER_ACCOUNT, a carrier’s own code); only when no rate at all can come (no price model and quote_labels false) is the answer PRICE_MODEL_MISSING (409). Each rate_id creates one order (uniorder_create) before its `expires_at` (30 minutes). Prices are hidden per rate by its family (local_delivery or label_service) for a customer account its business hides them from: the rate leaves out every price field and carries `price_hidden: true`, and so does the answer.';

export const uniorderRate = defineOperation({
  name: 'uniorder_rate',
  summary: 'Rate a shipment both ways: by the business’s own fleet and, on request, by every label carrier.',
  description: RATE_RULES,
  tag: 'Uniorder',
  roles: [...STAFF, 'customer'],
  business: true,
  rest: { method: 'POST', path: '/v1/uniorder/rate' },
  graphql: { name: 'uniorderRate', kind: 'mutation' },
  mcp: { scope: 'uniorder:read', risk: 'low' },
  limit: 'quote',
  failures: { PRICE_MODEL_MISSING: 'No price model and quote_labels false: no rate can come' },
  input: UniorderRateInput,
  output: UniorderRateAnswer,
  async handler(input, ctx) {
    return rateItem(ctx, input);
  },
});

export const uniorderRateBatch = defineOperation({
  name: 'uniorder_rate_batch',
  summary: `Rate up to ${BATCH_LIMIT} shipments in one call, each judged on its own.`,
  description: `Each item is a uniorder_rate input, rated as uniorder_rate rates it, ${UNIORDER_CARRIER_CONCURRENCY} items at a time. An item that is invalid or can have no rate is its own result \`{index, result: false, code, message, errors?}\`; the others are \`{index, result: true, rates, messages}\`. The whole call is VALIDATION_FAILED only when \`items\` is missing, empty, holds more than ${BATCH_LIMIT} items or an item that is not an object.`,
  tag: 'Uniorder',
  roles: [...STAFF, 'customer'],
  business: true,
  rest: { method: 'POST', path: '/v1/uniorder/rate/batch' },
  graphql: { name: 'uniorderRateBatch', kind: 'mutation' },
  mcp: { scope: 'uniorder:read', risk: 'low' },
  limit: 'quote',
  input: RateBatchInput,
  output: RateBatchAnswer,
  async handler(input, ctx) {
    const results = await mapLimited(
      input.items.map((item, index) => ({ item, index })),
      UNIORDER_CARRIER_CONCURRENCY,
      async ({ item, index }) => {
        try {
          const { result: _r, ...answer } = await rateItem(ctx, parseInput(UniorderRateInput, item));
          return { index, result: true as const, ...answer };
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          const { ok: _ok, order_id: _o, ...refusal } = refusalOf(ctx, err);
          return { index, result: false as const, ...refusal };
        }
      },
    );
    return { result: true as const, results };
  },
});
