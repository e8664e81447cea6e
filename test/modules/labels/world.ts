/**
 * A business with both sandbox carriers connected (docs/labels.md), its staff and customer signed in, and the rate
 * input the label tests share.
 */
import { insertAccount } from '../../../src/modules/labels/repo/accounts.ts';
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
