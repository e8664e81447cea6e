/**
 * The sandbox carriers' pure parts (docs/labels.md, "The two sandbox carriers"): exact prices line by line in any
 * currency's minor unit, chargeable weight, zones, business-day transit, weight limits, tracking numbers with a check
 * digit, and the trigger references.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LabelParcel, LabelShipment } from '../../../src/modules/labels/carriers/adapter.ts';
import { addBusinessDays, chargeableKg, rateOf, zoneOf } from '../../../src/modules/labels/carriers/sandbox/pricing.ts';
import { SANDBOX_PARCEL, SANDBOX_SWIFT } from '../../../src/modules/labels/carriers/sandbox/tariffs.ts';
import { checksOut, trackingNumberOf } from '../../../src/modules/labels/carriers/sandbox/trackingNumber.ts';
import { triggerOf } from '../../../src/modules/labels/carriers/sandbox/triggers.ts';

const party = (postal: string, country = 'FR') => ({
  name: 'A',
  address: { line1: '1 Rue', city: 'X', postal_code: postal, country },
});
const shipment = (parcels: LabelParcel[], to = party('69001'), ship_date = '2026-12-01'): LabelShipment => ({
  shipper: party('75001'),
  recipient: to,
  parcels,
  ship_date,
});
const [overnight, express] = SANDBOX_SWIFT.tariffs;
const [ground] = SANDBOX_PARCEL.tariffs;

describe('the sandbox carriers', () => {
  test('a price is its lines rounded once each, and the total their sum', () => {
    // Paris to Lyon, zone 2; 1.2 kg is charged as 2 kg: 8.90 + 2 x 1.10, zone 2.00, fuel 8 % of 13.10 = 1.048.
    assert.deepEqual(rateOf(express!, shipment([{ weight_grams: 1200 }]), 'EUR'), {
      service: 'swift_express',
      currency: 'EUR',
      base_charge: '11.10',
      extra_charges: [
        { code: 'zone', name: 'Zone 2', amount: '2.00' },
        { code: 'fuel', name: 'Fuel surcharge', amount: '1.05' },
      ],
      total_charge: '14.15',
      transit_days: 2,
      estimated_delivery: '2026-12-03',
    });
    // In yen the same figures are whole: 11 + 2 + 1, never 14.15 rounded to 14 by chance.
    const yen = rateOf(express!, shipment([{ weight_grams: 1200 }]), 'JPY')!;
    assert.deepEqual(
      [yen.base_charge, yen.extra_charges.map((c) => c.amount), yen.total_charge],
      ['11', ['2', '1'], '14'],
    );
    // Within one postal area there is no zone line, and the ground service has no fuel line.
    const local = rateOf(ground!, shipment([{ weight_grams: 500 }], party('75011')), 'EUR')!;
    assert.deepEqual(
      [local.base_charge, local.extra_charges, local.total_charge, local.transit_days],
      ['6.00', [], '6.00', 3],
    );
  });

  test('chargeable weight is the larger of weight and volume, in whole kilograms, at least one', () => {
    assert.equal(chargeableKg({ weight_grams: 1000, length_mm: 400, width_mm: 300, height_mm: 200 }), 5);
    assert.equal(chargeableKg({ weight_grams: 7100, length_mm: 100, width_mm: 100, height_mm: 100 }), 8);
    assert.equal(chargeableKg({}), 1);
    assert.equal(chargeableKg({ weight_grams: 1 }), 1);
  });

  test('zones: one postal area, one country, across countries', () => {
    assert.equal(zoneOf(party('75001'), party('75 020')), 1);
    assert.equal(zoneOf(party('75001'), party('13001')), 2);
    assert.equal(zoneOf(party('75001'), party('10115', 'DE')), 3);
  });

  test('transit counts Monday to Friday; a parcel over the limit leaves the service out', () => {
    assert.equal(addBusinessDays('2026-11-27', 1), '2026-11-30', 'a Friday and one day is the Monday');
    assert.equal(addBusinessDays('2026-11-28', 0), '2026-11-28');
    const heavy = shipment([{ weight_grams: 25_000 }], party('10115', 'DE'));
    assert.equal(rateOf(overnight!, heavy, 'EUR'), null, 'Swift takes up to 20 kg');
    assert.equal(rateOf(ground!, heavy, 'EUR')!.transit_days, 7);
  });

  test('tracking numbers: the same purchase names the same parcels, and a mistyped digit is caught', () => {
    const swift = trackingNumberOf(SANDBOX_SWIFT.prefix, SANDBOX_SWIFT.digits, 'lo-17.1', 0);
    assert.match(swift, /^SWF\d{11}$/);
    assert.equal(trackingNumberOf('SWF', 10, 'lo-17.1', 0), swift);
    assert.notEqual(trackingNumberOf('SWF', 10, 'lo-17.1', 1), swift);
    assert.notEqual(trackingNumberOf('SWF', 10, 'lo-17.2', 0), swift);
    assert.match(trackingNumberOf(SANDBOX_PARCEL.prefix, SANDBOX_PARCEL.digits, 'k', 0), /^PCL\d{13}$/);
    assert.ok(checksOut(swift, 'SWF'));
    const digit = Number(swift[5]);
    const typo = `${swift.slice(0, 5)}${(digit + 1) % 10}${swift.slice(6)}`;
    assert.ok(!checksOut(typo, 'SWF'), `${typo} is caught`);
    assert.ok(!checksOut(swift, 'PCL'));
  });

  test('a reference names its trigger, the longest that fits', () => {
    assert.equal(triggerOf('SBX-REFUSE-ONCE-42'), 'SBX-REFUSE-ONCE');
    assert.equal(triggerOf(' sbx-refuse order 7'), 'SBX-REFUSE');
    assert.equal(triggerOf('SBX-TIMEOUT'), 'SBX-TIMEOUT');
    assert.equal(triggerOf('ORDER-SBX-REFUSE'), null);
    assert.equal(triggerOf(null), null);
  });
});
