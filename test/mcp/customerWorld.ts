/**
 * The customer-services part of the dry-run world (docs/customer-services.md): the business's settings, a warehouse,
 * a service of each kind, the customer's wallet topped up, two packages stored (a paid storage order, received at
 * /v1/wms/receiving), and a pending shipping order, storage order and ship-out for the pay and cancel tools to preview.
 */
import assert from 'node:assert/strict';
import type { TestApp } from '../helpers/app.ts';
import { makeWarehouse, setCustomerServiceSettings } from '../modules/customer-services/orderWorld.ts';
import { RECIPIENT } from '../modules/labels/world.ts';

const PRICING = { base_fee: '5.00', per_package: '1.00', per_kg: '0.50', included_weight_kg: '1', tax_rate: '20' };
const PACKAGES = [{ weight_grams: 1200, length_mm: 300, width_mm: 200, height_mm: 100, description: 'Books' }];
const BOXES = [
  { reference: 'BOX-1', description: 'Books', weight_grams: 1200 },
  { reference: 'BOX-2', description: 'Books', weight_grams: 1200 },
];
/** The services' codes. */
export const SHIPPING_SERVICE = 'DRY-SHIP';
export const STORAGE_SERVICE = 'DRY-ST';
export const SHIPOUT_SERVICE = 'DRY-OUT';

/** A create_shipping_order request. */
export const shippingOrder = (reference: string) => ({
  service_code: SHIPPING_SERVICE,
  recipient: RECIPIENT,
  packages: PACKAGES,
  reference,
});
/** A create_storage_order request. */
export const storageOrder = (reference: string) => ({ service_code: STORAGE_SERVICE, packages: BOXES, reference });
/** A create_shipout request for stored packages. */
export const shipout = (packageIds: number[]) => ({
  service_code: SHIPOUT_SERVICE,
  package_ids: packageIds,
  recipient: RECIPIENT,
});

export interface CustomerWorld {
  /** Pending payment, each: to pay and to cancel. */
  shippingOrder: number;
  storageOrder: number;
  shipout: number;
  /** A stored package in no ship-out, for create_shipout. */
  freePackage: number;
}

/** Tokens of the business's client admin, employee and customer, the customer's id. */
export async function customerWorld(
  app: TestApp,
  t: { admin: string; employee: string; customer: string; customerId: number },
): Promise<CustomerWorld> {
  const call = async (path: string, body: unknown, token: string, status = [200, 201]) => {
    const res = await app.http.post(path, body, { token });
    assert.ok(status.includes(res.status), `POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  await setCustomerServiceSettings(app, t.admin, {
    currency: 'EUR',
    unpaid_expiry_seconds: 3600,
    storage_day_seconds: 86_400,
  });
  const warehouse = await makeWarehouse(app, t.admin, 'DRY-WH');
  const services = '/v1/client/customer-services';
  await call(
    `${services}/shipping-services`,
    { code: SHIPPING_SERVICE, name: 'Dry shipping', fulfilment: { kind: 'own_fleet' }, pricing: PRICING },
    t.admin,
  );
  await call(
    `${services}/storage-services`,
    {
      code: STORAGE_SERVICE,
      name: 'Dry storage',
      warehouse_id: warehouse.id,
      period: 'month',
      price_per_period: '0.50',
      handling_fee: '1.00',
      tax_rate: '20',
    },
    t.admin,
  );
  await call(
    `${services}/shipout-services`,
    {
      code: SHIPOUT_SERVICE,
      name: 'Dry ship-out',
      warehouse_id: warehouse.id,
      pricing_method: 1,
      pricing: PRICING,
      fulfilment: { kind: 'own_fleet' },
    },
    t.admin,
  );
  await call(
    `/v1/client/customers/${t.customerId}/wallet/credits`,
    { amount: '500.00', idempotency_key: 'dry-run-world-top-up' },
    t.admin,
  );

  // Two packages stored: a storage order paid (its packages opened for receiving), each package scanned in.
  const paid = (await call('/v1/customer/storage-orders', storageOrder('WORLD-STORED'), t.customer)).storage_order;
  await call(`/v1/customer/storage-orders/${paid.id}/pay`, {}, t.customer);
  const packages = (paid.packages as { id: number; tracking_number: string }[]).map((p) => p.id);
  for (const p of paid.packages as { tracking_number: string }[])
    await call(
      '/v1/wms/receiving',
      { warehouse_id: warehouse.id, tracking_number: p.tracking_number, location: 'A-01' },
      t.employee,
    );

  const shipping = await call(
    `/v1/customer/shipping-orders/services/${SHIPPING_SERVICE}/orders`,
    shippingOrder('WORLD-SHIP'),
    t.customer,
  );
  const storage = await call('/v1/customer/storage-orders', storageOrder('WORLD-PENDING'), t.customer);
  const out = await call(
    `/v1/customer/shipout-orders/services/${SHIPOUT_SERVICE}/orders`,
    shipout([packages[0]!]),
    t.customer,
  );
  return {
    shippingOrder: shipping.shipping_order.id,
    storageOrder: storage.storage_order.id,
    shipout: out.shipout.id,
    freePackage: packages[1]!,
  };
}
