/**
 * The catalog through the HTTP API (docs/customer-services.md, "The catalog"): settings read and changed in part,
 * each kind of service created, changed and listed with its rules (codes per business and kind, a warehouse of the
 * business, a carrier service the labels module knows, a method 1 ship-out's pricing), the readers the order
 * modules use, and isolation between businesses and roles.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  activeServices,
  customerServiceSettings,
  shipoutService,
  shippingService,
  storageService,
} from '../../../src/modules/customer-services/index.ts';
import type { TestApp } from '../../helpers/app.ts';
import { createWarehouse, twoWorlds, type WmsWorld } from '../wms/world.ts';

const PRICING = { base_fee: '4.90', per_package: '1', per_kg: '0.80', included_weight_kg: '2', tax_rate: '21' };
const SHIPPING = '/v1/client/customer-services/shipping-services';
const STORAGE = '/v1/client/customer-services/storage-services';
const SHIPOUT = '/v1/client/customer-services/shipout-services';
const SETTINGS = '/v1/client/customer-services/settings';

describe('customer services catalog', () => {
  let app: TestApp;
  let w: WmsWorld;
  let x: WmsWorld;

  before(async () => ({ app, w, x } = await twoWorlds()));
  after(() => app.running.close());

  test('settings: the defaults until set, then changed field by field', async () => {
    const first = await app.http.get(SETTINGS, { token: w.admin });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(first.body.settings, {
      currency: 'USD',
      unpaid_expiry_seconds: 86400,
      storage_day_seconds: 86400,
    });

    const eur = await app.http.put(SETTINGS, { currency: 'EUR' }, { token: w.admin });
    assert.equal(eur.status, 200, JSON.stringify(eur.body));
    assert.deepEqual(eur.body.settings, { currency: 'EUR', unpaid_expiry_seconds: 86400, storage_day_seconds: 86400 });
    const day = await app.http.put(SETTINGS, { storage_day_seconds: 2, unpaid_expiry_seconds: 30 }, { token: w.admin });
    assert.deepEqual(day.body.settings, { currency: 'EUR', unpaid_expiry_seconds: 30, storage_day_seconds: 2 });
    assert.deepEqual(await customerServiceSettings(app.em(), w.business.id), day.body.settings);

    for (const bad of [
      { currency: 'XXX' },
      { currency: 'eur' },
      { unpaid_expiry_seconds: 0 },
      { storage_day_seconds: 1.5 },
    ]) {
      const res = await app.http.put(SETTINGS, bad, { token: w.admin });
      assert.equal(res.status, 422, JSON.stringify(bad));
    }
    // Another business keeps its defaults.
    const theirs = await app.http.get(SETTINGS, { token: x.admin });
    assert.equal(theirs.body.settings.currency, 'USD');
    assert.deepEqual(await customerServiceSettings(app.em(), x.business.id), {
      currency: 'USD',
      unpaid_expiry_seconds: 86400,
      storage_day_seconds: 86400,
    });
  });

  test('shipping services: created, code unique per business, carrier checked, changed and listed', async () => {
    const body = {
      code: 'EXPRESS',
      name: 'Express',
      pricing: PRICING,
      fulfilment: { kind: 'own_fleet' },
      max_packages: 3,
    };
    const created = await app.http.post(SHIPPING, body, { token: w.admin });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const s = created.body.service;
    assert.deepEqual(s.pricing, PRICING);
    assert.deepEqual(s.fulfilment, { kind: 'own_fleet' });
    assert.equal(s.max_packages, 3);
    assert.equal(s.max_weight_grams, null);
    assert.equal(s.active, true);

    const again = await app.http.post(SHIPPING, body, { token: w.admin });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'SERVICE_CODE_TAKEN');
    assert.equal((await app.http.post(SHIPPING, body, { token: x.admin })).status, 201, 'another business may');

    const viaCarrier = (carrier: string, service: string) =>
      app.http.post(
        SHIPPING,
        { ...body, code: 'CAR', fulfilment: { kind: 'carrier', carrier, service } },
        { token: w.admin },
      );
    const badCarrier = await viaCarrier('nowhere', 'x');
    assert.equal(badCarrier.status, 422);
    assert.equal(badCarrier.body.errors[0].field, 'fulfilment.carrier');
    assert.match(badCarrier.body.errors[0].message, /sandbox_swift/);
    const badService = await viaCarrier('sandbox_swift', 'Express');
    assert.equal(badService.status, 422);
    assert.equal(badService.body.errors[0].field, 'fulfilment.service');
    assert.match(badService.body.errors[0].message, /swift_express/);
    const carrier = await viaCarrier('sandbox_swift', 'swift_express');
    assert.equal(carrier.status, 201, JSON.stringify(carrier.body));
    const badPrice = await app.http.post(
      SHIPPING,
      { ...body, code: 'PRICE', pricing: { ...PRICING, base_fee: '1.23456' } },
      { token: w.admin },
    );
    assert.equal(badPrice.status, 422);
    const badTax = await app.http.post(
      SHIPPING,
      { ...body, code: 'PRICE', pricing: { ...PRICING, tax_rate: '101' } },
      { token: w.admin },
    );
    assert.equal(badTax.status, 422);
    const tooMany = await app.http.post(SHIPPING, { ...body, code: 'MANY', max_packages: 51 }, { token: w.admin });
    assert.equal(tooMany.status, 422);

    const changed = await app.http.put(
      `${SHIPPING}/${s.id}`,
      { name: 'Express 2', active: false, max_weight_grams: 5000, pricing: { ...PRICING, base_fee: '5' } },
      { token: w.admin },
    );
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal(changed.body.service.name, 'Express 2');
    assert.equal(changed.body.service.active, false);
    assert.equal(changed.body.service.max_weight_grams, 5000);
    assert.equal(changed.body.service.pricing.base_fee, '5');
    assert.equal(changed.body.service.code, 'EXPRESS');
    const taken = await app.http.put(`${SHIPPING}/${s.id}`, { code: 'CAR' }, { token: w.admin });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.code, 'SERVICE_CODE_TAKEN');
    assert.equal((await app.http.put(`${SHIPPING}/${s.id}`, { name: 'Mine' }, { token: x.admin })).status, 404);
    assert.equal((await app.http.put(`${SHIPPING}/999999999`, { name: 'None' }, { token: w.admin })).status, 404);

    const list = await app.http.get(SHIPPING, { token: w.admin });
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.deepEqual(
      list.body.services.map((r: { code: string }) => r.code),
      ['CAR', 'EXPRESS'],
    );
    const active = await app.http.get(`${SHIPPING}?active=true`, { token: w.admin });
    assert.deepEqual(
      active.body.services.map((r: { code: string }) => r.code),
      ['CAR'],
    );
    const paged = await app.http.get(`${SHIPPING}?per_page=1&page=2`, { token: w.admin });
    assert.equal(paged.body.total, 2);
    assert.deepEqual(
      paged.body.services.map((r: { code: string }) => r.code),
      ['EXPRESS'],
    );
    const theirs = await app.http.get(SHIPPING, { token: x.admin });
    assert.deepEqual(
      theirs.body.services.map((r: { id: number }) => r.id).filter((id: number) => id === s.id),
      [],
    );

    // The readers: by code, active only when asked; the active list.
    const em = app.em();
    assert.equal(await shippingService(em, w.business.id, 'EXPRESS', { activeOnly: true }), null);
    assert.equal((await shippingService(em, w.business.id, 'EXPRESS', { activeOnly: false }))?.id, s.id);
    assert.equal(await shippingService(em, x.business.id, 'CAR', { activeOnly: false }), null);
    const offered = await activeServices(em, w.business.id, 'shipping');
    assert.deepEqual(
      offered.map((r) => [r.code, r.fulfilment]),
      [['CAR', { kind: 'carrier', carrier: 'sandbox_swift', service: 'swift_express' }]],
    );
  });

  test('storage services: per warehouse of the business; a code per kind', async () => {
    const body = {
      code: 'EXPRESS',
      name: 'Monthly',
      warehouse_id: w.warehouse,
      period: 'month',
      price_per_period: '2.5',
      handling_fee: '1.00',
      tax_rate: '21',
    };
    // The same code as a shipping service: another kind.
    const created = await app.http.post(STORAGE, body, { token: w.admin });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const s = created.body.service;
    assert.equal(s.warehouse_id, w.warehouse);
    assert.equal(s.price_per_period, '2.5');
    assert.equal(s.handling_fee, '1.00');
    assert.equal(s.period, 'month');
    assert.equal((await app.http.post(STORAGE, body, { token: w.admin })).body.code, 'SERVICE_CODE_TAKEN');

    const foreign = await app.http.post(STORAGE, { ...body, code: 'X', warehouse_id: x.warehouse }, { token: w.admin });
    assert.equal(foreign.status, 422);
    assert.equal(foreign.body.errors[0].field, 'warehouse_id');

    const third = await createWarehouse(app, w.admin, 'THIRD');
    const moved = await app.http.put(
      `${STORAGE}/${s.id}`,
      { warehouse_id: third, period: 'day', handling_fee: '0' },
      { token: w.admin },
    );
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal(moved.body.service.warehouse_id, third);
    assert.equal(moved.body.service.period, 'day');
    const badMove = await app.http.put(`${STORAGE}/${s.id}`, { warehouse_id: x.warehouse }, { token: w.admin });
    assert.equal(badMove.status, 422);
    assert.equal((await app.http.put(`${STORAGE}/${s.id}`, { name: 'Mine' }, { token: x.admin })).status, 404);

    const byWarehouse = await app.http.get(`${STORAGE}?warehouse_id=${third}`, { token: w.admin });
    assert.deepEqual(
      byWarehouse.body.services.map((r: { id: number }) => r.id),
      [s.id],
    );
    const em = app.em();
    assert.equal((await storageService(em, w.business.id, 'EXPRESS', { activeOnly: true }))?.handling_fee, '0');
    assert.deepEqual(
      (await activeServices(em, w.business.id, 'storage', third)).map((r) => r.id),
      [s.id],
    );
    assert.deepEqual(await activeServices(em, w.business.id, 'storage', w.other), []);
  });

  test('ship-out services: method 1 needs its pricing, method 2 may go without', async () => {
    const body = { code: 'OUT-1', name: 'Out', warehouse_id: w.warehouse, fulfilment: { kind: 'own_fleet' } };
    const noPricing = await app.http.post(SHIPOUT, { ...body, pricing_method: 1 }, { token: w.admin });
    assert.equal(noPricing.status, 422);
    assert.equal(noPricing.body.errors[0].field, 'pricing');
    const one = await app.http.post(SHIPOUT, { ...body, pricing_method: 1, pricing: PRICING }, { token: w.admin });
    assert.equal(one.status, 201, JSON.stringify(one.body));
    assert.deepEqual(one.body.service.pricing, PRICING);
    const two = await app.http.post(
      SHIPOUT,
      {
        ...body,
        code: 'OUT-2',
        pricing_method: 2,
        pricing: null,
        fulfilment: { kind: 'carrier', carrier: 'sandbox_parcel', service: 'parcel_ground' },
      },
      { token: w.admin },
    );
    assert.equal(two.status, 201, JSON.stringify(two.body));
    assert.equal(two.body.service.pricing, null);
    assert.equal(two.body.service.pricing_method, 2);
    const badFulfilment = await app.http.post(
      SHIPOUT,
      {
        ...body,
        code: 'OUT-3',
        pricing_method: 2,
        fulfilment: { kind: 'carrier', carrier: 'sandbox_parcel', service: 'swift_express' },
      },
      { token: w.admin },
    );
    assert.equal(badFulfilment.status, 422);
    assert.equal(badFulfilment.body.errors[0].field, 'fulfilment.service');
    const foreign = await app.http.post(
      SHIPOUT,
      { ...body, code: 'OUT-4', pricing_method: 2, warehouse_id: x.warehouse },
      { token: w.admin },
    );
    assert.equal(foreign.status, 422);

    const toOne = await app.http.put(`${SHIPOUT}/${two.body.service.id}`, { pricing_method: 1 }, { token: w.admin });
    assert.equal(toOne.status, 422);
    assert.equal(toOne.body.errors[0].field, 'pricing');
    const dropPricing = await app.http.put(`${SHIPOUT}/${one.body.service.id}`, { pricing: null }, { token: w.admin });
    assert.equal(dropPricing.status, 422);
    const toTwo = await app.http.put(
      `${SHIPOUT}/${one.body.service.id}`,
      { pricing_method: 2, pricing: null, active: false },
      { token: w.admin },
    );
    assert.equal(toTwo.status, 200, JSON.stringify(toTwo.body));
    assert.equal(toTwo.body.service.pricing, null);
    assert.equal(
      (await app.http.put(`${SHIPOUT}/${one.body.service.id}`, { name: 'M' }, { token: x.admin })).status,
      404,
    );

    const list = await app.http.get(`${SHIPOUT}?warehouse_id=${w.warehouse}`, { token: w.admin });
    assert.deepEqual(
      list.body.services.map((r: { code: string }) => r.code),
      ['OUT', 'OUT-1', 'OUT-2'],
    );
    const em = app.em();
    assert.equal(await shipoutService(em, w.business.id, 'OUT-1', { activeOnly: true }), null);
    assert.equal((await shipoutService(em, w.business.id, 'OUT-1', { activeOnly: false }))?.pricing_method, 2);
    assert.deepEqual(
      (await activeServices(em, w.business.id, 'shipout', w.warehouse)).map((r) => r.code),
      ['OUT', 'OUT-2'],
    );
    const theirs = await app.http.get(SHIPOUT, { token: x.admin });
    assert.deepEqual(
      theirs.body.services.map((r: { code: string }) => r.code),
      ['OUT'],
    );
  });

  test('customers and employees are refused the staff operations', async () => {
    const calls = (token: string) => [
      app.http.get(SETTINGS, { token }),
      app.http.put(SETTINGS, { currency: 'EUR' }, { token }),
      app.http.get(SHIPPING, { token }),
      app.http.post(SHIPPING, { code: 'Z', name: 'Z', pricing: PRICING, fulfilment: { kind: 'own_fleet' } }, { token }),
      app.http.put(`${SHIPPING}/1`, { name: 'Z' }, { token }),
      app.http.get(STORAGE, { token }),
      app.http.post(STORAGE, { code: 'Z' }, { token }),
      app.http.put(`${STORAGE}/1`, { name: 'Z' }, { token }),
      app.http.get(SHIPOUT, { token }),
      app.http.post(SHIPOUT, { code: 'Z' }, { token }),
      app.http.put(`${SHIPOUT}/1`, { name: 'Z' }, { token }),
    ];
    for (const token of [w.customer, w.employee])
      for (const res of await Promise.all(calls(token))) {
        assert.equal(res.status, 403, JSON.stringify(res.body));
        assert.equal(res.body.code, 'FORBIDDEN');
      }
  });
});
