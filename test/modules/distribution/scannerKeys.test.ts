// A scanner at a place sends distribution scans with the place's scanner key: there only, nothing else, and not
// once revoked.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeOrder, PASSWORD } from '../../helpers/factories.ts';

describe('scanner keys', () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let admin: string;
  const keys = (place = 'WH') => `/v1/places/${place}/scanner-keys`;
  const scan = async (key: string, number: string, location: string, lang?: string) =>
    app.http.post(
      '/v1/distribution/scans',
      { package_number: number, action: 'received', location, scanned_at: new Date().toISOString() },
      { token: key, lang },
    );

  before(async () => {
    app = await startApp();
    b = await makeBusiness(app.em());
    admin = await app.login(b.users.admin.email, PASSWORD);
    for (const code of ['WH', 'WH2'])
      assert.equal(
        (await app.http.post('/v1/places', { kind: 'warehouse', code, name: code }, { token: admin })).status,
        201,
      );
  });
  after(() => app.running.close());

  test('a scanner key scans at its place only, opens nothing else, and its secret is shown once', async () => {
    const created = await app.http.post(keys(), { name: 'dock 1' }, { token: admin });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const { key_id, secret } = created.body.key;
    assert.match(secret, /^tms_sk_/);
    const number = (await makeOrder(app.em(), b.business.id)).trackingNumber;

    const applied = await scan(secret, number, 'WH');
    assert.deepEqual([applied.status, applied.body.scan.outcome], [200, 'applied']);
    const elsewhere = await scan(secret, (await makeOrder(app.em(), b.business.id)).trackingNumber, 'WH2', 'fr');
    assert.equal(elsewhere.status, 422);
    assert.deepEqual(elsewhere.body.errors, [
      { field: 'location', message: 'Cette clé de scanner est celle du lieu WH ; elle ne scanne que là.' },
    ]);
    assert.equal(
      (await app.http.get(`/v1/distribution/packages/${number}`, { token: secret })).status,
      403,
      'a scanner key reads nothing',
    );
    assert.equal((await app.http.get(keys(), { token: secret })).status, 403);

    const listed = (await app.http.get(keys(), { token: admin })).body.keys;
    assert.deepEqual(
      listed.map((k: { key_id: string; name: string }) => [k.key_id, k.name]),
      [[key_id, 'dock 1']],
    );
    assert.ok(!JSON.stringify(listed).includes(secret), 'the list never shows a secret');
    assert.ok(listed[0].last_used_at, 'its use is recorded');
    assert.equal(
      (await app.http.del(`${keys('WH2')}/${key_id}`, { token: admin })).status,
      404,
      'a key of another place is not found',
    );
    assert.equal((await app.http.del(`${keys()}/${key_id}`, { token: admin })).status, 200);
    assert.equal((await scan(secret, number, 'WH')).status, 401, 'a revoked key is no credential');
  });

  test('only a client admin of the business makes keys; a place holds at most 20', async () => {
    const employee = await app.login(b.users.employee.email, PASSWORD);
    assert.equal((await app.http.post(keys(), {}, { token: employee })).status, 403);
    const other = await makeBusiness(app.em());
    const otherAdmin = await app.login(other.users.admin.email, PASSWORD);
    assert.equal(
      (await app.http.post(keys(), {}, { token: otherAdmin })).status,
      404,
      "another business's place is not found",
    );
    assert.equal((await app.http.get(keys(), { token: otherAdmin })).status, 404);
    const made = await Promise.all(Array.from({ length: 21 }, () => app.http.post(keys('WH2'), {}, { token: admin })));
    assert.deepEqual(
      made.map((r) => r.status).sort(),
      [...Array(20).fill(201), 409],
      'concurrent creates stop at the limit',
    );
    assert.equal(made.find((r) => r.status === 409)!.body.code, 'TOO_MANY_KEYS');
  });
});
