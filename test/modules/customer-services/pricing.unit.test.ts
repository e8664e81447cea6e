import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  priceShipment,
  priceStorage,
  priceStoragePeriods,
  type ServicePricing,
} from '../../../src/modules/customer-services/domain.ts';

const pricing = (p: Partial<ServicePricing>): ServicePricing => ({
  base_fee: '0',
  per_package: '0',
  per_kg: '0',
  included_weight_kg: '0',
  tax_rate: '0',
  ...p,
});

describe('customer services price arithmetic', () => {
  test('a shipment: base fee, per package, per started kg above the included weight, tax once on the subtotal', () => {
    const p = priceShipment(
      pricing({ base_fee: '4.90', per_package: '1.00', per_kg: '0.80', included_weight_kg: '2', tax_rate: '21' }),
      'USD',
      [{ weight_grams: 1500 }, { weight_grams: 1700 }, { weight_grams: null }],
    );
    // 3.2 kg, 2 included: 2 started kg. Subtotal 4.90 + 3.00 + 1.60 = 9.50; tax 1.995 -> 2.00 (half-up).
    assert.deepEqual(
      p.price_details.map((l) => [l.code, l.quantity, l.unit_amount, l.amount]),
      [
        ['base_fee', 1, '4.90', '4.90'],
        ['per_package', 3, '1.00', '3.00'],
        ['weight', 2, '0.80', '1.60'],
      ],
    );
    assert.equal(p.tax, '2.00');
    assert.equal(p.total, '11.50');
    assert.equal(p.amount, 1150n);
    assert.equal(p.currency, 'USD');
  });

  test('each line is rounded half-up once, not each unit', () => {
    const p = priceShipment(pricing({ per_package: '0.0125' }), 'EUR', Array(10).fill({ weight_grams: 100 }));
    // 10 x 0.0125 = 0.125 -> 0.13 (a unit rounded first would give 10 x 0.01 = 0.10).
    assert.equal(p.price_details[1]!.amount, '0.13');
    assert.equal(p.price_details[1]!.unit_amount, '0.0125');
    assert.equal(p.total, '0.13');
    const q = priceShipment(pricing({ per_package: '0.3333' }), 'EUR', Array(3).fill({ weight_grams: null }));
    assert.equal(q.total, '1.00');
    assert.equal(q.amount, 100n);
  });

  test('weight exactly at the included weight charges nothing; a gram over charges a started kg', () => {
    const at = priceShipment(pricing({ per_kg: '2', included_weight_kg: '1.5' }), 'USD', [{ weight_grams: 1500 }]);
    assert.deepEqual(
      at.price_details.map((l) => l.code),
      ['base_fee'],
    );
    const over = priceShipment(pricing({ per_kg: '2', included_weight_kg: '1.5' }), 'USD', [{ weight_grams: 1501 }]);
    assert.equal(over.price_details[1]!.quantity, 1);
    assert.equal(over.total, '2.00');
  });

  test('JPY has no decimals: lines and tax round to whole yen', () => {
    const p = priceShipment(pricing({ base_fee: '333', per_package: '99.5', tax_rate: '8.5' }), 'JPY', [
      { weight_grams: 500 },
    ]);
    // 333 + 99.5 -> 100; subtotal 433; tax 36.805 -> 37.
    assert.deepEqual(
      p.price_details.map((l) => [l.unit_amount, l.amount]),
      [
        ['333', '333'],
        ['99.5', '100'],
      ],
    );
    assert.equal(p.tax, '37');
    assert.equal(p.total, '470');
    assert.equal(p.amount, 470n);
  });

  test('KWD has 3 decimals', () => {
    const p = priceShipment(pricing({ base_fee: '1.2345', tax_rate: '5' }), 'KWD', []);
    // 1.2345 -> 1.235 (half-up); tax 0.06175 -> 0.062.
    assert.equal(p.price_details[0]!.unit_amount, '1.2345');
    assert.equal(p.price_details[0]!.amount, '1.235');
    assert.equal(p.tax, '0.062');
    assert.equal(p.total, '1.297');
    assert.equal(p.amount, 1297n);
    assert.equal(priceShipment(pricing({ base_fee: '2' }), 'KWD', []).price_details[0]!.unit_amount, '2.000');
  });

  test('a storage order: the handling fee per package plus tax', () => {
    const p = priceStorage({ handling_fee: '1.00', price_per_period: '9', tax_rate: '21' }, 'USD', 3);
    assert.deepEqual(p.price_details, [
      {
        code: 'handling_fee',
        description: 'Handling fee per package',
        quantity: 3,
        unit_amount: '1.00',
        amount: '3.00',
      },
    ]);
    assert.equal(p.tax, '0.63');
    assert.equal(p.total, '3.63');
    assert.equal(p.amount, 363n);
    const free = priceStorage({ handling_fee: '0', price_per_period: '9', tax_rate: '21' }, 'EUR', 2);
    assert.equal(free.total, '0.00');
    assert.equal(free.amount, 0n);
  });

  test('storage periods: price per period times the periods, rounded once, plus tax', () => {
    const p = priceStoragePeriods({ handling_fee: '0', price_per_period: '0.0833', tax_rate: '20' }, 'EUR', 7);
    // 0.5831 -> 0.58; tax 0.116 -> 0.12.
    assert.equal(p.price_details[0]!.amount, '0.58');
    assert.equal(p.tax, '0.12');
    assert.equal(p.total, '0.70');
    assert.equal(p.amount, 70n);
  });
});
