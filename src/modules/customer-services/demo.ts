/**
 * The demo business's customer services (src/main/seed.ts, README): a warehouse in Prague, the services a customer
 * of the demo can order at once (a shipping service by the own fleet and one by a sandbox carrier, daily storage, a
 * ship-out priced at once and one priced by staff), all in EUR. Written once: a second seeding finds them.
 */
import type { Em } from '../../platform/db/orm.ts';
import { insertWarehouse, warehouseByCode } from '../wms/index.ts';
import { insertService } from './repo/services.ts';
import { setSettings } from './repo/settings.ts';

const PRICING = { base_fee: '4.90', per_package: '1.00', per_kg: '0.80', included_weight_kg: '2', tax_rate: '21' };

export async function seedDemoCustomerServices(em: Em, businessId: number): Promise<void> {
  const warehouse =
    (await insertWarehouse(em, businessId, {
      code: 'DEMO-WH',
      name: 'Demo warehouse Prague',
      address: { line1: 'Skladová 1', line2: null, city: 'Praha', state: null, postal_code: '19000', country: 'CZ' },
      timezone: 'Europe/Prague',
      active: true,
    })) ?? (await warehouseByCode(em, businessId, 'DEMO-WH'))!;
  if (!(await insertService(em, 'shipping', businessId, shipping('EXPRESS', 'Same-day by our fleet', 'own')))) return;
  await setSettings(em, businessId, { currency: 'EUR' });
  await insertService(em, 'shipping', businessId, shipping('SWIFT', 'Swift Express (carrier)', 'swift'));
  await insertService(em, 'storage', businessId, {
    code: 'DAILY',
    name: 'Storage in Prague, per day',
    description: null,
    active: true,
    warehouse_id: warehouse.id,
    period: 'day',
    price_per_period: '0.40',
    handling_fee: '1.50',
    tax_rate: '21',
  });
  for (const [code, name, method] of [
    ['OUT', 'Ship out by our fleet', 1],
    ['OUT-QUOTE', 'Ship out, priced by the warehouse', 2],
  ] as const)
    await insertService(em, 'shipout', businessId, {
      code,
      name,
      description: null,
      active: true,
      warehouse_id: warehouse.id,
      pricing_method: method,
      pricing: method === 1 ? PRICING : null,
      fulfilment: { kind: 'own_fleet' },
    });
}

function shipping(code: string, name: string, by: 'own' | 'swift') {
  return {
    code,
    name,
    description: null,
    active: true,
    pricing: PRICING,
    fulfilment:
      by === 'own'
        ? ({ kind: 'own_fleet' } as const)
        : ({ kind: 'carrier', carrier: 'sandbox_swift', service: 'swift_express' } as const),
    max_packages: 10,
    max_weight_grams: 30_000,
  };
}
