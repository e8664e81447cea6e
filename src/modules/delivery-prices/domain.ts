/**
 * The local delivery price, pure: a business's price model applied to one delivery (docs/orders.md, Local prices).
 *
 * Money is exact. Every amount crosses the API as a decimal string ("12.50"); inside, a model's figures are integers
 * of ten-thousandths (a "D4" value) and a priced delivery's amounts integers of the currency's minor unit, all
 * bigint, so no float ever touches money. Each line item is rounded half-up to the minor unit once, the subtotal is
 * the sum of the rounded lines, the tax is rounded once on the subtotal, and the shipping price is their sum: the
 * lines always add up to what is charged.
 */

/** Figures of a model are kept to four decimal places. */
const D4 = 10_000n;
/** Tax rates (a percentage) are kept to three decimal places. */
const RATE_SCALE = 1_000n;

/** ISO 4217 currencies whose minor unit is not the hundredth; every other currency has two decimals. */
const MINOR_DIGITS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

/** Codes that are ISO 4217 but no money to price a delivery in: precious metals, funds, testing and "no currency". */
const NOT_MONEY = new Set(['XAG', 'XAU', 'XBA', 'XBB', 'XBC', 'XBD', 'XDR', 'XPD', 'XPT', 'XSU', 'XTS', 'XUA', 'XXX']);

/** The ISO 4217 codes a delivery can be priced in: those the runtime's ICU data knows, less those that are no money. */
export const PRICING_CURRENCIES = Intl.supportedValuesOf('currency').filter(
  (c) => /^[A-Z]{3}$/.test(c) && !NOT_MONEY.has(c),
) as [string, ...string[]];

const KNOWN_CURRENCIES: ReadonlySet<string> = new Set(PRICING_CURRENCIES);

export const isPricingCurrency = (code: string): boolean => KNOWN_CURRENCIES.has(code);

/** Decimals of the currency's minor unit (ISO 4217). */
export const minorDigits = (currency: string): number => MINOR_DIGITS[currency] ?? 2;

/** A non-negative decimal string with at most `scale` decimals, as an integer of 10^-scale; null when it is not one. */
export function parseDecimal(text: string, scale: number): bigint | null {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m || (m[2]?.length ?? 0) > scale) return null;
  return BigInt(m[1]! + (m[2] ?? '').padEnd(scale, '0'));
}

/** An integer of 10^-scale written as a decimal string with exactly `scale` decimals. */
export function formatDecimal(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

/** n / d rounded half-up, for n >= 0 and d > 0. */
export const divRound = (n: bigint, d: bigint): bigint => (2n * n + d) / (2n * d);

/** A business's price model, as the API writes it (decimal strings). */
export interface PriceModel {
  currency: string;
  /** Charged on every delivery. */
  base_fee: string;
  /** Charged per kilometre between the origin and the recipient (to the metre). */
  per_km: string;
  /** Charged per started kilogram above `included_weight_kg` of the order's packages together. */
  per_kg: string;
  included_weight_kg: string;
  /** Added to a peer-to-peer order (type P2P). */
  p2p_surcharge: string;
  /** Added when the delivery has a time window. */
  time_window_surcharge: string;
  /** Added per package beyond the first. */
  extra_package_surcharge: string;
  /** Percent of the subtotal, for example "20" or "8.875". */
  tax_rate: string;
  /** Where the deliveries start: the depot (a pickup ends there). */
  origin: { lat: number; lng: number };
}

/** What one delivery is priced on. */
export interface Delivery {
  type: 'D' | 'P' | 'P2P';
  /** Metres between the origin and the recipient; null when unknown (no recipient coordinates). */
  distanceMeters: number | null;
  /** Grams of each package; an unmeasured package weighs nothing here. */
  packageWeightsGrams: readonly (number | null | undefined)[];
  hasTimeWindow: boolean;
}

export type PriceLineCode =
  'base_fee' | 'distance' | 'weight' | 'p2p_surcharge' | 'time_window_surcharge' | 'extra_package_surcharge';

/** One line of price_details: what is charged, how much of it, at what unit amount. */
export interface PriceLine {
  code: PriceLineCode;
  quantity: string;
  unit: 'delivery' | 'km' | 'kg' | 'package';
  unit_amount: string;
  amount: string;
}

export interface Quote {
  currency: string;
  /** The subtotal of the lines plus the tax. */
  shipping_price: string;
  tax: string;
  tax_rate: string;
  price_details: PriceLine[];
  /** Before tax. */
  subtotal: string;
  chargeable_weight_kg: number;
}

export type PriceRefusal = 'NO_DISTANCE';

/**
 * The price of one delivery under the model, or why it cannot be priced: a model that charges per kilometre needs
 * the distance, and a delivery without recipient coordinates has none.
 */
export function priceDelivery(model: PriceModel, d: Delivery): Quote | PriceRefusal {
  const digits = minorDigits(model.currency);
  const minor = 10n ** BigInt(digits);
  const d4 = (text: string) => parseDecimal(text, 4) ?? 0n;
  // A D4 figure times an integer quantity, rounded to the minor unit.
  const lineOf = (value: bigint, quantity: bigint) => divRound(value * quantity * minor, D4);
  const money = (value: bigint) => formatDecimal(value, digits);
  const lines: { code: PriceLineCode; quantity: string; unit: PriceLine['unit']; unitD4: bigint; amount: bigint }[] =
    [];

  const base = d4(model.base_fee);
  lines.push({ code: 'base_fee', quantity: '1', unit: 'delivery', unitD4: base, amount: lineOf(base, 1n) });

  const perKm = d4(model.per_km);
  if (perKm > 0n) {
    if (d.distanceMeters === null) return 'NO_DISTANCE';
    const meters = BigInt(Math.round(d.distanceMeters));
    lines.push({
      code: 'distance',
      quantity: formatDecimal(meters, 3),
      unit: 'km',
      unitD4: perKm,
      amount: divRound(perKm * meters * minor, D4 * 1000n),
    });
  }

  const grams = d.packageWeightsGrams.reduce<number>((sum, g) => sum + (g ?? 0), 0);
  const includedGrams = Number(parseDecimal(model.included_weight_kg, 3) ?? 0n);
  const chargeableKg = Math.max(0, Math.ceil((grams - includedGrams) / 1000));
  const perKg = d4(model.per_kg);
  if (perKg > 0n && chargeableKg > 0) {
    const kg = BigInt(chargeableKg);
    lines.push({ code: 'weight', quantity: kg.toString(), unit: 'kg', unitD4: perKg, amount: lineOf(perKg, kg) });
  }

  const surcharge = (code: PriceLineCode, unit: PriceLine['unit'], text: string, count: number) => {
    const value = d4(text);
    if (value > 0n && count > 0)
      lines.push({ code, quantity: String(count), unit, unitD4: value, amount: lineOf(value, BigInt(count)) });
  };
  if (d.type === 'P2P') surcharge('p2p_surcharge', 'delivery', model.p2p_surcharge, 1);
  if (d.hasTimeWindow) surcharge('time_window_surcharge', 'delivery', model.time_window_surcharge, 1);
  surcharge(
    'extra_package_surcharge',
    'package',
    model.extra_package_surcharge,
    Math.max(0, d.packageWeightsGrams.length - 1),
  );

  const subtotal = lines.reduce((sum, l) => sum + l.amount, 0n);
  const rate = parseDecimal(model.tax_rate, 3) ?? 0n;
  const tax = divRound(subtotal * rate, 100n * RATE_SCALE);
  return {
    currency: model.currency,
    shipping_price: money(subtotal + tax),
    tax: money(tax),
    tax_rate: formatDecimal(rate, 3),
    subtotal: money(subtotal),
    chargeable_weight_kg: chargeableKg,
    price_details: lines.map((l) => ({
      code: l.code,
      quantity: l.quantity,
      unit: l.unit,
      unit_amount: formatDecimal(l.unitD4, 4),
      amount: money(l.amount),
    })),
  };
}

/** The Earth's mean radius (IUGG), in metres. */
const EARTH_RADIUS_M = 6_371_008.8;

/** Great-circle (haversine) distance between two points, in whole metres. */
export function greatCircleMeters(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = (deg: number) => (deg * Math.PI) / 180;
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return Math.round(2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h))));
}

/**
 * The figures a model field may hold, each a pattern a JSON Schema states too: money up to 999999.9999, an included
 * weight up to 100000 kg (3 decimals), a tax rate of 0 to 100 percent (3 decimals).
 */
export const LIMITS = {
  moneyPattern: /^\d{1,6}(\.\d{1,4})?$/,
  weightPattern: /^(\d{1,5}(\.\d{1,3})?|100000(\.0{1,3})?)$/,
  taxPattern: /^(\d{1,2}(\.\d{1,3})?|100(\.0{1,3})?)$/,
} as const;
