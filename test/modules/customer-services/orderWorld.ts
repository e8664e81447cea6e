/**
 * What the customer-order tests (shipping orders, storage, ship-outs) set up alike: an answer's status checked, the
 * business's customer-services settings, a warehouse, another customer account signed in, a wallet topped up
 * through the wallet module's own transfer(), and price families hidden from a customer.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { User } from '../../../src/modules/identity/index.ts';
import { transfer } from '../../../src/modules/wallet/index.ts';
import { executeBound } from '../../../src/platform/db/orm.ts';
import { hashPassword } from '../../../src/platform/secrets.ts';
import type { TestApp } from '../../helpers/app.ts';
import { PASSWORD } from '../../helpers/factories.ts';

const ADDRESS = { line1: '1 rue A', city: 'Paris', postal_code: '75001', country: 'FR' };

/** The answer's body, once its status is the one expected. */
export const ok = (res: { status: number; body: any }, status = 200) => {
  assert.equal(res.status, status, JSON.stringify(res.body));
  return res.body;
};

/** Sets the business's customer-services settings (currency, unpaid expiry, storage day). */
export async function setCustomerServiceSettings(app: TestApp, admin: string, settings: Record<string, unknown>) {
  ok(await app.http.put('/v1/client/customer-services/settings', settings, { token: admin }));
}

/** A warehouse of the business in Paris. */
export async function makeWarehouse(app: TestApp, admin: string, code: string, name = `Warehouse ${code}`) {
  return ok(
    await app.http.post(
      '/v1/wms/warehouses',
      { code, name, address: ADDRESS, timezone: 'Europe/Paris' },
      { token: admin },
    ),
    201,
  ).warehouse as { id: number; code: string };
}

/** Another customer account of the business, signed in. */
export async function anotherCustomer(app: TestApp, businessId: number, who: { email: string; name: string }) {
  const em = app.em();
  const user = em.create(User, {
    businessId,
    email: who.email,
    name: who.name,
    role: 'customer',
    passwordHash: await hashPassword(PASSWORD),
  });
  await em.flush();
  return { id: user.id, token: await app.login(user.email, PASSWORD) };
}

/** Credits the customer's EUR wallet `amount` (minor units) as a top-up from the business's funding account. */
export const topUpWallet = (
  app: TestApp,
  f: { businessId: number; customerId: number; amount: bigint; key?: string },
) =>
  app.em().transactional((tx) =>
    transfer(tx, {
      businessId: f.businessId,
      key: f.key ?? `test-top-up-${randomUUID()}`,
      currency: 'EUR',
      code: 'top_up',
      amount: f.amount,
      debit: { kind: 'funding' },
      credit: { kind: 'wallet', customerId: f.customerId },
    }),
  );

/** Hides the storage services' prices from the customer, as a client admin would. */
export const hideStoragePrices = (app: TestApp, customerId: number) =>
  executeBound(app.em(), "update app_user set hidden_price_families = '{storage_services}' where id = $1", [
    customerId,
  ]);
