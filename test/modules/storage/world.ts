/**
 * A business for the storage tests: its settings (EUR, a storage day and an unpaid expiry as the test asks), a
 * warehouse with a storage service (handling 1.00 and 0.50 a period per package, tax 20 %), its staff and customers
 * signed in, and the wallet topped up through the wallet module's own transfer().
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { User } from '../../../src/modules/identity/index.ts';
import { transfer } from '../../../src/modules/wallet/index.ts';
import { executeBound } from '../../../src/platform/db/orm.ts';
import { hashPassword } from '../../../src/platform/secrets.ts';
import type { TestApp } from '../../helpers/app.ts';
import { makeBusiness, PASSWORD } from '../../helpers/factories.ts';

const ADDRESS = { line1: '1 rue A', city: 'Paris', postal_code: '75001', country: 'FR' };

export const ok = (res: { status: number; body: any }, status = 200) => {
  assert.equal(res.status, status, JSON.stringify(res.body));
  return res.body;
};

export async function storageWorld(
  app: TestApp,
  opts: {
    storageDaySeconds?: number;
    unpaidExpirySeconds?: number;
    period?: 'day' | 'month';
    handlingFee?: string;
  } = {},
) {
  const b = await makeBusiness(app.em());
  const admin = await app.login(b.users.admin.email, PASSWORD);
  const employee = await app.login(b.users.employee.email, PASSWORD);
  const customer = await app.login(b.users.customer.email, PASSWORD);
  ok(
    await app.http.put(
      '/v1/client/customer-services/settings',
      {
        currency: 'EUR',
        unpaid_expiry_seconds: opts.unpaidExpirySeconds ?? 3600,
        storage_day_seconds: opts.storageDaySeconds ?? 86_400,
      },
      { token: admin },
    ),
  );
  const warehouse = ok(
    await app.http.post(
      '/v1/wms/warehouses',
      { code: 'WH1', name: 'Warehouse 1', address: ADDRESS, timezone: 'Europe/Paris' },
      { token: admin },
    ),
    201,
  ).warehouse as { id: number; code: string };
  const service = async (code: string, fields: Record<string, unknown> = {}) =>
    ok(
      await app.http.post(
        '/v1/client/customer-services/storage-services',
        {
          code,
          name: `Storage ${code}`,
          warehouse_id: warehouse.id,
          period: opts.period ?? 'day',
          price_per_period: '0.50',
          handling_fee: opts.handlingFee ?? '1.00',
          tax_rate: '20',
          ...fields,
        },
        { token: admin },
      ),
      201,
    ).service;
  await service('ST');

  /** Another customer account of the business, signed in. */
  async function otherCustomer() {
    const em = app.em();
    const user = em.create(User, {
      businessId: b.business.id,
      email: `customer-${randomUUID().slice(0, 8)}@test.example`,
      name: 'customer extra',
      role: 'customer',
      passwordHash: await hashPassword(PASSWORD),
    });
    await em.flush();
    return { id: user.id, token: await app.login(user.email, PASSWORD) };
  }

  /** Credits the customer's EUR wallet `amount` (minor units) as a top-up from the business's funding account. */
  async function topUp(amount: bigint, customerId = b.users.customer.id) {
    await app.em().transactional((tx) =>
      transfer(tx, {
        businessId: b.business.id,
        key: `test-top-up-${randomUUID()}`,
        currency: 'EUR',
        code: 'top_up',
        amount,
        debit: { kind: 'funding' },
        credit: { kind: 'wallet', customerId },
      }),
    );
  }

  /** The customer's wallet balance in minor units (0 before it exists). */
  async function balance(customerId = b.users.customer.id): Promise<bigint> {
    const [row] = await executeBound<{ balance: string }>(
      app.em(),
      `select coalesce(sum(credits_posted - debits_posted), 0)::text as balance from ledger_account
       where business_id = $1 and kind = 'wallet' and customer_id = $2 and currency = 'EUR'`,
      [b.business.id, customerId],
    );
    return BigInt(row!.balance);
  }

  const receive = (trackingNumber: string, location = 'A-01') =>
    app.http.post(
      '/v1/wms/receiving',
      { warehouse_id: warehouse.id, tracking_number: trackingNumber, location },
      { token: employee },
    );

  const hidePrices = () =>
    executeBound(app.em(), "update app_user set hidden_price_families = '{storage_services}' where id = $1", [
      b.users.customer.id,
    ]);

  return { ...b, admin, employee, customer, warehouse, service, otherCustomer, topUp, balance, receive, hidePrices };
}
export type StorageWorld = Awaited<ReturnType<typeof storageWorld>>;

export const boxes = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ reference: `BOX-${i + 1}`, description: 'Books', weight_grams: 1200 }));
