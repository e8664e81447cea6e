/** The shapes of bulk and async intake: a row's validation, its result in an answer and in the postback. */
import { z } from 'zod';
import type { FieldError } from '../../platform/errors.ts';
import { toFieldErrors } from '../../platform/catalog/validate.ts';
import { translate, type MessageKey } from '../../platform/i18n/messages.ts';
import type { Language } from '../../platform/i18n/languages.ts';
import { OrderPlacementInput, orderSummaryOf } from '../orders/index.ts';
import type { RowResult } from './repo.ts';

/** The JSON Schema of one order as client_order_create reads it. */
const { $schema: _dialect, ...PLACEMENT_SCHEMA } = z.toJSONSchema(OrderPlacementInput, {
  io: 'input',
  unrepresentable: 'any',
}) as Record<string, unknown>;

/**
 * One row of a batch: any JSON object, validated inside the call with client_order_create's own schema, so a bad row
 * is that row's result and not the whole call's 422. Documented (OpenAPI, MCP, GraphQL) as that schema.
 */
export const BatchRowInput = z.record(z.string(), z.unknown()).meta({
  ...PLACEMENT_SCHEMA,
  description:
    'One order, exactly as the body of client_order_create (POST /v1/client/orderCreate); validated row by row.',
});

/** A row validated: its input for placement, or its field errors (paths inside the row). */
export function validateRow(
  raw: unknown,
): { ok: true; input: OrderPlacementInput } | { ok: false; errors: FieldError[] } {
  const parsed = OrderPlacementInput.safeParse(raw, { reportInput: true });
  return parsed.success ? { ok: true, input: parsed.data } : { ok: false, errors: toFieldErrors(parsed.error.issues) };
}

export const FieldErrorView = z.object({ field: z.string(), message: z.string() });

/** Field errors in the reader's language. */
export const tellErrors = (errors: readonly FieldError[], lang: Language) =>
  errors.map((e) => ({ field: e.field, message: translate(e.key as MessageKey, lang, e.params) }));

export const OrderSummaryView = z.object({
  id: z.number().int(),
  order_ref: z.string().nullable(),
  tracking_number: z.string(),
  type: z.string(),
  status_id: z.number().int(),
  status: z.string(),
});

export const AsyncRowView = z.object({
  index: z.number().int().describe('Position of the row in `orders`, from 0'),
  status: z.enum(['pending', 'created', 'failed']),
  order: OrderSummaryView.nullable().describe("The row's order as it is now; null while pending and for a refused row"),
  errors: z.array(FieldErrorView).nullable().describe('Why the row was refused, field by field (paths inside the row)'),
});

/** A stored row's result as get_async_batch_result answers it. */
export function presentRow(r: RowResult, lang: Language): z.input<typeof AsyncRowView> {
  return {
    index: r.row_index,
    status: r.state,
    order: r.order ? orderSummaryOf(r.order) : null,
    errors: r.errors ? tellErrors(r.errors, lang) : null,
  };
}

/** A row's result as the order.create_async postback carries it. */
export function postbackRow(r: RowResult, lang: Language) {
  return {
    index: r.row_index,
    result: r.state === 'created',
    // Null only for an order deleted for good before the batch ended.
    ...(r.state === 'created' && { order: r.order ? orderSummaryOf(r.order) : null }),
    ...(r.errors && { errors: tellErrors(r.errors, lang) }),
  };
}
