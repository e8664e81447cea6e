/**
 * A business with both sandbox carriers connected (docs/labels.md), its staff and customer signed in, and the rate
 * input the label tests share.
 */
import { insertAccount } from '../../../src/modules/labels/repo/accounts.ts';
import { PRICE_KEYS } from '../../../src/modules/webhooks/transform.ts';
import assert from 'node:assert/strict';
import type { TestApp } from '../../helpers/app.ts';
import { makeBusiness, PASSWORD } from '../../helpers/factories.ts';

export const SHIPPER = {
  name: 'Depot',
  company: 'Test Shipping',
  phone: '+33100000000',
  address: { line1: '1 rue A', city: 'Paris', postal_code: '75001', country: 'FR' },
};

export const RECIPIENT = {
  name: 'Ana Martin',
  email: 'ana@example.com',
  address: { line1: '9 Av B', city: 'Lyon', postal_code: '69002', country: 'FR' },
};

/** A rate request of one 1.2 kg parcel from Paris to Lyon (zone 2); `reference` carries the sandbox triggers. */
export const rateBody = (reference = 'SO-1', extra: Record<string, unknown> = {}) => ({
  shipper: SHIPPER,
  recipient: RECIPIENT,
  parcels: [{ weight_grams: 1200, length_mm: 300, width_mm: 200, height_mm: 100 }],
  reference,
  ...extra,
});

export async function labelWorld(app: TestApp) {
  const em = app.em();
  const b = await makeBusiness(em);
  const accounts = [];
  for (const carrier of ['sandbox_swift', 'sandbox_parcel'])
    accounts.push(
      (await insertAccount(em, b.business.id, {
        carrier,
        name: `${carrier} test`,
        account_number: `${carrier.toUpperCase()}-${b.tag}`,
        credentials: { api_key: `sbx_${b.tag}` },
        currency: 'EUR',
        default_shipper: { ...SHIPPER, email: null, address: { ...SHIPPER.address, line2: null, state: null } },
      }))!,
    );
  const admin = await app.login(b.users.admin.email, PASSWORD);
  const employee = await app.login(b.users.employee.email, PASSWORD);
  const customer = await app.login(b.users.customer.email, PASSWORD);
  return { ...b, accounts, admin, employee, customer };
}
export type LabelWorld = Awaited<ReturnType<typeof labelWorld>>;

/**
 * Every key that holds a price: the webhooks' hidden keys (transform.ts) and the label answers' own (rates' charges,
 * price lines). A bare `total` is left out: it counts items in batch and job answers.
 */
const LABEL_PRICE_KEYS = new Set([
  ...PRICE_KEYS,
  'base_charge',
  'extra_charges',
  'total_charge',
  'charges',
  'amount',
  'unit_amount',
]);

/** The paths of every price key at any depth of a JSON value (`rates.0.total_charge`): empty when none is left. */
export function priceFieldsIn(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => priceFieldsIn(v, `${path}${i}.`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => [
    ...(LABEL_PRICE_KEYS.has(key) ? [`${path}${key}`] : []),
    ...priceFieldsIn(child, `${path}${key}.`),
  ]);
}

/**
 * The rates of rateBody's shipment, however they were asked for (REST, GraphQL): both sandbox carriers' four
 * services, cheapest first, and Swift Express priced line by line. Answers the Express rate.
 */
export function assertSandboxRates(rates: any[]): any {
  assert.deepEqual(rates.map((r) => `${r.carrier}/${r.service}`).sort(), [
    'sandbox_parcel/parcel_economy',
    'sandbox_parcel/parcel_ground',
    'sandbox_swift/swift_express',
    'sandbox_swift/swift_overnight',
  ]);
  const totals = rates.map((r) => Number(r.total_charge));
  assert.deepEqual(
    totals,
    [...totals].sort((a, b) => a - b),
  );
  const express = rates.find((r) => r.service === 'swift_express');
  // 8.90 + 1.10 x 2 kg (1.2 kg, volume 1.2 kg: rounded up) = 11.10; zone 2 2.00; fuel 8 % of 13.10 = 1.05.
  assert.equal(express.base_charge, '11.10');
  assert.deepEqual(
    express.extra_charges.map((c: any) => [c.code, c.amount]),
    [
      ['zone', '2.00'],
      ['fuel', '1.05'],
    ],
  );
  assert.equal(express.total_charge, '14.15');
  return express;
}

/** The carrier gets the parcel: its data is submitted (by staff), which tells the label's process. */
export async function handOver(app: TestApp, w: LabelWorld, orderId: number): Promise<void> {
  const res = await app.http.post(
    '/v1/labelservice/submitShippingInformation',
    { order_ids: [orderId] },
    { token: w.admin },
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.results[0].state, 'submitted', JSON.stringify(res.body));
}

/** The tracking events of a sandbox label's whole journey, in order, by their OTEP keys. */
export const JOURNEY_KEYS = [
  'otep:core:picked_up',
  'otep:core:received_at_facility',
  'otep:core:departed_facility',
  'otep:core:in_transit',
  'otep:core:out_for_delivery',
  'otep:core:delivered',
];
