/**
 * Rating (docs/labels.md, "POST /v1/labelservice/rate"): every connected carrier asked in parallel, each under its
 * deadline; each rate stored with an id that buys it once within its life. Carrier failures are messages, and an
 * error only when every carrier asked failed.
 */
import { z } from 'zod';
import { STAFF } from '../../../platform/roles.ts';
import { AppError, errors } from '../../../platform/errors.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { pricesHiddenFrom } from '../../orders/index.ts';
import type { PriceFamily } from '../../../platform/db/outbox.ts';
import { CarrierError, type CarrierRate, type LabelShipment } from '../carriers/adapter.ts';
import { adapterFor, callCarrier } from '../carriers/registry.ts';
import { newRateId } from '../domain.ts';
import { fail } from '../errorCodes.ts';
import { activeAccounts, openAccount, type AccountRow } from '../repo/accounts.ts';
import { businessToday, insertRates, type RateRow } from '../repo/rates.ts';
import { CarrierMessage, partyOf, RateInput, RateView } from '../views.ts';

export interface Quote {
  rates: RateRow[];
  messages: z.input<typeof CarrierMessage>[];
}

/** The rates of a shipment from the business's carriers, stored; sorted by total charge, then transit days. */
export async function quoteLabels(ctx: BusinessContext, input: RateInput): Promise<Quote> {
  const businessId = ctx.caller.businessId;
  const accounts = await activeAccounts(ctx.em, businessId, input.carriers);
  if (accounts.length === 0) throw fail('NO_CARRIER_ACCOUNT', 'labels.no_carrier_account');
  if (!input.shipper && accounts.some((a) => !a.default_shipper)) throw errors.field('shipper', 'labels.no_shipper');
  const shipDate = await shipDateOf(ctx, input.ship_date);
  const messages: Quote['messages'] = [];
  const answers = await Promise.all(
    accounts.map(async (account) => {
      const shipment = shipmentOf(input, account, shipDate);
      try {
        const adapter = adapterFor(account.carrier, ctx);
        const rates = await callCarrier(ctx, adapter, openAccount(account), (call) => adapter.rates(call, shipment));
        return rates
          .filter((r) => !input.services || input.services.includes(r.service))
          .map((r) => ({ account, shipment, rate: r }));
      } catch (err) {
        if (!(err instanceof CarrierError)) throw err;
        messages.push({ carrier: account.carrier, code: err.code, message: err.message });
        return null;
      }
    }),
  );
  if (answers.every((a) => a === null))
    throw new AppError(424, 'CARRIER_ERROR', 'labels.carrier_error', { extra: { carrier_errors: messages } });
  const expiresAt = new Date(Date.now() + ctx.config.labels.rateTtlMinutes * 60_000);
  const rows: RateRow[] = answers
    .flatMap((a) => a ?? [])
    .map(({ account, shipment, rate }) => rateRow(ctx, account, shipment, rate, expiresAt))
    .sort((a, b) => Number(a.total_charge) - Number(b.total_charge) || a.transit_days - b.transit_days);
  await insertRates(ctx.em, rows);
  return { rates: rows, messages };
}

function rateRow(
  ctx: BusinessContext,
  account: AccountRow,
  shipment: LabelShipment,
  rate: CarrierRate,
  expiresAt: Date,
): RateRow {
  return {
    id: newRateId('lr_'),
    business_id: ctx.caller.businessId,
    caller_id: ctx.caller.id,
    carrier_account_id: account.id,
    carrier: account.carrier,
    service: rate.service,
    shipment,
    currency: rate.currency,
    base_charge: rate.base_charge,
    extra_charges: rate.extra_charges,
    total_charge: rate.total_charge,
    transit_days: rate.transit_days,
    estimated_delivery: rate.estimated_delivery,
    expires_at: expiresAt,
    used_by_order_id: null,
  };
}

/** The ship date asked, or today in the business's timezone; a past date is refused. */
async function shipDateOf(ctx: BusinessContext, asked: string | undefined): Promise<string> {
  const today = await businessToday(ctx.em, ctx.caller.businessId);
  if (asked && asked < today) throw errors.field('ship_date', 'labels.past_ship_date');
  return asked ?? today;
}

/** The shipment as a carrier account rates it: the shipper given, or the account's default. */
function shipmentOf(input: RateInput, account: AccountRow, shipDate: string): LabelShipment {
  return {
    shipper: partyOf(input.shipper ?? account.default_shipper!),
    recipient: partyOf(input.recipient),
    parcels: input.parcels.map((p) => ({
      weight_grams: p.weight_grams,
      length_mm: p.length_mm ?? null,
      width_mm: p.width_mm ?? null,
      height_mm: p.height_mm ?? null,
      reference: p.reference ?? null,
    })),
    ship_date: shipDate,
    reference: input.reference ?? null,
  };
}

/** Names of carriers and services, for answers. */
export function serviceNames(ctx: BusinessContext, carrier: string, service: string) {
  const adapter = adapterFor(carrier, ctx);
  return {
    carrier_name: adapter.name,
    service_name: adapter.services.find((s) => s.code === service)?.name ?? service,
  };
}

/** A rate as this caller may see it: without prices when the business hides label prices from the account. */
export function presentRate(ctx: BusinessContext, r: RateRow, pricesHidden: boolean): RateView {
  const view: RateView = {
    rate_id: r.id,
    carrier: r.carrier,
    carrier_account_id: r.carrier_account_id,
    service: r.service,
    ...serviceNames(ctx, r.carrier, r.service),
    transit_days: r.transit_days,
    estimated_delivery: r.estimated_delivery,
    expires_at: new Date(r.expires_at).toISOString(),
  };
  return pricesHidden
    ? { ...view, price_hidden: true }
    : {
        ...view,
        currency: r.currency,
        base_charge: r.base_charge,
        extra_charges: r.extra_charges,
        total_charge: r.total_charge,
      };
}

export const labelPricesHidden = (ctx: BusinessContext) => pricesHiddenFrom(ctx.em, ctx.caller, 'label_service');
/** Whether this caller's answers about one label order leave its prices out: by the order's own family (a label a
 * customer service bought is hidden by that service, docs/customer-services.md). */
export const orderPricesHidden = (ctx: BusinessContext, family: PriceFamily | null | undefined) =>
  pricesHiddenFrom(ctx.em, ctx.caller, family ?? 'label_service');

export const RateAnswer = z.object({
  result: z.literal(true),
  rates: z.array(RateView),
  messages: z.array(CarrierMessage).describe('Carriers that gave no rate, each with its own code and message'),
  price_hidden: z.literal(true).optional(),
});

export const labelRate = defineOperation({
  name: 'labelservice_rate',
  summary: 'Rate a shipment with every connected carrier; each rate has a rate_id that buys its label.',
  description:
    'Asks every active carrier account of the business (or those of `carriers`) in parallel, each under its deadline, and answers every rate sorted by total_charge, then transit_days. Each rate has a `rate_id` that buys one label at this price (labelservice_submit_order) until `expires_at` (30 minutes). A carrier that fails is a `messages` entry with its own code; only when every carrier asked failed is the answer CARRIER_ERROR (424, `carrier_errors`). Without `shipper` the account’s default shipper is used. The sandbox carriers read trigger inputs from `reference` (docs/labels.md). Prices are left out, with `price_hidden: true`, for a customer account its business hides label prices from.',
  tag: 'Labels',
  roles: [...STAFF, 'customer'],
  business: true,
  rest: { method: 'POST', path: '/v1/labelservice/rate' },
  graphql: { name: 'labelserviceRate', kind: 'mutation' },
  mcp: { scope: 'labels:read', risk: 'low', tool: 'get_shipping_rate', servers: ['user', 'developer'] },
  limit: 'quote',
  failures: { NO_CARRIER_ACCOUNT: true, CARRIER_ERROR: true },
  input: RateInput,
  output: RateAnswer,
  async handler(input, ctx) {
    const quote = await quoteLabels(ctx, input);
    const hidden = await labelPricesHidden(ctx);
    return {
      result: true as const,
      rates: quote.rates.map((r) => presentRate(ctx, r, hidden)),
      messages: quote.messages,
      ...(hidden && { price_hidden: true as const }),
    };
  },
});
