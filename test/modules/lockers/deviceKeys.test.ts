// Device keys over HTTP: made by a client admin for one locker of the business, the secret shown once and stored
// hashed, listed without it, revoked at once; a key is a narrow credential that opens no staff operation.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_DEVICE_KEYS } from '../../../src/modules/lockers/repo/deviceKeys.ts';
import { sha256Hex } from '../../../src/platform/secrets.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, PASSWORD } from '../../helpers/factories.ts';

describe('device keys', () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let admin: string;
  const keys = (device = b.device.code) => `/v1/devices/${device}/keys`;

  before(async () => {
    app = await startApp();
    b = await makeBusiness(app.em());
    admin = await app.login(b.users.admin.email, PASSWORD);
  });
  after(() => app.running.close());

  test('the secret is shown once and stored hashed; the list never shows it; revoking stops it at once', async () => {
    const created = await app.http.post(keys(), { name: 'controller' }, { token: admin });
    assert.equal(created.status, 201);
    const { key_id, secret } = created.body.key;
    assert.match(secret, /^tms_dk_[A-Za-z0-9_-]{43}$/);
    const [stored] = await app
      .em()
      .execute<{ secret_hash: string }[]>('select secret_hash from device_key where key_id = ?', [key_id]);
    assert.equal(stored!.secret_hash, sha256Hex(secret));
    const list = await app.http.get(keys(), { token: admin });
    assert.deepEqual(
      list.body.keys.map((k: { key_id: string }) => k.key_id),
      [key_id],
    );
    assert.ok(!JSON.stringify(list.body).includes(secret));

    // A device key is not a session: it opens no staff operation, not even the key list of its own device.
    assert.equal((await app.http.get(keys(), { token: secret })).status, 403);
    assert.equal((await app.http.get('/v1/device-orders', { token: secret })).status, 403);

    assert.equal((await app.http.del(`${keys()}/${key_id}`, { token: admin })).status, 200);
    assert.equal(
      (await app.http.get('/v1/device-orders', { token: secret })).status,
      401,
      'a revoked key is no credential at all',
    );
    const [revoked] = (await app.http.get(keys(), { token: admin })).body.keys;
    assert.ok(revoked.revoked_at);
  });

  test('only a client admin, only devices of the business, at most a few keys per device', async () => {
    const employee = await app.login(b.users.employee.email, PASSWORD);
    assert.equal((await app.http.post(keys(), {}, { token: employee })).status, 403);
    const other = await makeBusiness(app.em());
    const otherAdmin = await app.login(other.users.admin.email, PASSWORD);
    assert.equal(
      (await app.http.post(keys(), {}, { token: otherAdmin })).status,
      404,
      "another business's locker is not found",
    );
    assert.equal((await app.http.get(keys(), { token: otherAdmin })).status, 404);
    const mine = await app.http.post(keys(other.device.code), {}, { token: otherAdmin });
    assert.equal(
      (await app.http.del(`${keys(other.device.code)}/${mine.body.key.key_id}`, { token: admin })).status,
      404,
    );
    assert.equal(
      (await app.http.del(`${keys()}/${mine.body.key.key_id}`, { token: admin })).status,
      404,
      'a key of another device is not found either',
    );
    // A code of blanks is a code no device or key has (found by the long fuzz run: it answered 422 "required").
    assert.equal((await app.http.get('/v1/devices/%C2%A0/keys', { token: admin })).status, 404);
    assert.equal((await app.http.del(`${keys()}/%09`, { token: admin })).status, 404);

    for (let i = 1; i < MAX_DEVICE_KEYS; i++)
      assert.equal((await app.http.post(keys(other.device.code), {}, { token: otherAdmin })).status, 201);
    const refused = await app.http.post(keys(other.device.code), {}, { token: otherAdmin, lang: 'fr' });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'TOO_MANY_KEYS');
    assert.match(refused.body.message, /clés actives/);
  });
});
