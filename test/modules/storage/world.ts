/**
 * A business for the storage tests: its settings (EUR, a storage day and an unpaid expiry as the test asks), a
 * warehouse with a storage service (handling 1.00 and 0.50 a period per package, tax 20 %), its staff and customers
 * signed in, and the wallet topped up through the wallet module's own transfer().
 */
import { randomUUID } from 'node:crypto';
import { executeBound } from '../../../src/platform/db/orm.ts';
import type { TestApp } from '../../helpers/app.ts';
import { makeBusiness, PASSWORD } from '../../helpers/factories.ts';
import {
  anotherCustomer,
  hideStoragePrices,
  makeWarehouse,
  ok,
  setCustomerServiceSettings,
  topUpWallet,
} from '../customer-services/orderWorld.ts';

export { ok };

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
  await setCustomerServiceSettings(app, admin, {
    currency: 'EUR',
    unpaid_expiry_seconds: opts.unpaidExpirySeconds ?? 3600,
    storage_day_seconds: opts.storageDaySeconds ?? 86_400,
  });
  const warehouse = await makeWarehouse(app, admin, 'WH1', 'Warehouse 1');
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
  const otherCustomer = () =>
    anotherCustomer(app, b.business.id, {
      email: `customer-${randomUUID().slice(0, 8)}@test.example`,
      name: 'customer extra',
    });

  /** Credits the customer's EUR wallet `amount` (minor units) as a top-up from the business's funding account. */
  async function topUp(amount: bigint, customerId = b.users.customer.id) {
    await topUpWallet(app, { businessId: b.business.id, customerId, amount });
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

  const hidePrices = () => hideStoragePrices(app, b.users.customer.id);

  return { ...b, admin, employee, customer, warehouse, service, otherCustomer, topUp, balance, receive, hidePrices };
}
export type StorageWorld = Awaited<ReturnType<typeof storageWorld>>;

export const boxes = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ reference: `BOX-${i + 1}`, description: 'Books', weight_grams: 1200 }));
