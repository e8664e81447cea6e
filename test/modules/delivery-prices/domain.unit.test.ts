import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  formatDecimal,
  greatCircleMeters,
  isPricingCurrency,
  minorDigits,
  parseDecimal,
  priceDelivery,
  type PriceModel,
} from '../../../src/modules/delivery-prices/domain.ts';

const model: PriceModel = {
  currency: 'EUR',
  base_fee: '0.10',
  per_km: '0.3333',
  per_kg: '0',
  included_weight_kg: '0',
  p2p_surcharge: '0',
  time_window_surcharge: '0',
  extra_package_surcharge: '0',
  tax_rate: '19',
  origin: { lat: 0, lng: 0 },
};
const delivery = { type: 'D' as const, distanceMeters: 1000, packageWeightsGrams: [null], hasTimeWindow: false };

describe('local delivery price arithmetic', () => {
  test('decimal strings are parsed and written exactly', () => {
    assert.equal(parseDecimal('0.1', 4), 1000n);
    assert.equal(parseDecimal('999999.9999', 4), 9_999_999_999n);
    assert.equal(parseDecimal('1.23456', 4), null);
    assert.equal(parseDecimal('-1', 4), null);
    assert.equal(parseDecimal('1e3', 4), null);
    assert.equal(formatDecimal(5n, 2), '0.05');
    assert.equal(formatDecimal(1250n, 0), '1250');
  });

  test('0.1 + 0.2 is 0.30, and each line is rounded half-up once', () => {
    const q = priceDelivery({ ...model, base_fee: '0.1', per_km: '0.2', tax_rate: '0' }, delivery);
    assert.ok(q !== 'NO_DISTANCE');
    assert.equal(q.shipping_price, '0.30');
    // 0.3333 x 1.5 km = 0.49995 -> 0.50 (half-up), not 0.49 (truncated) nor a float's 0.49994999...
    const half = priceDelivery(model, { ...delivery, distanceMeters: 1500 });
    assert.ok(half !== 'NO_DISTANCE');
    assert.equal(half.price_details[1]!.amount, '0.50');
    // 0.60 x 19 % = 0.114 -> 0.11
    assert.equal(half.tax, '0.11');
    assert.equal(half.shipping_price, '0.71');
  });

  test('the currency decides the decimals: none for JPY, three for KWD', () => {
    assert.equal(minorDigits('JPY'), 0);
    assert.equal(minorDigits('KWD'), 3);
    const yen = priceDelivery({ ...model, currency: 'JPY', base_fee: '500', per_km: '80.5', tax_rate: '10' }, delivery);
    assert.ok(yen !== 'NO_DISTANCE');
    assert.deepEqual(
      [yen.price_details.map((l) => l.amount), yen.tax, yen.shipping_price],
      [['500', '81'], '58', '639'],
    );
    const dinar = priceDelivery({ ...model, currency: 'KWD', base_fee: '1.2345', tax_rate: '0' }, delivery);
    assert.ok(dinar !== 'NO_DISTANCE');
    assert.equal(dinar.price_details[0]!.amount, '1.235');
  });

  test('the largest figures stay exact', () => {
    const big = '999999.9999';
    const q = priceDelivery(
      {
        ...model,
        base_fee: big,
        per_km: big,
        per_kg: big,
        p2p_surcharge: big,
        time_window_surcharge: big,
        extra_package_surcharge: big,
        tax_rate: '100',
      },
      {
        type: 'P2P',
        distanceMeters: 20_037_508,
        packageWeightsGrams: Array.from({ length: 50 }, () => 1_000_000),
        hasTimeWindow: true,
      },
    );
    assert.ok(q !== 'NO_DISTANCE');
    const cents = q.price_details.reduce((s, l) => s + BigInt(l.amount.replace('.', '')), 0n);
    assert.equal(BigInt(q.shipping_price.replace('.', '')), cents * 2n);
  });

  test('a model charging per km cannot price without a distance; one that does not, can', () => {
    assert.equal(priceDelivery(model, { ...delivery, distanceMeters: null }), 'NO_DISTANCE');
    const flat = priceDelivery({ ...model, per_km: '0' }, { ...delivery, distanceMeters: null });
    assert.ok(flat !== 'NO_DISTANCE');
    assert.deepEqual(
      flat.price_details.map((l) => l.code),
      ['base_fee'],
    );
  });

  test('currencies: ISO 4217 money only', () => {
    for (const c of ['EUR', 'USD', 'JPY', 'KWD', 'CHF']) assert.ok(isPricingCurrency(c), c);
    for (const c of ['eur', 'ZZZ', 'XAU', 'XXX', 'XTS', 'EURO', '']) assert.ok(!isPricingCurrency(c), c);
  });

  test('great-circle distance: Paris to London, and zero', () => {
    assert.equal(greatCircleMeters({ lat: 48.8566, lng: 2.3522 }, { lat: 51.5074, lng: -0.1278 }), 343_557);
    assert.equal(greatCircleMeters({ lat: 10, lng: 10 }, { lat: 10, lng: 10 }), 0);
  });
});
