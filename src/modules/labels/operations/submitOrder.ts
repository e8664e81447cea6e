/** Buying a label at a rate (docs/labels.md, "POST /v1/labelservice/submitOrder"). */
import { z } from 'zod';
import { STAFF } from '../../../platform/roles.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { optionalText, PurchaseAnswer, PurchaseInputShape } from '../views.ts';
import { buyAtRate } from './purchase.ts';
import { purchaseAnswer } from './present.ts';

export const SubmitOrderInput = z
  .object({
    rate_id: z.string().min(1).max(64).describe('A rate_id from labelservice_rate, not expired and not used'),
    reference: optionalText(100).describe("The order's reference (order_ref); the rate's reference when absent"),
    ...PurchaseInputShape,
  })
  .strict();

export const labelSubmitOrder = defineOperation({
  name: 'labelservice_submit_order',
  summary: 'Buy a label at a rate: the order is created and its label bought from the carrier.',
  description:
    'Creates a label order (an order of type D carried by the rate’s carrier, priced at the rate, family label_service) and buys its label with the carrier at the rate’s shipment and price; answers 201 with the order and its label (download it with shipping_get_label). When the carrier refuses, the order is kept in status 60 LABEL_PURCHASE_FAILED with the reason, and the answer is LABEL_PURCHASE_FAILED (424) with `order_id` and `carrier_error`; its label can be bought later (uniorder_purchase_label). A rate buys one label (RATE_ALREADY_USED with its `order_id`) before its `expires_at` (RATE_EXPIRED). With `idempotency_key` a retry buys nothing: it answers the first purchase (`replayed: true`), its refusal included; the key with another rate is IDEMPOTENCY_KEY_REUSED, and while the first is still with the carrier PURCHASE_IN_PROGRESS.',
  tag: 'Labels',
  roles: [...STAFF, 'customer'],
  business: true,
  rest: { method: 'POST', path: '/v1/labelservice/submitOrder', status: 201 },
  graphql: { name: 'labelserviceSubmitOrder', kind: 'mutation' },
  mcp: { scope: 'labels:write', risk: 'medium', tool: 'create_shipping_label', servers: ['user', 'developer'] },
  failures: {
    NO_CARRIER_ACCOUNT: 'The rate’s carrier account was disconnected',
    RATE_EXPIRED: true,
    RATE_ALREADY_USED: true,
    IDEMPOTENCY_KEY_REUSED: true,
    PURCHASE_IN_PROGRESS: true,
    LABEL_PURCHASE_FAILED: true,
  },
  input: SubmitOrderInput,
  output: PurchaseAnswer,
  async handler(input, ctx) {
    const { orderId, replayed } = await buyAtRate(ctx, input);
    return purchaseAnswer(ctx, orderId, replayed);
  },
});
