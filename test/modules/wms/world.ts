/**
 * A business with a warehouse (two, for the wrong-warehouse cases), a storage service, its staff and customer
 * signed in; and storage orders and ship-outs as bare rows, for the packages the wms functions are given. The
 * storage and ship-out modules make those rows in their own tests; here they only anchor the packages' keys.
 */
import assert from 'node:assert/strict';
import { executeBound, type Em } from '../../../src/platform/db/orm.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, PASSWORD } from '../../helpers/factories.ts';

export const ADDRESS = { line1: 'Vodickova 710/31', city: 'Praha', postal_code: '110 00', country: 'CZ' };

export async function createWarehouse(app: TestApp, token: string, code: string): Promise<number> {
  const res = await app.http.post(
    '/v1/wms/warehouses',
    { code, name: `Warehouse ${code}`, address: ADDRESS, timezone: 'Europe/Prague' },
    { token },
  );
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.warehouse.id as number;
}

export async function wmsWorld(app: TestApp) {
  const em = app.em();
  const b = await makeBusiness(em);
  const admin = await app.login(b.users.admin.email, PASSWORD);
  const employee = await app.login(b.users.employee.email, PASSWORD);
  const customer = await app.login(b.users.customer.email, PASSWORD);
  const warehouse = await createWarehouse(app, admin, 'MAIN');
  const other = await createWarehouse(app, admin, 'SECOND');
  const service = await app.http.post(
    '/v1/client/customer-services/storage-services',
    {
      code: 'DAY',
      name: 'Daily',
      warehouse_id: warehouse,
      period: 'day',
      price_per_period: '0.50',
      handling_fee: '1',
      tax_rate: '0',
    },
    { token: admin },
  );
  assert.equal(service.status, 201, JSON.stringify(service.body));
  const shipoutService = await app.http.post(
    '/v1/client/customer-services/shipout-services',
    { code: 'OUT', name: 'Out', warehouse_id: warehouse, pricing_method: 2, fulfilment: { kind: 'own_fleet' } },
    { token: admin },
  );
  assert.equal(shipoutService.status, 201, JSON.stringify(shipoutService.body));
  return {
    ...b,
    admin,
    employee,
    customer,
    warehouse,
    other,
    storageServiceId: service.body.service.id as number,
    shipoutServiceId: shipoutService.body.service.id as number,
  };
}
export type WmsWorld = Awaited<ReturnType<typeof wmsWorld>>;

/** A started app with two businesses' worlds: `w` the tests work in, `x` another, for isolation. */
export async function twoWorlds(): Promise<{ app: TestApp; w: WmsWorld; x: WmsWorld }> {
  const app = await startApp();
  return { app, w: await wmsWorld(app), x: await wmsWorld(app) };
}

/** Another customer account of the business. */
export async function otherCustomer(em: Em, w: WmsWorld): Promise<number> {
  const [row] = await executeBound<{ id: number }>(
    em,
    `insert into app_user (business_id, email, name, role, password_hash)
     select business_id, 'other-' || email, 'Other customer', role, password_hash from app_user where id = $1
     returning id`,
    [w.users.customer.id],
  );
  return row!.id;
}

/** A bare storage order row (the storage module's table), confirmed. */
export async function storageOrderRow(em: Em, w: WmsWorld, customerId = w.users.customer.id): Promise<number> {
  const [row] = await executeBound<{ id: number }>(
    em,
    `insert into storage_order (business_id, customer_id, service_id, service_code, warehouse_id, status, currency,
       total, tax, price_details, period, period_price, period_tax, storage_day_seconds)
     values ($1, $2, $3, 'DAY', $4, 'confirmed', 'USD', 0, 0, '[]', 'day', 0, 0, 86400) returning id`,
    [w.business.id, customerId, w.storageServiceId, w.warehouse],
  );
  return row!.id;
}

/** A bare ship-out row (the shipouts module's table), awaiting its price. */
export async function shipoutRow(em: Em, w: WmsWorld): Promise<number> {
  const [row] = await executeBound<{ id: number }>(
    em,
    `insert into shipout (business_id, customer_id, service_id, service_code, warehouse_id, status, recipient,
       pricing_method, currency)
     values ($1, $2, $3, 'OUT', $4, 'awaiting_price', '{}', 2, 'USD') returning id`,
    [w.business.id, w.users.customer.id, w.shipoutServiceId, w.warehouse],
  );
  return row!.id;
}

export const PACKAGE = {
  reference: 'BOX',
  description: 'Books',
  weight_grams: 1200,
  length_mm: 300,
  width_mm: 200,
  height_mm: 100,
};
