/**
 * One rate and one creation of uniorder (docs/uniorder.md): what the single operations, the batches of 20 and the
 * jobs of 500 each run per item. A rate spans both kinds (the local price model's self delivery rate, and on request
 * every label carrier's); a creation places a local order at an `sr_` rate's price or buys a label at an `lr_` rate.
 */
import type { BusinessContext } from '../../../platform/catalog/types.ts';
import { AppError, errors } from '../../../platform/errors.ts';
import { translate } from '../../../platform/i18n/messages.ts';
import { findPriceModel, priceWithModel } from '../../delivery-prices/index.ts';
import {
  buyAtRate,
  labelOrderOf,
  labelPricesHidden,
  newRateId,
  presentRate,
  quoteLabels,
  type RateInput,
} from '../../labels/index.ts';
import {
  actorOf,
  afterOrdersPlaced,
  localPricesHiddenFrom,
  placeOrders,
  placementCustomerOf,
  type PlacementRow,
} from '../../orders/index.ts';
import { kindOfRateId, SELF_SERVICE_NAMES } from '../domain.ts';
import {
  businessTodayAndName,
  claimSelfRate,
  insertSelfRate,
  selfRateById,
  selfRateByKey,
  type SelfRateRow,
} from '../repo/selfRates.ts';
import type { UniorderCreateInput, UniorderOrderView, UniorderRateAnswer, UniorderRateInput } from '../views.ts';
import { orderView } from './view.ts';

type Message = UniorderRateAnswer['messages'][number];
type Party = UniorderRateInput['recipient'];

/** The message of an error in the caller's language. */
const say = (ctx: BusinessContext, err: AppError) => translate(err.key, ctx.lang, err.params);

/**
 * Rates a shipment both ways. Throws VALIDATION_FAILED for a bad input (a past ship date), and PRICE_MODEL_MISSING
 * (409) only when no rate at all can come (no price model and quote_labels false); every other reason a kind or a
 * carrier gives no rate is a message.
 */
export async function rateItem(ctx: BusinessContext, input: UniorderRateInput): Promise<UniorderRateAnswer> {
  const businessId = ctx.caller.businessId;
  const { today, name } = await businessTodayAndName(ctx.em, businessId);
  if (input.ship_date && input.ship_date < today) throw errors.field('ship_date', 'uniorder.past_ship_date');
  const shipDate = input.ship_date ?? today;
  const messages: Message[] = [];

  const self = await rateSelf(ctx, { ...input, ship_date: shipDate }, messages);
  if (!self && !input.quote_labels && messages.every((m) => m.code === 'PRICE_MODEL_MISSING'))
    throw new AppError(409, 'PRICE_MODEL_MISSING', 'uniorder.price_model_missing');
  const labelRates = input.quote_labels ? await rateLabels(ctx, input, shipDate, messages) : [];

  const localHidden = self ? await localPricesHiddenFrom(ctx.em, ctx.caller) : false;
  const labelHidden = labelRates.length > 0 ? await labelPricesHidden(ctx) : false;
  const rates: UniorderRateAnswer['rates'] = [];
  if (self) rates.push(presentSelfRate(self, name, localHidden));
  for (const r of labelRates) rates.push({ ...presentRate(ctx, r, labelHidden), kind: 'label' as const });
  return {
    result: true as const,
    rates,
    messages,
    ...((localHidden || labelHidden) && { price_hidden: true as const }),
  };
}

/** The self delivery rate, stored; null with a message when the business's price model cannot price it. */
async function rateSelf(
  ctx: BusinessContext,
  input: SelfRateRow['input'],
  messages: Message[],
): Promise<SelfRateRow | null> {
  const model = await findPriceModel(ctx.em, ctx.caller.businessId);
  if (!model) {
    messages.push({
      carrier: 'self',
      code: 'PRICE_MODEL_MISSING',
      message: translate('delivery_prices.model_missing', ctx.lang),
    });
    return null;
  }
  const priced = await priceWithModel(ctx, model, {
    type: input.type,
    to: input.recipient.address,
    packageWeightsGrams: input.parcels.map((p) => p.weight_grams),
    hasTimeWindow: Boolean(input.time_window),
  });
  if (priced === 'NO_DISTANCE') {
    messages.push({
      carrier: 'self',
      code: 'DELIVERY_COORDINATES_REQUIRED',
      message: translate('delivery_prices.coordinates_required', ctx.lang),
    });
    return null;
  }
  const row: SelfRateRow = {
    id: newRateId('sr_'),
    business_id: ctx.caller.businessId,
    caller_id: ctx.caller.id,
    input,
    currency: priced.quote.currency,
    shipping_price: priced.quote.shipping_price,
    tax: priced.quote.tax,
    price_details: priced.quote.price_details as unknown as Record<string, string>[],
    expires_at: new Date(Date.now() + ctx.config.labels.rateTtlMinutes * 60_000),
    used_by_order_id: null,
    idempotency_key: null,
  };
  await insertSelfRate(ctx.em, row);
  return row;
}

/** Label rates as labelservice_rate quotes them; for P2P shipped from the pickup, none for a collection (P). */
async function rateLabels(ctx: BusinessContext, input: UniorderRateInput, shipDate: string, messages: Message[]) {
  if (input.type === 'P') {
    messages.push({
      carrier: 'labels',
      code: 'NOT_LABEL_SHIPPABLE',
      message: translate('uniorder.not_label_shippable', ctx.lang),
    });
    return [];
  }
  const labelInput: RateInput = {
    shipper: (input.type === 'P2P' ? input.pickup : input.shipper) ?? null,
    recipient: input.recipient,
    parcels: input.parcels,
    ship_date: shipDate,
    reference: input.reference ?? null,
    ...(input.carriers && { carriers: input.carriers }),
    ...(input.services && { services: input.services }),
  };
  try {
    return (await quoteLabels(ctx, labelInput)).rates.map((r) => r);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.code === 'NO_CARRIER_ACCOUNT') messages.push({ carrier: 'labels', code: err.code, message: say(ctx, err) });
    else if (err.code === 'CARRIER_ERROR') messages.push(...((err.extra?.carrier_errors ?? []) as Message[]));
    else throw err;
    return [];
  }
}

function presentSelfRate(r: SelfRateRow, businessName: string, hidden: boolean): UniorderRateAnswer['rates'][number] {
  const view = {
    rate_id: r.id,
    kind: 'self_delivery' as const,
    carrier: 'self',
    carrier_name: businessName,
    service: `local_${r.input.type}`,
    service_name: SELF_SERVICE_NAMES[r.input.type],
    transit_days: 0,
    estimated_delivery: r.input.ship_date,
    expires_at: new Date(r.expires_at).toISOString(),
  };
  return hidden
    ? { ...view, price_hidden: true as const }
    : { ...view, currency: r.currency, total_charge: r.shipping_price, tax: r.tax, price_details: r.price_details };
}

export type CreateItemResult =
  | { ok: true; order: UniorderOrderView }
  | { ok: false; order_id?: number; code: string; message: string; errors?: { field: string; message: string }[] };

/** A creation whose refusal is answered, never thrown: a bad rate, an expired or used one, a carrier's refusal. */
export async function createItem(ctx: BusinessContext, input: UniorderCreateInput): Promise<CreateItemResult> {
  try {
    return { ok: true, order: await createOrder(ctx, input) };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return refusalOf(ctx, err);
  }
}

/** An AppError as an item's result: its code, message and field errors in the caller's language, and its order. */
export function refusalOf(ctx: BusinessContext, err: AppError): Extract<CreateItemResult, { ok: false }> {
  const orderId = err.extra?.order_id;
  return {
    ok: false,
    ...(typeof orderId === 'number' && { order_id: orderId }),
    code: err.code,
    message: say(ctx, err),
    ...(err.fields && {
      errors: err.fields.map((f) => ({ field: f.field, message: translate(f.key, ctx.lang, f.params) })),
    }),
  };
}

/** Creates the order at the rate, or throws the refusal (LABEL_PURCHASE_FAILED 424 with `order_id`). */
export async function createOrder(ctx: BusinessContext, input: UniorderCreateInput): Promise<UniorderOrderView> {
  switch (kindOfRateId(input.rate_id)) {
    case 'label': {
      const { orderId } = await buyAtRate(ctx, {
        rate_id: input.rate_id,
        idempotency_key: input.idempotency_key,
        reference: input.reference,
        label_format: input.label_format,
        shipper_contact: input.shipper_contact,
        recipient_contact: input.recipient_contact,
        customer_id: input.customer_id,
      });
      const label = await labelOrderOf(ctx.em, ctx.caller.businessId, orderId);
      if (label?.state === 'failed') throw purchaseFailed(orderId, label.label_error);
      return orderView(ctx, orderId);
    }
    case 'self_delivery':
      return createSelfOrder(ctx, input);
    default:
      throw errors.field('rate_id', 'uniorder.unknown_rate');
  }
}

export const purchaseFailed = (
  orderId: number,
  error: { carrier: string; code: string; message: string; retryable: boolean } | null,
) =>
  new AppError(424, 'LABEL_PURCHASE_FAILED', 'uniorder.purchase_failed', {
    extra: {
      order_id: orderId,
      ...(error && {
        carrier_error: { carrier: error.carrier, code: error.code, message: error.message, retryable: error.retryable },
      }),
    },
  });

/** Thrown inside the placing transaction when a racing creation took the rate or the key first: it rolls back. */
class RaceLost extends Error {
  readonly what: 'used' | 'key';
  constructor(what: 'used' | 'key') {
    super(`a racing creation took the ${what === 'key' ? 'key' : 'rate'}`);
    this.what = what;
  }
}

const rateUsed = (orderId: number) =>
  new AppError(409, 'RATE_ALREADY_USED', 'uniorder.rate_already_used', { extra: { order_id: orderId } });

/** The local order at a self rate: placed at the rate's price (never re-priced) on its ship date, once. */
async function createSelfOrder(ctx: BusinessContext, input: UniorderCreateInput): Promise<UniorderOrderView> {
  const businessId = ctx.caller.businessId;
  const key = input.idempotency_key ?? null;
  if (key) {
    const earlier = await selfRateByKey(ctx.em, businessId, key);
    if (earlier) return replay(ctx, earlier, input.rate_id);
  }
  const rate = await selfRateById(ctx.em, businessId, input.rate_id);
  if (!rate || (ctx.caller.role === 'customer' && rate.caller_id !== ctx.caller.id))
    throw errors.field('rate_id', 'uniorder.unknown_rate');
  if (rate.used_by_order_id !== null) {
    // A creation of the same key that committed since the key was looked up above is this call's first one.
    const first = key ? await selfRateByKey(ctx.em, businessId, key) : null;
    if (first) return replay(ctx, first, input.rate_id);
    throw rateUsed(rate.used_by_order_id);
  }
  if (new Date(rate.expires_at).getTime() <= Date.now())
    throw new AppError(409, 'RATE_EXPIRED', 'uniorder.rate_expired');
  const customerId = await placementCustomerOf(ctx, input.customer_id ?? null);
  const row = placementOf(rate, input, customerId);
  const price = {
    shippingPrice: rate.shipping_price,
    tax: rate.tax,
    currency: rate.currency,
    priceDetails: rate.price_details,
  };
  let placed;
  try {
    placed = await ctx.em.transactional(async (tx) => {
      const [p] = await placeOrders(tx, businessId, [row], actorOf(ctx), { pricing: null, prices: [price] });
      const claim = await claimSelfRate(tx, rate.id, p!.orderId, key);
      if (claim !== 'claimed') throw new RaceLost(claim);
      return p!;
    });
  } catch (err) {
    if (!(err instanceof RaceLost)) throw err;
    // A racing creation with the same key won: its order is this call's answer (or the key named another rate).
    const earlier = key ? await selfRateByKey(ctx.em, businessId, key) : null;
    if (earlier) return replay(ctx, earlier, input.rate_id);
    throw rateUsed((await selfRateById(ctx.em, businessId, rate.id))!.used_by_order_id!);
  }
  await afterOrdersPlaced(ctx, [placed]);
  return orderView(ctx, placed.orderId);
}

/**
 * An earlier creation of the same key: its order again, unless it named another rate or is not the caller's to see
 * (a customer account's key names its own creations only).
 */
function replay(ctx: BusinessContext, earlier: SelfRateRow, rateId: string): Promise<UniorderOrderView> {
  const mine = ctx.caller.role !== 'customer' || earlier.caller_id === ctx.caller.id;
  if (earlier.id !== rateId || !mine)
    throw new AppError(409, 'IDEMPOTENCY_KEY_REUSED', 'uniorder.idempotency_key_reused');
  return orderView(ctx, earlier.used_by_order_id!);
}

/** The local order of a self rate: the shipment as rated, the contact fields the rate left empty filled in. */
function placementOf(rate: SelfRateRow, input: UniorderCreateInput, customerId: number | null): PlacementRow {
  const r = rate.input;
  return {
    type: r.type,
    scheduled_date: r.ship_date,
    order_ref: input.reference ?? r.reference ?? null,
    recipient: recipientOf(r.recipient, input.recipient_contact),
    note: input.note ?? null,
    packages: r.parcels.map((p) => ({
      weight_grams: p.weight_grams,
      length_mm: p.length_mm ?? null,
      width_mm: p.width_mm ?? null,
      height_mm: p.height_mm ?? null,
    })),
    time_window: r.time_window ?? null,
    pickup: r.type === 'P2P' && r.pickup ? recipientOf(r.pickup, input.shipper_contact) : null,
    customer_id: customerId,
  };
}

function recipientOf(p: Party, contact: { phone?: string | null; email?: string | null } | undefined) {
  return {
    name: p.company ? `${p.name}, ${p.company}` : p.name,
    phone: p.phone ?? contact?.phone ?? null,
    email: p.email ?? contact?.email ?? null,
    address: {
      line1: p.address.line1,
      line2: p.address.line2 ?? null,
      city: p.address.city,
      postal_code: p.address.postal_code,
      country: p.address.country,
      lat: p.address.lat ?? null,
      lng: p.address.lng ?? null,
    },
  };
}
