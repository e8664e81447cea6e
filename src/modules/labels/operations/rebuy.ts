/**
 * Buying again (docs/labels.md, "Buying again"): a label order whose purchase the carrier refused (state failed,
 * order status 60) goes back to `pending` and is bought again with the next carrier key. Without a rate it is
 * re-rated now at its carrier account and service; with one, the rate's shipment must be the order's. When the new
 * total differs from the order's price, the order takes the new price in the same transaction (the trail row 6007
 * written when the label is bought says so); an equal total leaves the price as it is.
 */
import type { BusinessContext } from '../../../platform/catalog/types.ts';
import { AppError, errors } from '../../../platform/errors.ts';
import { CarrierError, type CarrierRate, type LabelShipment } from '../carriers/adapter.ts';
import { adapterFor, callCarrier } from '../carriers/registry.ts';
import { fail } from '../errorCodes.ts';
import { accountById, openAccount } from '../repo/accounts.ts';
import { labelOrderOf, lockLabelOrder, restartPurchase, type LabelOrderRow } from '../repo/labelOrders.ts';
import { orderFactsOf } from '../repo/orderFacts.ts';
import { businessToday, rateById } from '../repo/rates.ts';
import { spendRate, priceOrder, type NewPrice } from '../repo/rebuy.ts';
import { runPurchase } from './purchase.ts';
import { actorOf, appendOrderTrail, ORDER_OPERATION } from '../../orders/index.ts';

export interface RebuyInput {
  rate_id?: string | undefined;
  idempotency_key?: string | undefined;
}

/**
 * Buys again the label of an order in 60. Answers whether it was bought now (`replayed` false) or, with an
 * idempotency key, had been bought already by an earlier call (`replayed` true: nothing bought). Refused again:
 * LABEL_PURCHASE_FAILED (424, `order_id`, `carrier_error`), the order still in 60.
 */
export async function rebuyLabel(
  ctx: BusinessContext,
  orderId: number,
  input: RebuyInput,
): Promise<{ orderId: number; replayed: boolean }> {
  const businessId = ctx.caller.businessId;
  const row = await visibleLabelOrder(ctx, orderId);
  if (row.state === 'pending') throw fail('PURCHASE_IN_PROGRESS', 'labels.purchase_in_progress');
  if (row.state !== 'failed') {
    // A repeated call (same idempotency key) after the label was bought answers the order again.
    if (input.idempotency_key && row.state !== 'voided') return { orderId, replayed: true };
    if (row.state === 'voided') throw fail('LABEL_VOIDED', 'labels.voided');
    throw fail('LABEL_ALREADY_PURCHASED', 'labels.already_purchased');
  }
  const today = await businessToday(ctx.em, businessId);
  const at = input.rate_id ? await atRate(ctx, row, input.rate_id) : await reRate(ctx, row, today);

  await ctx.em.transactional(async (tx) => {
    const now = await lockLabelOrder(tx, orderId);
    if (now?.state === 'pending') throw fail('PURCHASE_IN_PROGRESS', 'labels.purchase_in_progress');
    if (now?.state !== 'failed') throw fail('LABEL_ALREADY_PURCHASED', 'labels.already_purchased');
    if (at.rateId && !(await spendRate(tx, at.rateId))) throw fail('RATE_EXPIRED', 'labels.rate_expired');
    await restartPurchase(tx, orderId, at.shipment);
    const before = await priceOrder(tx, orderId, at.price);
    // A new price is the order's from now on, whatever the carrier answers: the trail says from what to what.
    if (before)
      await appendOrderTrail(tx, [
        {
          orderId,
          businessId,
          operationType: ORDER_OPERATION.CARRIER_ACCEPTED,
          actor: actorOf(ctx),
          details: {
            price_changed: { from: before.shipping_price, to: at.price.total_charge, currency: at.price.currency },
            rate_id: at.rateId,
          },
        },
      ]);
  });
  await runPurchase(ctx, orderId);
  const after = await labelOrderOf(ctx.em, businessId, orderId);
  if (after?.state === 'failed' && after.label_error) {
    const { at: _at, ...carrierError } = after.label_error;
    throw new AppError(424, 'LABEL_PURCHASE_FAILED', 'labels.purchase_failed', {
      extra: { order_id: orderId, carrier_error: carrierError },
    });
  }
  return { orderId, replayed: false };
}

/** The caller's label order: another business's (or a customer's not its own) is 404; a local order 409. */
async function visibleLabelOrder(ctx: BusinessContext, orderId: number): Promise<LabelOrderRow> {
  const businessId = ctx.caller.businessId;
  const [[order], row] = await Promise.all([
    orderFactsOf(ctx.em, businessId, [orderId]),
    labelOrderOf(ctx.em, businessId, orderId),
  ]);
  if (!order || (ctx.caller.role === 'customer' && order.customerId !== ctx.caller.id)) throw errors.notFound();
  if (!row) throw fail('NOT_A_LABEL_ORDER', 'labels.not_a_label_order');
  return row;
}

interface At {
  shipment: LabelShipment;
  rateId: string | null;
  price: NewPrice;
}

/** A new rate of the caller's for the same shipment (addresses, parcels, reference) at the order's account. */
async function atRate(ctx: BusinessContext, row: LabelOrderRow, rateId: string): Promise<At> {
  const rate = await rateById(ctx.em, ctx.caller.businessId, rateId);
  if (!rate || (ctx.caller.role === 'customer' && rate.caller_id !== ctx.caller.id))
    throw errors.field('rate_id', 'labels.unknown_rate');
  if (rate.used_by_order_id !== null)
    throw new AppError(409, 'RATE_ALREADY_USED', 'labels.rate_already_used', {
      extra: { order_id: rate.used_by_order_id },
    });
  if (new Date(rate.expires_at).getTime() <= Date.now()) throw fail('RATE_EXPIRED', 'labels.rate_expired');
  if (
    rate.carrier_account_id !== row.carrier_account_id ||
    rate.service !== row.service ||
    !sameShipment(rate.shipment, row.shipment)
  )
    throw errors.field('rate_id', 'labels.rate_other_shipment');
  return {
    shipment: { ...rate.shipment, shipper: row.shipment.shipper, recipient: row.shipment.recipient },
    rateId: rate.id,
    price: rate,
  };
}

/** The order's shipment rated now at its account and service (ship date today when it has passed). */
async function reRate(ctx: BusinessContext, row: LabelOrderRow, today: string): Promise<At> {
  const account = await accountById(ctx.em, ctx.caller.businessId, row.carrier_account_id);
  if (!account?.active) throw fail('NO_CARRIER_ACCOUNT', 'labels.no_carrier_account');
  const shipment: LabelShipment = {
    ...row.shipment,
    ship_date: row.shipment.ship_date < today ? today : row.shipment.ship_date,
  };
  const adapter = adapterFor(row.carrier, ctx);
  let rate: CarrierRate | undefined;
  try {
    const rates = await callCarrier(ctx, adapter, openAccount(account), (call) => adapter.rates(call, shipment));
    rate = rates.find((r) => r.service === row.service);
  } catch (err) {
    if (!(err instanceof CarrierError)) throw err;
    throw refusedAgain(row.order_id, {
      carrier: err.carrier,
      code: err.code,
      message: err.message,
      retryable: err.retryable,
    });
  }
  if (!rate)
    throw refusedAgain(row.order_id, {
      carrier: row.carrier,
      code: 'SERVICE_UNAVAILABLE',
      message: `${adapter.name} no longer offers ${row.service} for this shipment`,
      retryable: false,
    });
  return { shipment, rateId: null, price: rate };
}

const refusedAgain = (
  orderId: number,
  carrierError: { carrier: string; code: string; message: string; retryable: boolean },
) =>
  new AppError(424, 'LABEL_PURCHASE_FAILED', 'labels.purchase_failed', {
    extra: { order_id: orderId, carrier_error: carrierError },
  });

/** Same addresses, parcels and reference: what the carrier prices and prints (contacts and ship date aside). */
function sameShipment(a: LabelShipment, b: LabelShipment): boolean {
  const key = (s: LabelShipment) =>
    JSON.stringify([s.shipper.address, s.recipient.address, s.parcels, s.reference ?? null]);
  return key(a) === key(b);
}
