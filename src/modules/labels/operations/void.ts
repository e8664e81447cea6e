/**
 * Voiding a label (docs/labels.md, "POST /v1/labelservice/cancelShippingLabel"): the carrier voids it first, outside
 * any transaction, then one transaction writes the label voided and the order cancelled; its tracking process ends.
 * A label voided already answers so and asks no carrier; a carrier's refusal changes nothing.
 */
import { z } from 'zod';
import { STAFF } from '../../../platform/roles.ts';
import { AppError, errors } from '../../../platform/errors.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { actorOf, changeOrderStatuses, ORDER_OPERATION, ORDER_STATUS } from '../../orders/index.ts';
import { CarrierError, SHIPMENT_NOT_FOUND } from '../carriers/adapter.ts';
import { adapterFor, callCarrier } from '../carriers/registry.ts';
import { carrierKeyOf, OPEN_STATES, type LabelState } from '../domain.ts';
import { fail } from '../errorCodes.ts';
import { accountById, openAccount } from '../repo/accounts.ts';
import { labelOrderOf, lockLabelOrder, markVoided, type LabelOrderRow } from '../repo/labelOrders.ts';
import { withEndOfDayLock } from '../repo/manifests.ts';
import { orderFactsOf } from '../repo/orderFacts.ts';
import { signalVoided, tellProcess } from '../trackingProcess.ts';
import { findLabelOrder, OrderLookupShape } from './documents.ts';

export const VoidAnswer = z.object({
  result: z.literal(true),
  order_id: z.number().int(),
  state: z.literal('voided'),
  already_voided: z.boolean().describe('true when the label was voided before this call: nothing was done now'),
  status_id: z.literal(5),
  status: z.literal('CANCELLED'),
});
export type VoidAnswer = z.input<typeof VoidAnswer>;

const answer = (orderId: number, alreadyVoided: boolean): VoidAnswer => ({
  result: true as const,
  order_id: orderId,
  state: 'voided',
  already_voided: alreadyVoided,
  status_id: ORDER_STATUS.CANCELLED,
  status: 'CANCELLED',
});

/** Why a label in this state cannot be voided, or null when it can (an open label: purchased or submitted). */
function notVoidable(state: LabelState, statusId: number): AppError | null {
  if (state === 'pending' || state === 'failed') return fail('NO_LABEL', 'labels.no_label');
  // A submitted label the carrier has started moving (its events changed the order) is handed over too.
  if (!OPEN_STATES.includes(state) || statusId !== ORDER_STATUS.NEW_ORDER)
    return fail('LABEL_NOT_VOIDABLE', 'labels.not_voidable');
  return null;
}

/**
 * Voids the label of a label order of the caller's business: the carrier first (424 LABEL_VOID_REFUSED with
 * `carrier_error` when it refuses: nothing changed), then the label voided and the order to 5 CANCELLED (3041) in
 * one transaction, and the tracking process told. 409 NO_LABEL (pending or failed), LABEL_NOT_VOIDABLE (handed over).
 */
export async function voidLabel(ctx: BusinessContext, orderId: number): Promise<VoidAnswer> {
  const businessId = ctx.caller.businessId;
  // Under the business's end-of-day lock: a label is either voided or put on a manifest, never both at once.
  const voided = await withEndOfDayLock(ctx.em, businessId, async () => {
    const [row, [order]] = await Promise.all([
      labelOrderOf(ctx.em, businessId, orderId),
      orderFactsOf(ctx.em, businessId, [orderId]),
    ]);
    if (!order) throw errors.notFound();
    if (!row) throw fail('NOT_A_LABEL_ORDER', 'labels.not_a_label_order');
    if (row.state === 'voided') return 'before' as const;
    const refused = notVoidable(row.state, order.statusId);
    if (refused) throw refused;

    await voidWithCarrier(ctx, row);
    return ctx.em.transactional(async (tx) => {
      const now = await lockLabelOrder(tx, orderId);
      if (now!.state === 'voided') return 'before' as const;
      const [locked] = await orderFactsOf(tx, businessId, [orderId], true);
      const late = notVoidable(now!.state, locked!.statusId);
      if (late) throw late;
      await markVoided(tx, orderId);
      await changeOrderStatuses(tx, [
        {
          order: locked!,
          change: {
            before: locked!.statusId,
            after: ORDER_STATUS.CANCELLED,
            operationType: ORDER_OPERATION.CANCELLED,
            description: `Label voided with ${adapterFor(row.carrier, ctx).name}`,
            actor: actorOf(ctx),
          },
          occurredAt: new Date(),
        },
      ]);
      return 'now' as const;
    });
  });
  if (voided === 'now') await tellProcess(ctx.log, 'voided', () => signalVoided(ctx.temporal, orderId));
  return answer(orderId, voided === 'before');
}

/**
 * Asks the carrier to void the label (bought with the key of its attempt); a refusal is LABEL_VOID_REFUSED. With
 * `mayBeAbsent` (a purchase that may not have happened), a carrier that never created it (SHIPMENT_NOT_FOUND) is no
 * refusal.
 */
async function voidWithCarrier(ctx: BusinessContext, row: LabelOrderRow, mayBeAbsent = false): Promise<void> {
  const account = await accountById(ctx.em, row.business_id, row.carrier_account_id);
  if (!account) throw new Error(`label order ${row.order_id} has no carrier account ${row.carrier_account_id}`);
  const adapter = adapterFor(row.carrier, ctx);
  try {
    await callCarrier(ctx, adapter, openAccount(account), (call) =>
      adapter.void(call, {
        carrier_shipment_id: row.carrier_shipment_id ?? '',
        tracking_numbers: row.carrier_tracking_numbers,
        idempotency_key: carrierKeyOf(row.order_id, row.attempt),
      }),
    );
  } catch (err) {
    if (!(err instanceof CarrierError)) throw err;
    if (mayBeAbsent && err.code === SHIPMENT_NOT_FOUND) return;
    throw new AppError(424, 'LABEL_VOID_REFUSED', 'labels.void_refused', {
      extra: {
        order_id: row.order_id,
        carrier_error: { carrier: err.carrier, code: err.code, message: err.message, retryable: err.retryable },
      },
    });
  }
}

/**
 * Cancels a label order whose purchase failed (status 60): nothing to void at a carrier, so the label is written
 * voided and the order goes to 5 CANCELLED (3041) in one transaction. A label order voided already answers so; one
 * still pending is 409 PURCHASE_IN_PROGRESS; one with a label is LABEL_ALREADY_PURCHASED (void it instead).
 */
export async function cancelFailedLabelOrder(ctx: BusinessContext, orderId: number): Promise<VoidAnswer> {
  const businessId = ctx.caller.businessId;
  // A purchase that timed out may have been bought all the same: the carrier is asked to void it first (a label it
  // never created is nothing to void).
  const before = await labelOrderOf(ctx.em, businessId, orderId);
  if (before?.state === 'failed' && before.label_error?.retryable) await voidWithCarrier(ctx, before, true);
  const alreadyVoided = await ctx.em.transactional(async (tx) => {
    const [order] = await orderFactsOf(tx, businessId, [orderId], true);
    if (!order) throw errors.notFound();
    const row = await lockLabelOrder(tx, orderId);
    if (!row) throw fail('NOT_A_LABEL_ORDER', 'labels.not_a_label_order');
    if (row.state === 'voided') return true;
    if (row.state === 'pending') throw fail('PURCHASE_IN_PROGRESS', 'labels.purchase_in_progress');
    if (row.state !== 'failed') throw fail('LABEL_ALREADY_PURCHASED', 'labels.already_purchased');
    await markVoided(tx, orderId);
    await changeOrderStatuses(tx, [
      {
        order,
        change: {
          before: order.statusId,
          after: ORDER_STATUS.CANCELLED,
          operationType: ORDER_OPERATION.CANCELLED,
          description: 'Label order cancelled: no label was bought',
          actor: actorOf(ctx),
        },
        occurredAt: new Date(),
      },
    ]);
    return false;
  });
  return answer(orderId, alreadyVoided);
}

export const labelCancel = defineOperation({
  name: 'labelservice_cancel_label',
  summary: 'Void the label of a label order with its carrier; the order is cancelled.',
  description:
    'Asks the carrier to void the label, then marks the label voided and the order 5 CANCELLED (operation 3041, an order.status_change webhook), and ends its tracking. Name the order with exactly one of `order_id` and `tracking_number` (the order’s, a package’s or a carrier tracking number). Voiding a voided label answers 200 with `already_voided: true` and asks no carrier. A label handed to the carrier (manifested, or moving with it) is LABEL_NOT_VOIDABLE; an order whose purchase is pending or failed has no label (NO_LABEL: cancel the order instead); when the carrier refuses the answer is LABEL_VOID_REFUSED (424) with its `carrier_error`, and nothing changed. An order of another business is NOT_FOUND; a local delivery order NOT_A_LABEL_ORDER.',
  tag: 'Labels',
  roles: [...STAFF],
  business: true,
  rest: { method: 'POST', path: '/v1/labelservice/cancelShippingLabel' },
  graphql: { name: 'labelserviceCancelShippingLabel', kind: 'mutation' },
  mcp: { scope: 'labels:write', risk: 'high', tool: 'cancel_shipping_label' },
  failures: {
    NOT_FOUND: 'No such order the caller may see',
    NOT_A_LABEL_ORDER: true,
    NO_LABEL: true,
    LABEL_NOT_VOIDABLE: true,
    LABEL_VOID_REFUSED: true,
  },
  input: z.object(OrderLookupShape).strict(),
  output: VoidAnswer,
  async handler(input, ctx) {
    const { order } = await findLabelOrder(ctx, input);
    return voidLabel(ctx, order.id);
  },
});
