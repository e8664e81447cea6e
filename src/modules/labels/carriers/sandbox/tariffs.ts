/** The two sandbox carriers' services and tariffs (docs/labels.md, "The two sandbox carriers"). */
import { parseDecimal } from '../../../delivery-prices/index.ts';
import type { Tariff } from './pricing.ts';

/** A figure in ten-thousandths from its decimal text ("12.50"). */
const d4 = (text: string): bigint => parseDecimal(text, 4)!;

export interface SandboxCarrier {
  code: 'sandbox_swift' | 'sandbox_parcel';
  name: string;
  /** Tracking numbers: the prefix and how many digits before the check digit. */
  prefix: string;
  digits: number;
  tariffs: readonly (Tariff & { name: string })[];
}

export const SANDBOX_SWIFT: SandboxCarrier = {
  code: 'sandbox_swift',
  name: 'Swift Sandbox Express',
  prefix: 'SWF',
  digits: 10,
  tariffs: [
    {
      service: 'swift_overnight',
      name: 'Overnight',
      fixed: d4('12.50'),
      perKg: d4('1.80'),
      zones: [0n, d4('3.00'), d4('9.00')],
      fuelPercent: 8n,
      transitDays: [1, 1, 3],
      maxWeightGrams: 20_000,
    },
    {
      service: 'swift_express',
      name: 'Express',
      fixed: d4('8.90'),
      perKg: d4('1.10'),
      zones: [0n, d4('2.00'), d4('6.00')],
      fuelPercent: 8n,
      transitDays: [2, 2, 4],
      maxWeightGrams: 20_000,
    },
  ],
};

export const SANDBOX_PARCEL: SandboxCarrier = {
  code: 'sandbox_parcel',
  name: 'Parcel Sandbox Ground',
  prefix: 'PCL',
  digits: 12,
  tariffs: [
    {
      service: 'parcel_ground',
      name: 'Ground',
      fixed: d4('5.40'),
      perKg: d4('0.60'),
      zones: [0n, d4('1.50'), d4('4.50')],
      fuelPercent: 0n,
      transitDays: [3, 4, 7],
      maxWeightGrams: 30_000,
    },
    {
      service: 'parcel_economy',
      name: 'Economy',
      fixed: d4('3.90'),
      perKg: d4('0.45'),
      zones: [0n, d4('1.00'), d4('3.00')],
      fuelPercent: 0n,
      transitDays: [5, 6, 10],
      maxWeightGrams: 30_000,
    },
  ],
};
