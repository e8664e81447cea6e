/**
 * The sandbox carriers' tariffs (docs/labels.md, "The two sandbox carriers"), pure: chargeable weight, zones, price
 * lines and transit days. Money is exact, as for local prices (docs/orders.md, "Money is exact"): tariff figures are
 * integers of ten-thousandths, each line is rounded half-up to the currency's minor unit once, and the total is the
 * sum of the rounded lines.
 */
import { divRound, formatDecimal, minorDigits } from '../../../delivery-prices/index.ts';
import type { CarrierRate, LabelParcel, LabelParty, LabelShipment } from '../adapter.ts';

/** A tariff's figures in ten-thousandths of the account's currency. */
export interface Tariff {
  service: string;
  fixed: bigint;
  perKg: bigint;
  /** The surcharge of zones 1, 2 and 3. */
  zones: readonly [bigint, bigint, bigint];
  /** Fuel surcharge in percent of the base and zone lines; 0: none. */
  fuelPercent: bigint;
  /** Business days in zones 1, 2 and 3. */
  transitDays: readonly [number, number, number];
  maxWeightGrams: number;
}

const D4 = 10_000n;

/**
 * A parcel's chargeable weight in whole kilograms: the larger of its weight and its volume weight (cm³ / 5000),
 * rounded up, at least 1; a parcel with neither is 1 kg.
 */
export function chargeableKg(p: LabelParcel): number {
  const actual = (p.weight_grams ?? 0) / 1000;
  const volume = p.length_mm && p.width_mm && p.height_mm ? (p.length_mm * p.width_mm * p.height_mm) / 5_000_000 : 0;
  return Math.max(1, Math.ceil(Math.max(actual, volume)));
}

/** 1: same country and the same first two characters of the postal code; 2: same country; 3: across countries. */
export function zoneOf(from: LabelParty, to: LabelParty): 1 | 2 | 3 {
  const a = from.address;
  const b = to.address;
  if (a.country.toUpperCase() !== b.country.toUpperCase()) return 3;
  const area = (code: string) => code.replace(/\s+/g, '').slice(0, 2).toUpperCase();
  return area(a.postal_code) === area(b.postal_code) ? 1 : 2;
}

/** The date `days` business days (Monday to Friday) after `date` (YYYY-MM-DD). */
export function addBusinessDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  for (let left = days; left > 0;) {
    d.setUTCDate(d.getUTCDate() + 1);
    const weekday = d.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return d.toISOString().slice(0, 10);
}

/** The rate of a shipment under a tariff, in `currency`; null when a parcel is over the service's weight limit. */
export function rateOf(tariff: Tariff, shipment: LabelShipment, currency: string): CarrierRate | null {
  if (shipment.parcels.some((p) => (p.weight_grams ?? 0) > tariff.maxWeightGrams)) return null;
  const kg = BigInt(shipment.parcels.reduce((sum, p) => sum + chargeableKg(p), 0));
  const zone = zoneOf(shipment.shipper, shipment.recipient);
  const minor = 10n ** BigInt(minorDigits(currency));
  const baseD4 = tariff.fixed + tariff.perKg * kg;
  const zoneD4 = tariff.zones[zone - 1]!;
  const base = divRound(baseD4 * minor, D4);
  const zoneLine = divRound(zoneD4 * minor, D4);
  const fuel = tariff.fuelPercent > 0n ? divRound((baseD4 + zoneD4) * tariff.fuelPercent * minor, 100n * D4) : null;
  const digits = minorDigits(currency);
  const money = (v: bigint) => formatDecimal(v, digits);
  const extra = [
    ...(zoneLine > 0n ? [{ code: 'zone', name: `Zone ${zone}`, amount: money(zoneLine) }] : []),
    ...(fuel !== null ? [{ code: 'fuel', name: 'Fuel surcharge', amount: money(fuel) }] : []),
  ];
  const transit = tariff.transitDays[zone - 1]!;
  return {
    service: tariff.service,
    currency,
    base_charge: money(base),
    extra_charges: extra,
    total_charge: money(base + zoneLine + (fuel ?? 0n)),
    transit_days: transit,
    estimated_delivery: addBusinessDays(shipment.ship_date, transit),
  };
}
