import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeProvider, PASSWORD } from '../../helpers/factories.ts';

describe('places and carrier supplier accounts', () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let other: Awaited<ReturnType<typeof makeBusiness>>;
  let admin: string;
  let employee: string;
  before(async () => {
    app = await startApp({}, { worker: false });
    b = await makeBusiness(app.em());
    other = await makeBusiness(app.em());
    admin = await app.login(b.users.admin.email, PASSWORD);
    employee = await app.login(b.users.employee.email, PASSWORD);
  });
  after(() => app.running.close());

  const count = async (table: string) =>
    (await app.em().execute(`select count(*)::int as n from ${table}`))[0]!.n as number;

  test('a warehouse gets our own URN, a store its SGLN, a locker its device; staff read them, by kind too', async () => {
    const address = { line1: '2 Dock Road', city: 'Lyon', postal_code: '69002', country: 'fr' };
    const warehouse = await app.http.post(
      '/v1/places',
      { kind: 'warehouse', code: 'wh-1', name: 'Lyon hub', address },
      { token: admin },
    );
    assert.equal(warehouse.status, 201, JSON.stringify(warehouse.body));
    assert.equal(warehouse.body.place.code, 'WH-1');
    assert.equal(warehouse.body.place.identifier, `urn:tms:place:${b.business.code}:WH-1`);
    assert.deepEqual(warehouse.body.place.address, { ...address, country: 'FR', line2: null, lat: null, lng: null });
    const sgln = `urn:epc:id:sgln:0614141.${String(Date.now() % 100000).padStart(5, '0')}.0`;
    const store = await app.http.post(
      '/v1/places',
      { kind: 'store', code: 'SHOP_7', name: 'Corner shop', sgln },
      { token: admin },
    );
    assert.equal(store.status, 201, JSON.stringify(store.body));
    assert.equal(store.body.place.identifier, sgln);
    const locker = await app.http.post(
      '/v1/places',
      { kind: 'locker', code: 'L1', name: 'Station locker', device_id: b.device.code },
      { token: admin },
    );
    assert.equal(locker.status, 201, JSON.stringify(locker.body));
    assert.equal(locker.body.place.device_id, b.device.code);

    const all = await app.http.get('/v1/places', { token: employee });
    assert.deepEqual(
      all.body.places.map((p: { code: string }) => p.code),
      ['L1', 'SHOP_7', 'WH-1'],
    );
    const stores = await app.http.get('/v1/places?kind=store', { token: employee });
    assert.deepEqual(
      stores.body.places.map((p: { code: string }) => p.code),
      ['SHOP_7'],
    );
    const one = await app.http.get('/v1/places/wh-1', { token: employee });
    assert.equal(one.body.place.name, 'Lyon hub');

    // Taken codes and SGLNs answer 409; the other business sees none of these places and may reuse the code.
    assert.equal(
      (await app.http.post('/v1/places', { kind: 'warehouse', code: 'WH-1', name: 'Again' }, { token: admin })).body
        .code,
      'PLACE_CODE_TAKEN',
    );
    const otherAdmin = await app.login(other.users.admin.email, PASSWORD);
    const taken = await app.http.post(
      '/v1/places',
      { kind: 'store', code: 'S', name: 'Copy', sgln },
      { token: otherAdmin },
    );
    assert.equal(taken.status, 409);
    assert.equal(taken.body.code, 'PLACE_IDENTIFIER_TAKEN');
    assert.equal((await app.http.get('/v1/places/WH-1', { token: otherAdmin })).status, 404);
    assert.deepEqual((await app.http.get('/v1/places', { token: otherAdmin })).body.places, []);
    assert.equal(
      (await app.http.post('/v1/places', { kind: 'warehouse', code: 'WH-1', name: 'Their hub' }, { token: otherAdmin }))
        .status,
      201,
    );
  });

  test('bad places answer 422 naming the field and write nothing; only admins add them', async () => {
    const before = await count('place');
    const cases: [unknown, string][] = [
      [{ kind: 'depot', code: 'X', name: 'n' }, 'kind'],
      [{ kind: 'warehouse', code: '-X', name: 'n' }, 'code'],
      [{ kind: 'warehouse', code: 'X'.repeat(41), name: 'n' }, 'code'],
      [{ kind: 'warehouse', code: 'X\u0000Y', name: 'n' }, 'code'],
      [{ kind: 'warehouse', code: 'X', name: '' }, 'name'],
      [{ kind: 'locker', code: 'X', name: 'n' }, 'device_id'],
      [{ kind: 'store', code: 'X', name: 'n', device_id: b.device.code }, 'device_id'],
      [{ kind: 'locker', code: 'X', name: 'n', device_id: other.device.code }, 'device_id'],
      [{ kind: 'store', code: 'X', name: 'n', sgln: 'urn:epc:id:sgln:0614141.1234.0' }, 'sgln'],
      [{ kind: 'store', code: 'X', name: 'n', sgln: 'urn:epc:id:sgln:0614141.12345' }, 'sgln'],
      [
        { kind: 'store', code: 'X', name: 'n', address: { line1: 'a', city: 'c', postal_code: '1', country: 'FRA' } },
        'address.country',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await app.http.post('/v1/places', body, { token: admin });
      assert.equal(res.status, 422, `${field}: ${JSON.stringify(res.body)}`);
      assert.ok(
        res.body.errors.some((e: { field: string }) => e.field === field),
        `${field}: ${JSON.stringify(res.body.errors)}`,
      );
    }
    assert.equal(
      (await app.http.post('/v1/places', { kind: 'warehouse', code: 'EMP', name: 'n' }, { token: employee })).status,
      403,
    );
    assert.equal(await count('place'), before);
    const fr = await app.http.post(
      '/v1/places',
      { kind: 'locker', code: 'X', name: 'n' },
      { token: admin, headers: { 'accept-language': 'fr' } },
    );
    assert.equal(fr.body.errors[0].message, 'Ce champ est obligatoire.');
  });

  test('a carrier gets one active supplier account per business, under a member number of its own', async () => {
    const carrier = await makeProvider(app.em(), 'delivery_provider');
    const second = await makeProvider(app.em(), 'delivery_provider');
    const lockerProvider = await makeProvider(app.em(), 'locker_provider');
    const open = await app.http.post(
      '/v1/carrier-supplier-accounts',
      { carrier_code: carrier.business.code, member_number: 'm-100' },
      { token: admin },
    );
    assert.equal(open.status, 201, JSON.stringify(open.body));
    assert.equal(open.body.account.member_number, 'M-100');
    assert.equal(open.body.account.carrier_code, carrier.business.code);
    assert.equal(open.body.account.ended_at, null);

    const again = await app.http.post(
      '/v1/carrier-supplier-accounts',
      { carrier_code: carrier.business.code, member_number: 'M-101' },
      { token: admin },
    );
    assert.equal(again.body.code, 'SUPPLIER_ACCOUNT_EXISTS');
    const sameNumber = await app.http.post(
      '/v1/carrier-supplier-accounts',
      { carrier_code: second.business.code, member_number: 'M-100' },
      { token: admin },
    );
    assert.equal(sameNumber.body.code, 'MEMBER_NUMBER_TAKEN');
    // Not a carrier, or no business at all: the same answer.
    for (const carrierCode of [lockerProvider.business.code, 'NO-SUCH-BUSINESS', b.business.code]) {
      const res = await app.http.post(
        '/v1/carrier-supplier-accounts',
        { carrier_code: carrierCode, member_number: 'M-200' },
        { token: admin },
      );
      assert.equal(res.status, 422);
      assert.equal(res.body.errors[0].field, 'carrier_code');
    }
    assert.equal(
      (
        await app.http.post(
          '/v1/carrier-supplier-accounts',
          { carrier_code: second.business.code, member_number: 'M-2' },
          { token: employee },
        )
      ).status,
      403,
    );

    // Ended, the carrier may open a new one, and the old member number is free again; another business cannot end it.
    const otherAdmin = await app.login(other.users.admin.email, PASSWORD);
    assert.equal(
      (await app.http.del(`/v1/carrier-supplier-accounts/${open.body.account.id}`, { token: otherAdmin })).status,
      404,
    );
    const ended = await app.http.del(`/v1/carrier-supplier-accounts/${open.body.account.id}`, { token: admin });
    assert.equal(ended.status, 200);
    assert.ok(ended.body.account.ended_at);
    assert.equal(
      (await app.http.del(`/v1/carrier-supplier-accounts/${open.body.account.id}`, { token: admin })).status,
      404,
    );
    assert.equal(
      (
        await app.http.post(
          '/v1/carrier-supplier-accounts',
          { carrier_code: carrier.business.code, member_number: 'M-100' },
          { token: admin },
        )
      ).status,
      201,
    );
    const list = await app.http.get('/v1/carrier-supplier-accounts', { token: admin });
    assert.deepEqual(
      list.body.accounts.map((a: { member_number: string; ended_at: string | null }) => [
        a.member_number,
        a.ended_at === null,
      ]),
      [
        ['M-100', false],
        ['M-100', true],
      ],
    );
    assert.deepEqual((await app.http.get('/v1/carrier-supplier-accounts', { token: otherAdmin })).body.accounts, []);
  });
});
