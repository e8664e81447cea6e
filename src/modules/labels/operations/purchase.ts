/**
 * Buying a label, once (docs/labels.md, "Buying a label, once"): the order and its pending label written in one
 * transaction, the carrier asked outside any transaction with the key `lo-<order id>.<attempt>`, and the outcome
 * written once by whoever finishes first (this call, a retry, or the sweep of interrupted purchases).
 */
import type { Client } from '@temporalio/client';
import type { BusinessContext } from '../../../platform/catalog/types.ts';
import { AppError, errors } from '../../../platform/errors.ts';
import { formatDecimal, minorDigits } from '../../delivery-prices/index.ts';
import {
  actorOf,
  changeOrderStatuses,
  ORDER_OPERATION,
  ORDER_STATUS,
  placeOrders,
  placementCustomerOf,
  type OrderPrice,
} from '../../orders/index.ts';
import { CarrierError, type LabelParty, type LabelShipment, type PurchasedLabel } from '../carriers/adapter.ts';
import { adapterFor, callCarrier, isCarrierCode, providerCodeOf, type CarrierEnv } from '../carriers/registry.ts';
import { carrierKeyOf, type LabelError, type LabelFormat } from '../domain.ts';
import { fail } from '../errorCodes.ts';
import { accountById, openAccount } from '../repo/accounts.ts';
import {
  insertLabelOrder,
  labelOrderById,
  labelOrderByKey,
  lockLabelOrder,
  markFailed,
  markPurchased,
  type LabelOrderRow,
} from '../repo/labelOrders.ts';
import { orderFactsOf, providerIdOf } from '../repo/orderFacts.ts';
import { claimRate, rateById, type RateRow } from '../repo/rates.ts';
import { startLabelTracking, tellProcess } from '../trackingProcess.ts';

/** What a purchase needs besides the database: the carriers' settings and log, and Temporal for the tracking. */
export interface LabelEnv extends CarrierEnv {
  temporal: Client;
}

interface Contact {
  phone?: string | null | undefined;
  email?: string | null | undefined;
}

export interface BuyInput {
  rate_id: string;
  idempotency_key?: string | undefined;
  reference?: string | null | undefined;
  label_format?: LabelFormat | undefined;
  shipper_contact?: Contact | undefined;
  recipient_contact?: Contact | undefined;
  customer_id?: number | undefined;
  /**
   * A label bought for a customer service (docs/customer-services.md): the order carries the price the customer was
   * charged and its family instead of the rate's price and label_service.
   */
  price?: OrderPrice | undefined;
  price_family?: 'shipping_service' | 'storage_services' | undefined;
}

/** Thrown inside the placing transaction when a racing purchase took the rate or the key first: it rolls back. */
class RaceLost extends Error {
  readonly what: 'rate' | 'key';
  constructor(what: 'rate' | 'key') {
    super(`a racing purchase took the ${what}`);
    this.what = what;
  }
}

/**
 * Buys a label at a rate for the caller's business: answers the order's id, and whether an earlier purchase of the
 * same idempotency key answered instead (nothing bought then). The label order's state tells how it went.
 */
export async function buyAtRate(
  ctx: BusinessContext,
  input: BuyInput,
): Promise<{ orderId: number; replayed: boolean }> {
  const businessId = ctx.caller.businessId;
  const key = input.idempotency_key ?? null;
  if (key) {
    const earlier = await labelOrderByKey(ctx.em, businessId, key);
    if (earlier) return replay(ctx, earlier, input.rate_id);
  }
  const rate = await rateById(ctx.em, businessId, input.rate_id);
  if (!rate || (ctx.caller.role === 'customer' && rate.caller_id !== ctx.caller.id))
    throw errors.field('rate_id', 'labels.unknown_rate');
  if (rate.used_by_order_id !== null) {
    // A purchase of the same key that committed since the key was looked up above is this call's first one.
    const first = key ? await labelOrderByKey(ctx.em, businessId, key) : null;
    if (first) return replay(ctx, first, input.rate_id);
    throw rateUsed(rate.used_by_order_id);
  }
  if (new Date(rate.expires_at).getTime() <= Date.now()) throw fail('RATE_EXPIRED', 'labels.rate_expired');
  const account = await accountById(ctx.em, businessId, rate.carrier_account_id);
  if (!account?.active || !isCarrierCode(rate.carrier)) throw fail('NO_CARRIER_ACCOUNT', 'labels.no_carrier_account');
  const customerId = await placementCustomerOf(ctx, input.customer_id ?? null);
  const shipment = withContacts(rate.shipment, input);
  const providerId = await providerIdOf(ctx.em, providerCodeOf(rate.carrier));
  const formats: LabelFormat[] = input.label_format === 'ZPL' ? ['ZPL', 'PDF'] : ['PDF', 'ZPL'];

  let orderId: number;
  try {
    orderId = await ctx.em.transactional(async (tx) => {
      const [placed] = await placeOrders(
        tx,
        businessId,
        [
          {
            type: 'D',
            scheduled_date: shipment.ship_date,
            order_ref: input.reference ?? shipment.reference ?? null,
            recipient: recipientOf(shipment.recipient),
            note: null,
            packages: shipment.parcels.map((p) => ({
              weight_grams: p.weight_grams ?? null,
              length_mm: p.length_mm ?? null,
              width_mm: p.width_mm ?? null,
              height_mm: p.height_mm ?? null,
            })),
            customer_id: customerId,
            carrier: { providerId, priceFamily: input.price_family ?? 'label_service' },
          },
        ],
        actorOf(ctx),
        { pricing: null, prices: [input.price ?? priceOfRate(rate)] },
      );
      const id = placed!.orderId;
      if (!(await claimRate(tx, rate.id, id))) throw new RaceLost('rate');
      const written = await insertLabelOrder(tx, {
        order_id: id,
        business_id: businessId,
        carrier_account_id: rate.carrier_account_id,
        carrier: rate.carrier,
        service: rate.service,
        rate_id: rate.id,
        shipment,
        formats,
        idempotency_key: key,
      });
      if (!written) throw new RaceLost('key');
      return id;
    });
  } catch (err) {
    if (!(err instanceof RaceLost)) throw err;
    // A racing call of the same key took the rate or the key first: this call is its repeat.
    const first = key ? await labelOrderByKey(ctx.em, businessId, key) : null;
    if (first) return replay(ctx, first, input.rate_id);
    throw rateUsed((await rateById(ctx.em, businessId, rate.id))!.used_by_order_id!);
  }
  await runPurchase(ctx, orderId);
  return { orderId, replayed: false };
}

/**
 * An earlier purchase of the same key: its answer again, unless it named another rate (`rateId`, when the call names
 * one), is still with the carrier, or is not the caller's to see (a customer account's key names its own orders
 * only: another's purchase is a key reused, never shown).
 */
export async function replay(
  ctx: BusinessContext,
  earlier: LabelOrderRow,
  rateId: string | null,
): Promise<{ orderId: number; replayed: true }> {
  const reused = () => fail('IDEMPOTENCY_KEY_REUSED', 'labels.idempotency_key_reused');
  if (ctx.caller.role === 'customer') {
    const [order] = await orderFactsOf(ctx.em, ctx.caller.businessId, [earlier.order_id]);
    if (order?.customerId !== ctx.caller.id) throw reused();
  }
  if (rateId !== null && earlier.rate_id !== rateId) throw reused();
  if (earlier.state === 'pending') throw fail('PURCHASE_IN_PROGRESS', 'labels.purchase_in_progress');
  return { orderId: earlier.order_id, replayed: true };
}

const rateUsed = (orderId: number) =>
  new AppError(409, 'RATE_ALREADY_USED', 'labels.rate_already_used', { extra: { order_id: orderId } });

/**
 * Asks the carrier for the label of a `pending` label order and writes the outcome, once: the label (documents,
 * carrier numbers on the packages, state purchased; an order in 60 goes back to 1 with 6007) or the refusal (state
 * failed, the order to 60 with 6011 and the carrier's message). A purchase no longer pending, or finished by another
 * caller meanwhile, writes nothing. The tracking process starts after a purchase commits.
 */
export async function runPurchase(env: LabelEnv, orderId: number): Promise<void> {
  const row = await labelOrderById(env.em, orderId);
  if (!row || row.state !== 'pending') return;
  const account = await accountById(env.em, row.business_id, row.carrier_account_id);
  if (!account) throw new Error(`label order ${orderId} has no carrier account ${row.carrier_account_id}`);
  const adapter = adapterFor(row.carrier, env);
  let label: PurchasedLabel | null = null;
  let error: LabelError | null = null;
  try {
    label = await callCarrier(env, adapter, openAccount(account), (call) =>
      adapter.purchase(call, {
        shipment: row.shipment,
        service: row.service,
        formats: row.formats,
        idempotency_key: carrierKeyOf(orderId, row.attempt),
      }),
    );
  } catch (err) {
    if (!(err instanceof CarrierError)) throw err;
    error = {
      carrier: err.carrier,
      code: err.code,
      message: err.message,
      retryable: err.retryable,
      at: new Date().toISOString(),
    };
  }
  const bought = await env.em.transactional(async (tx) => {
    const now = await lockLabelOrder(tx, orderId);
    if (!now || now.state !== 'pending' || now.attempt !== row.attempt) return false;
    const [order] = await orderFactsOf(tx, row.business_id, [orderId], true);
    if (label) {
      await markPurchased(tx, orderId, label);
      if (order!.statusId === ORDER_STATUS.LABEL_PURCHASE_FAILED)
        await changeOrderStatuses(tx, [
          {
            order: order!,
            change: {
              before: order!.statusId,
              after: ORDER_STATUS.NEW_ORDER,
              operationType: ORDER_OPERATION.CARRIER_ACCEPTED,
              description: `Label bought from ${adapter.name}`,
            },
            occurredAt: new Date(),
          },
        ]);
      return true;
    }
    await markFailed(tx, orderId, error!);
    if (order!.statusId !== ORDER_STATUS.LABEL_PURCHASE_FAILED)
      await changeOrderStatuses(tx, [
        {
          order: order!,
          change: {
            before: order!.statusId,
            after: ORDER_STATUS.LABEL_PURCHASE_FAILED,
            operationType: ORDER_OPERATION.LABEL_PURCHASE_FAILED,
            description: `${adapter.name}: ${error!.code}: ${error!.message}`,
            details: { carrier_error: error },
          },
          occurredAt: new Date(),
        },
      ]);
    return false;
  });
  if (bought)
    await tellProcess(env.log, 'tracking start', () =>
      startLabelTracking(env.temporal, env.em, { orderId, businessId: row.business_id }),
    );
}

/** The order's price: the rate's lines, no tax (docs/labels.md). */
function priceOfRate(rate: RateRow): OrderPrice {
  const line = (code: string, amount: string) => ({
    code,
    quantity: '1',
    unit: 'shipment',
    unit_amount: amount,
    amount,
  });
  return {
    shippingPrice: rate.total_charge,
    tax: formatDecimal(0n, minorDigits(rate.currency)),
    currency: rate.currency,
    priceDetails: [line('base', rate.base_charge), ...rate.extra_charges.map((c) => line(c.code, c.amount))],
  };
}

/** The shipment with the contact fields a purchase may add where the rate left them empty. */
function withContacts(shipment: LabelShipment, input: BuyInput): LabelShipment {
  const fill = (party: LabelParty, contact: Contact | undefined): LabelParty => ({
    ...party,
    phone: party.phone ?? contact?.phone ?? null,
    email: party.email ?? contact?.email ?? null,
  });
  return {
    ...shipment,
    shipper: fill(shipment.shipper, input.shipper_contact),
    recipient: fill(shipment.recipient, input.recipient_contact),
  };
}

const recipientOf = (p: LabelParty) => ({
  name: p.company ? `${p.name}, ${p.company}` : p.name,
  phone: p.phone ?? null,
  email: p.email ?? null,
  address: {
    line1: p.address.line1,
    line2: p.address.line2 ?? null,
    city: p.address.city,
    postal_code: p.address.postal_code,
    country: p.address.country,
  },
});
