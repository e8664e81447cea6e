/**
 * Creating, reading, printing, tracking, cancelling and buying again an order of either kind (docs/uniorder.md,
 * "The eleven endpoints"). A label order's label goes through the labels module, a local order's cancellation
 * through order-cancellation, its timeline through tracking: each through its index.ts.
 */
import { z } from 'zod';
import { pathId } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { AppError } from '../../../platform/errors.ts';
import { STAFF } from '../../../platform/roles.ts';
import {
  cancelFailedLabelOrder,
  labelDocumentAnswer,
  localLabelAnswer,
  rebuyLabel,
  statusFor,
  voidLabel,
} from '../../labels/index.ts';
import { orderCancel } from '../../order-cancellation/index.ts';
import { ORDER_STATUS } from '../../orders/index.ts';
import { otepClientTracking } from '../../tracking/index.ts';
import { UniorderCreateInput, UniorderOrderView } from '../views.ts';
import { createOrder } from './items.ts';
import { orderView, readOrder } from './view.ts';

const ROLES = [...STAFF, 'customer'] as const;
const ORDER_RULE =
  'Any order of the business reads here, local or label (`kind`); a customer account reads its own orders. An order of another business, an unknown id or a non-numeric one is NOT_FOUND.';

export const uniorderCreate = defineOperation({
  name: 'uniorder_create',
  summary: 'Create the order at a rate of uniorder_rate: a local delivery order, or a label order that buys its label.',
  description:
    'At an `sr_` rate the local order is placed as rated, at the rate’s price (not priced again), scheduled on the rate’s ship date; at an `lr_` rate the label order is created and its label bought, as labelservice_submit_order does. Answers 201 with the order view. A rate creates one order (RATE_ALREADY_USED with its `order_id`) before its `expires_at` (RATE_EXPIRED); an unknown rate_id is VALIDATION_FAILED on it. With `idempotency_key` a retry creates nothing: it answers the first creation’s order; the key with another rate is IDEMPOTENCY_KEY_REUSED, and while a label purchase is still with the carrier PURCHASE_IN_PROGRESS. When the carrier refuses the label, the order is kept in status 60 and the answer is LABEL_PURCHASE_FAILED (424) with `order_id` and `carrier_error`; buy it again with uniorder_purchase_label. `note` is for local orders; `label_format` for label orders.',
  tag: 'Uniorder',
  roles: ROLES,
  business: true,
  rest: { method: 'POST', path: '/v1/uniorder', status: 201 },
  graphql: { name: 'uniorderCreate', kind: 'mutation' },
  mcp: { scope: 'uniorder:write', risk: 'medium' },
  failures: {
    NO_CARRIER_ACCOUNT: 'The rate’s carrier account was disconnected',
    RATE_EXPIRED: true,
    RATE_ALREADY_USED: true,
    IDEMPOTENCY_KEY_REUSED: true,
    PURCHASE_IN_PROGRESS: true,
    LABEL_PURCHASE_FAILED: true,
  },
  input: UniorderCreateInput,
  output: UniorderOrderView,
  async handler(input, ctx) {
    return createOrder(ctx, input);
  },
});

export const uniorderGet = defineOperation({
  name: 'uniorder_get',
  summary: 'An order of either kind: its parties, parcels, status, price and label.',
  description: `${ORDER_RULE} \`label\` is the label of a label order (its state, carrier numbers and label_error), null for a local order; \`rate_id\` the rate it was created at (null for an order made elsewhere). Prices are left out, with \`price_hidden: true\`, when the business hides the order's family from a customer account.`,
  tag: 'Uniorder',
  roles: ROLES,
  business: true,
  rest: { method: 'GET', path: '/v1/uniorder/{id}' },
  graphql: { name: 'uniorder', kind: 'query' },
  mcp: { scope: 'uniorder:read', risk: 'low' },
  failures: { NOT_FOUND: 'No such order the caller may see' },
  input: z.object({ id: pathId }).strict(),
  output: UniorderOrderView,
  async handler(input, ctx) {
    return orderView(ctx, input.id);
  },
});

const LabelAnswer = z.object({
  result: z.literal(true),
  order_id: z.number().int(),
  tracking_number: z.string(),
  format: z.enum(['PDF', 'ZPL']),
  media_type: z.enum(['application/pdf', 'application/zpl']),
  label_base64: z.string().describe('The document, base64: a 4x6 in PDF (288 x 432 pt) or ZPL II for 203 dpi'),
  sha256: z.string(),
  pages: z.number().int(),
});

export const uniorderLabel = defineOperation({
  name: 'uniorder_label',
  summary: 'The label of an order of either kind: the carrier’s label, or the local label of the own fleet.',
  description: `${ORDER_RULE} A label order answers its carrier label as shipping_get_label does (NO_LABEL while its purchase is pending or failed, LABEL_VOIDED once voided, VALIDATION_FAILED on \`format\` when its carrier has none); a local order its local label as print_local_label renders it. \`format\` is PDF (the default) or ZPL.`,
  tag: 'Uniorder',
  roles: ROLES,
  business: true,
  rest: { method: 'GET', path: '/v1/uniorder/{id}/label' },
  graphql: { name: 'uniorderLabel', kind: 'query' },
  mcp: { scope: 'uniorder:read', risk: 'low' },
  failures: { NOT_FOUND: 'No such order the caller may see', NO_LABEL: true, LABEL_VOIDED: true },
  input: z.object({ id: pathId, format: z.enum(['PDF', 'ZPL']).optional().describe('PDF (default) or ZPL') }).strict(),
  output: LabelAnswer,
  async handler(input, ctx) {
    const { label } = await readOrder(ctx, input.id);
    const format = input.format ?? 'PDF';
    return label ? labelDocumentAnswer(ctx, input.id, format) : localLabelAnswer(ctx, input.id, format);
  },
});

export const uniorderTracking = defineOperation({
  name: 'uniorder_tracking',
  summary: 'The tracking timeline of an order of either kind, in the native OTEP format.',
  description: `${ORDER_RULE} \`timeline\` is the order's native OTEP timeline as otep_client_tracking answers it (the carrier's events of a label order included, and the order's own status changes); \`carrier_tracking_numbers\` are a label order's carrier numbers, one per parcel (empty for a local order).`,
  tag: 'Uniorder',
  roles: ROLES,
  business: true,
  rest: { method: 'GET', path: '/v1/uniorder/{id}/tracking' },
  graphql: { name: 'uniorderTracking', kind: 'query' },
  mcp: { scope: 'uniorder:read', risk: 'low' },
  failures: { NOT_FOUND: 'No such order the caller may see' },
  input: z.object({ id: pathId }).strict(),
  output: z.object({
    result: z.literal(true),
    order_id: z.number().int(),
    tracking_number: z.string(),
    carrier_tracking_numbers: z.array(z.string()),
    timeline: z.record(z.string(), z.unknown()).describe('The native OTEP document'),
  }),
  async handler(input, ctx) {
    const { row, label } = await readOrder(ctx, input.id);
    const timeline = await otepClientTracking.handler({ tracking_number: row.tracking_number }, ctx);
    return {
      result: true as const,
      order_id: row.id,
      tracking_number: row.tracking_number,
      carrier_tracking_numbers: label?.carrier_tracking_numbers ?? [],
      timeline: timeline as Record<string, unknown>,
    };
  },
});

const CancelAnswer = z.object({
  result: z.literal(true),
  order_id: z.number().int(),
  status_id: z.number().int(),
  status: z.string(),
  label_voided: z.boolean().describe('true when a carrier label was voided by this call'),
  cancellation_status: z
    .string()
    .optional()
    .describe('A local order: the cancellation request’s status (cancelled, or awaiting_provider)'),
});

export const uniorderCancel = defineOperation({
  name: 'uniorder_cancel',
  summary: 'Cancel an order of either kind: a label order’s label is voided, a local order goes through cancel_order.',
  description: `${ORDER_RULE} A label order with a label has it voided with its carrier (cancel_shipping_label: LABEL_NOT_VOIDABLE once handed over, LABEL_VOID_REFUSED when the carrier refuses) and is then CANCELLED; one whose purchase failed (status 60) is cancelled at once (nothing to void, \`label_voided\` false); one still with the carrier is PURCHASE_IN_PROGRESS. A local order is cancelled as cancel_order cancels it: at once, or awaiting the delivery provider that holds it (\`cancellation_status\` awaiting_provider; the status then is still the order's), with cancel_order's refusals. An order cancelled already answers as it is.`,
  tag: 'Uniorder',
  roles: ROLES,
  business: true,
  rest: { method: 'POST', path: '/v1/uniorder/{id}/cancel' },
  graphql: { name: 'uniorderCancel', kind: 'mutation' },
  mcp: { scope: 'uniorder:write', risk: 'high' },
  failures: {
    NOT_FOUND: 'No such order the caller may see',
    PURCHASE_IN_PROGRESS: true,
    LABEL_NOT_VOIDABLE: true,
    LABEL_VOID_REFUSED: true,
    LABEL_ALREADY_PURCHASED: 'The failed purchase was bought again while this call ran: cancel again to void its label',
    NO_LABEL: 'The label was bought again and is being voided by another call: read the order',
    ORDER_ALREADY_CANCELLED: 'The order was cancelled by another call while this one ran',
    ORDER_GONE_OUT: true,
    ORDER_FINISHED: true,
    ORDER_UNDER_INTERCEPTION: true,
    CANCEL_PENDING: true,
  },
  input: z
    .object({
      id: pathId,
      reason: z.string().trim().min(1).max(255).optional().describe('Why (local orders: kept with the request)'),
    })
    .strict(),
  output: CancelAnswer,
  async handler(input, ctx) {
    return cancel(ctx, input.id, input.reason);
  },
});

async function cancel(ctx: BusinessContext, orderId: number, reason: string | undefined) {
  const { row, label } = await readOrder(ctx, orderId);
  const answer = (statusId: number, voided: boolean) => ({
    result: true as const,
    order_id: orderId,
    ...statusFor(ctx, statusId),
    label_voided: voided,
  });
  if (row.status_id === ORDER_STATUS.CANCELLED) return answer(row.status_id, false);
  if (label) {
    if (label.state === 'pending') throw new AppError(409, 'PURCHASE_IN_PROGRESS', 'uniorder.purchase_in_progress');
    if (label.state === 'failed') {
      const done = await cancelFailedLabelOrder(ctx, orderId);
      return answer(done.status_id, false);
    }
    const done = await voidLabel(ctx, orderId);
    return answer(done.status_id, !done.already_voided);
  }
  const out = await orderCancel.handler({ id: orderId, ...(reason && { reason }) }, ctx);
  return { ...answer(out.order.status_id, false), cancellation_status: out.cancellation.status };
}

export const uniorderPurchaseLabel = defineOperation({
  name: 'uniorder_purchase_label',
  summary: 'Buy again the label of a label order whose purchase the carrier refused (status 60).',
  description:
    'The order goes back to the carrier with a new attempt. Without `rate_id` its shipment is rated again now at its carrier account and service (a past ship date becomes today) and the order takes the new price when the total differs; with a `rate_id` (of labelservice_rate or uniorder_rate, at the same carrier account) the rate’s shipment must be the order’s (addresses, parcels, reference; else VALIDATION_FAILED on rate_id), and the rate is spent. Answers the order view, its label bought (status back to 1, trail 6007). Refused again: LABEL_PURCHASE_FAILED (424) with `order_id` and `carrier_error`, the order still in 60. An order with its label is LABEL_ALREADY_PURCHASED (with `idempotency_key`, a repeated call answers the order instead), one still with the carrier PURCHASE_IN_PROGRESS, a local order NOT_A_LABEL_ORDER.',
  tag: 'Uniorder',
  roles: ROLES,
  business: true,
  rest: { method: 'POST', path: '/v1/uniorder/{id}/purchase-label' },
  graphql: { name: 'uniorderPurchaseLabel', kind: 'mutation' },
  mcp: { scope: 'uniorder:write', risk: 'high' },
  failures: {
    NOT_FOUND: 'No such order the caller may see',
    NO_CARRIER_ACCOUNT: 'The order’s carrier account was disconnected',
    RATE_EXPIRED: true,
    RATE_ALREADY_USED: true,
    LABEL_ALREADY_PURCHASED: true,
    LABEL_VOIDED: true,
    NOT_A_LABEL_ORDER: true,
    PURCHASE_IN_PROGRESS: true,
    LABEL_PURCHASE_FAILED: true,
  },
  input: z
    .object({
      id: pathId,
      rate_id: z
        .string()
        .min(1)
        .max(64)
        .optional()
        .describe('A label rate for the same shipment; re-rated when absent'),
      idempotency_key: z
        .string()
        .regex(/^[\x21-\x7e]{1,255}$/, '1 to 255 printable ASCII characters')
        .optional()
        .describe('With it, a repeated call after the label was bought answers the order instead of 409'),
    })
    .strict(),
  output: UniorderOrderView,
  async handler(input, ctx) {
    await readOrder(ctx, input.id);
    await rebuyLabel(ctx, input.id, { rate_id: input.rate_id, idempotency_key: input.idempotency_key });
    return orderView(ctx, input.id);
  },
});
