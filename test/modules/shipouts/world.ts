/**
 * A business for the ship-out tests: both sandbox carriers connected (labelWorld), two warehouses, ship-out services
 * of each kind, a wallet topped up, and stored packages made as receiving makes them (a storage order fixture, its
 * packages declared, opened for receiving and scanned in at /v1/wms/receiving).
 */
import type { TestApp } from '../../helpers/app.ts';
import { declarePackages, openForReceiving } from '../../../src/modules/wms/index.ts';
import { makeWarehouse, ok, setCustomerServiceSettings } from '../customer-services/orderWorld.ts';
import { labelWorld, RECIPIENT } from '../labels/world.ts';

export { RECIPIENT };

export const PRICING = {
  base_fee: '5.00',
  per_package: '1.50',
  per_kg: '0.50',
  included_weight_kg: '1',
  tax_rate: '20',
};

export async function shipoutWorld(app: TestApp, opts: { unpaidExpirySeconds?: number } = {}) {
  const w = await labelWorld(app);
  const admin = w.admin;
  await setCustomerServiceSettings(app, admin, {
    currency: 'EUR',
    unpaid_expiry_seconds: opts.unpaidExpirySeconds ?? 3600,
  });
  const wh1 = await makeWarehouse(app, admin, 'WH1');
  const wh2 = await makeWarehouse(app, admin, 'WH2');
  const service = async (code: string, warehouseId: number, method: 1 | 2, fulfilment: Record<string, unknown>) =>
    ok(
      await app.http.post(
        '/v1/client/customer-services/shipout-services',
        {
          code,
          name: `Ship-out ${code}`,
          warehouse_id: warehouseId,
          pricing_method: method,
          pricing: method === 1 ? PRICING : null,
          fulfilment,
        },
        { token: admin },
      ),
      201,
    ).service;
  await service('FLEET', wh1.id, 1, { kind: 'own_fleet' });
  await service('LATER', wh1.id, 2, { kind: 'own_fleet' });
  await service('SWIFT', wh1.id, 1, { kind: 'carrier', carrier: 'sandbox_swift', service: 'swift_express' });
  await service('FLEET2', wh2.id, 1, { kind: 'own_fleet' });
  const storage = new Map<number, number>();
  for (const wh of [wh1, wh2]) {
    const s = ok(
      await app.http.post(
        '/v1/client/customer-services/storage-services',
        {
          code: `ST-${wh.code}`,
          name: 'Storage',
          warehouse_id: wh.id,
          period: 'month',
          price_per_period: '0',
          handling_fee: '0',
          tax_rate: '0',
        },
        { token: admin },
      ),
      201,
    ).service;
    storage.set(wh.id, s.id);
  }

  /** A customer's packages, received into the warehouse (stored), each weighing `grams`. */
  async function stored(warehouseId: number, n: number, grams = 1200, customerId = w.users.customer.id) {
    const em = app.em();
    const [order] = await em.execute<{ id: number }[]>(
      `insert into storage_order (business_id, customer_id, service_id, service_code, warehouse_id, status, currency,
         total, tax, price_details, period, period_price, period_tax)
       values (?, ?, ?, ?, ?, 'confirmed', 'EUR', 0, 0, '[]', 'month', 0, 0) returning id`,
      [w.business.id, customerId, storage.get(warehouseId)!, 'ST', warehouseId],
    );
    const packages = await declarePackages(em, {
      businessId: w.business.id,
      customerId,
      warehouseId,
      storageOrderId: order!.id,
      packages: Array.from({ length: n }, (_, i) => ({
        reference: `BOX-${i + 1}`,
        description: null,
        weight_grams: grams,
        length_mm: 300,
        width_mm: 200,
        height_mm: 100,
      })),
    });
    await openForReceiving(em, { businessId: w.business.id, storageOrderId: order!.id });
    for (const p of packages)
      ok(
        await app.http.post(
          '/v1/wms/receiving',
          { warehouse_id: warehouseId, tracking_number: p.tracking_number, location: 'A-01' },
          { token: w.employee },
        ),
      );
    return packages.map((p) => p.id);
  }

  /** Tops the customer's wallet up by `amount`. */
  async function topUp(amount: string, customerId = w.users.customer.id) {
    ok(
      await app.http.post(
        `/v1/client/customers/${customerId}/wallet/credits`,
        { amount, idempotency_key: `top-${customerId}-${Date.now()}-${Math.random()}` },
        { token: admin },
      ),
    );
  }

  /** The customer's wallet as get_account_credits answers it. */
  async function credits(token = w.customer) {
    return ok(await app.http.get('/v1/customer/credits', { token }));
  }

  return { ...w, wh1, wh2, stored, topUp, credits, ok };
}
export type ShipoutWorld = Awaited<ReturnType<typeof shipoutWorld>>;
