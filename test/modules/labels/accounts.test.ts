/**
 * Carrier accounts through the HTTP API (docs/labels.md, "Carrier accounts"): connect, list, change, disconnect;
 * credentials checked by the carrier's schema, sealed at rest and never shown; one carrier and account number per
 * business; another business's account is not found; only a client admin manages them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { labelWorld, rateBody, SHIPPER, type LabelWorld } from './world.ts';

describe('labels: carrier accounts', () => {
  let app: TestApp;
  let w: LabelWorld;
  let other: LabelWorld;
  const PATH = '/v1/labelservice/carrier-accounts';

  before(async () => {
    app = await startApp();
    w = await labelWorld(app);
    other = await labelWorld(app);
  });
  after(() => app.running.close());

  const connect = (body: Record<string, unknown>, token = w.admin) => app.http.post(PATH, body, { token });
  const storedCredentials = async (id: number) =>
    (
      await app.em().execute<{ credentials: string }[]>('select credentials from carrier_account where id = ?', [id])
    )[0]!.credentials;

  test('a connected account is listed with the names of its credentials, never their values, sealed at rest', async () => {
    const res = await connect({
      carrier: 'sandbox_swift',
      name: 'Swift second',
      account_number: 'SWF-SECOND',
      credentials: { api_key: 'sbx_plain_secret_value' },
      currency: 'CZK',
      default_shipper: SHIPPER,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const account = res.body.carrier_account;
    assert.deepEqual(account.credential_fields, ['api_key']);
    assert.equal(account.currency, 'CZK');
    assert.equal(account.carrier_name, 'Swift Sandbox Express');
    assert.equal(account.default_shipper.address.city, 'Paris');
    assert.equal(account.active, true);
    assert.ok(!JSON.stringify(res.body).includes('sbx_plain_secret_value'));

    const stored = await storedCredentials(account.id);
    assert.ok(!stored.includes('sbx_plain_secret_value'), 'the column holds no plaintext credential');
    assert.ok(!stored.includes('api_key'), 'not even the credential names');

    const list = await app.http.get(PATH, { token: w.admin });
    assert.equal(list.status, 200);
    const listed = list.body.carrier_accounts.find((a: any) => a.id === account.id);
    assert.deepEqual(listed.credential_fields, ['api_key']);
    assert.ok(!JSON.stringify(list.body).includes('sbx_plain_secret_value'));
    // The world's own two accounts and this one; none of the other business's.
    assert.equal(list.body.carrier_accounts.length, 3);
  });

  test('the same carrier and account number twice is CARRIER_ACCOUNT_TAKEN', async () => {
    const body = { carrier: 'sandbox_parcel', name: 'Parcel', account_number: 'PCL-TWICE', credentials: {} };
    assert.equal((await connect(body)).status, 201);
    const again = await connect({ ...body, name: 'Parcel again' });
    assert.equal(again.status, 409, JSON.stringify(again.body));
    assert.equal(again.body.code, 'CARRIER_ACCOUNT_TAKEN');
    // Another business may connect the same number.
    assert.equal((await connect(body, other.admin)).status, 201);
  });

  test('an unknown carrier, bad credentials and a bad currency are 422 on their fields', async () => {
    const unknown = await connect({ carrier: 'no_such', name: 'x', account_number: 'X-1', credentials: {} });
    assert.equal(unknown.status, 422);
    assert.ok(
      unknown.body.errors.some((e: any) => e.field === 'carrier'),
      JSON.stringify(unknown.body),
    );

    const badKey = await connect({
      carrier: 'sandbox_swift',
      name: 'x',
      account_number: 'X-2',
      credentials: { api_key: '', secret: 'nope' },
    });
    assert.equal(badKey.status, 422);
    const fields = badKey.body.errors.map((e: any) => e.field).sort();
    assert.deepEqual(fields, ['credentials.api_key', 'credentials.secret'], JSON.stringify(badKey.body));

    const currency = await connect({
      carrier: 'sandbox_swift',
      name: 'x',
      account_number: 'X-3',
      credentials: {},
      currency: 'eur',
    });
    assert.equal(currency.status, 422);
    assert.ok(currency.body.errors.some((e: any) => e.field === 'currency'));
  });

  test('an update changes the fields sent; credentials replace the set; default_shipper null removes it', async () => {
    const created = await connect({
      carrier: 'sandbox_parcel',
      name: 'Parcel to change',
      account_number: 'PCL-CHANGE',
      credentials: { api_key: 'sbx_first' },
      default_shipper: SHIPPER,
    });
    const id = created.body.carrier_account.id;
    const before = await storedCredentials(id);
    const res = await app.http.put(`${PATH}/${id}`, { name: 'Parcel changed', credentials: {} }, { token: w.admin });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.carrier_account.name, 'Parcel changed');
    assert.equal(res.body.carrier_account.account_number, 'PCL-CHANGE');
    assert.deepEqual(res.body.carrier_account.credential_fields, []);
    assert.equal(res.body.carrier_account.default_shipper.name, SHIPPER.name);
    assert.notEqual(await storedCredentials(id), before);

    const cleared = await app.http.put(`${PATH}/${id}`, { default_shipper: null }, { token: w.admin });
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.carrier_account.default_shipper, null);

    const taken = await app.http.put(`${PATH}/${id}`, { account_number: 'PCL-TWICE' }, { token: w.admin });
    assert.equal(taken.status, 409, JSON.stringify(taken.body));
    assert.equal(taken.body.code, 'CARRIER_ACCOUNT_TAKEN');

    const badKey = await app.http.put(`${PATH}/${id}`, { credentials: { token: 'x' } }, { token: w.admin });
    assert.equal(badKey.status, 422);
    assert.ok(badKey.body.errors.some((e: any) => e.field === 'credentials.token'));
  });

  test("another business's account is 404 to change or disconnect", async () => {
    const theirs = other.accounts[0]!.id;
    assert.equal((await app.http.put(`${PATH}/${theirs}`, { name: 'mine' }, { token: w.admin })).status, 404);
    assert.equal((await app.http.del(`${PATH}/${theirs}`, { token: w.admin })).status, 404);
    const list = await app.http.get(PATH, { token: other.admin });
    assert.ok(list.body.carrier_accounts.every((a: any) => a.name !== 'mine'));
  });

  test('an employee and a customer may not manage accounts', async () => {
    for (const token of [w.employee, w.customer]) {
      assert.equal((await app.http.get(PATH, { token })).status, 403);
      const res = await connect(
        { carrier: 'sandbox_swift', name: 'x', account_number: 'X-EMP', credentials: {} },
        token,
      );
      assert.equal(res.status, 403);
    }
  });

  test('a disconnected account gives no rates, stays listed, and connecting it again reactivates it', async () => {
    const own = await labelWorld(app);
    const swift = own.accounts[0]!;
    const res = await app.http.del(`${PATH}/${swift.id}`, { token: own.admin });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.carrier_account.active, false);
    assert.equal((await app.http.del(`${PATH}/${swift.id}`, { token: own.admin })).status, 404);

    const rates = await app.http.post('/v1/labelservice/rate', rateBody('ACC-1'), { token: own.admin });
    assert.equal(rates.status, 200);
    assert.ok(rates.body.rates.every((r: any) => r.carrier === 'sandbox_parcel'));

    const again = await connect(
      { carrier: 'sandbox_swift', name: 'Swift back', account_number: swift.account_number, credentials: {} },
      own.admin,
    );
    assert.equal(again.status, 201, JSON.stringify(again.body));
    assert.equal(again.body.carrier_account.id, swift.id);
    assert.equal(again.body.carrier_account.active, true);
  });
});
