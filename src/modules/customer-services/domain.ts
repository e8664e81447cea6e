/**
 * The catalog's prices (docs/customer-services.md, "The catalog"): pure arithmetic on exact decimals. Figures are
 * decimal strings of up to 4 decimals (tax rates: a percent with up to 3), held as integers of 10^-4; each line is
 * rounded half-up once to the currency's minor unit, the subtotal is the sum of the lines, the tax is taken once on
 * the subtotal (rounded half-up), and the total is their sum, as the delivery price model prices.
 */
import { divRound, formatDecimal, minorDigits, parseDecimal } from '../delivery-prices/index.ts';

export interface ServicePricing {
  base_fee: string;
  per_package: string;
  per_kg: string;
  included_weight_kg: string;
  tax_rate: string;
}

export type Fulfilment = { kind: 'own_fleet' } | { kind: 'carrier'; carrier: string; service: string };

export type StoragePeriod = 'day' | 'month';

/** Days in a storage period: a month is 30 days (of `storage_day_seconds` each). */
export const PERIOD_DAYS: Readonly<Record<StoragePeriod, number>> = { day: 1, month: 30 };

export interface PriceLine {
  code: string;
  description: string;
  quantity: number;
  unit_amount: string;
  amount: string;
}

export interface PriceAnswer {
  currency: string;
  total: string;
  tax: string;
  price_details: PriceLine[];
}

/** A price answer with its total in minor units, for the ledger. */
export type Priced = PriceAnswer & { amount: bigint };

/** The storage service's price fields, as priceStorage reads them. */
export interface StoragePricing {
  handling_fee: string;
  price_per_period: string;
  tax_rate: string;
}

const D4 = 10_000n;
const RATE_SCALE = 1_000n;

/** A figure's decimal text as ten-thousandths; 0 for anything that is not one (the API refused those already). */
const d4 = (text: string): bigint => parseDecimal(text, 4) ?? 0n;

/** A unit amount: exact, with at least the currency's decimals and no trailing zeros beyond them. */
function unitText(value: bigint, digits: number): string {
  let text = formatDecimal(value, 4);
  const keep = digits === 0 ? 0 : digits + 1;
  while (text.includes('.') && text.length - text.indexOf('.') > keep && text.endsWith('0')) text = text.slice(0, -1);
  return text.endsWith('.') ? text.slice(0, -1) : text;
}

interface Line {
  code: string;
  description: string;
  quantity: number;
  unit: bigint;
}

/** Prices the lines in the currency: each line rounded once, tax once on the subtotal. */
function price(currency: string, lines: readonly Line[], taxRate: string): Priced {
  const digits = minorDigits(currency);
  const minor = 10n ** BigInt(digits);
  const amounts = lines.map((l) => divRound(l.unit * BigInt(l.quantity) * minor, D4));
  const subtotal = amounts.reduce((sum, a) => sum + a, 0n);
  const rate = parseDecimal(taxRate, 3) ?? 0n;
  const tax = divRound(subtotal * rate, 100n * RATE_SCALE);
  const amount = subtotal + tax;
  return {
    currency,
    total: formatDecimal(amount, digits),
    tax: formatDecimal(tax, digits),
    price_details: lines.map((l, i) => ({
      code: l.code,
      description: l.description,
      quantity: l.quantity,
      unit_amount: unitText(l.unit, digits),
      amount: formatDecimal(amounts[i]!, digits),
    })),
    amount,
  };
}

/**
 * A shipment's price under a shipping (or method 1 ship-out) pricing: the base fee once, `per_package` for each
 * parcel, and `per_kg` for each started kilogram the parcels together weigh above `included_weight_kg` (an unweighed
 * parcel weighs nothing here). The base fee line is always there; the others when they charge something.
 */
export function priceShipment(
  pricing: ServicePricing,
  currency: string,
  parcels: readonly { weight_grams: number | null }[],
): Priced {
  const lines: Line[] = [{ code: 'base_fee', description: 'Base fee', quantity: 1, unit: d4(pricing.base_fee) }];
  const perPackage = d4(pricing.per_package);
  if (perPackage > 0n && parcels.length > 0)
    lines.push({ code: 'per_package', description: 'Per package', quantity: parcels.length, unit: perPackage });
  const grams = parcels.reduce((sum, p) => sum + (p.weight_grams ?? 0), 0);
  const includedGrams = Number(parseDecimal(pricing.included_weight_kg, 3) ?? 0n);
  const kg = Math.max(0, Math.ceil((grams - includedGrams) / 1000));
  const perKg = d4(pricing.per_kg);
  if (perKg > 0n && kg > 0)
    lines.push({ code: 'weight', description: 'Per started kg above the included weight', quantity: kg, unit: perKg });
  return price(currency, lines, pricing.tax_rate);
}

/** A storage order's price: the service's handling fee per package, plus tax (storage time is charged later). */
export function priceStorage(service: StoragePricing, currency: string, packages: number): Priced {
  return price(
    currency,
    [
      {
        code: 'handling_fee',
        description: 'Handling fee per package',
        quantity: packages,
        unit: d4(service.handling_fee),
      },
    ],
    service.tax_rate,
  );
}

/**
 * Storage time: `price_per_period` for each of `periods` package-periods (a package charged for 3 periods counts
 * 3), plus tax; what the storage fee run charges.
 */
export function priceStoragePeriods(service: StoragePricing, currency: string, periods: number): Priced {
  return price(
    currency,
    [
      {
        code: 'storage',
        description: 'Storage per package and period',
        quantity: periods,
        unit: d4(service.price_per_period),
      },
    ],
    service.tax_rate,
  );
}
