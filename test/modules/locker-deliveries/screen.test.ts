// The locker's screen over HTTP with a real device key: a delivery code opens its doors (doors_opened via
// screen_code), a wrong one is refused in the caller's language, five wrong ones lock the screen even for the right
// code, and a key opens only its own device's screen.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { grantLockerPartner } from '../../../src/modules/locker-deliveries/index.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeProvider, PASSWORD } from '../../helpers/factories.ts';

describe('locker screen codes', () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let provider: string;
  let key: string;
  const screen = (code: string, as = key, device = b.device.code, lang?: string) =>
    app.http.post(`/v1/lockers/${device}/code`, { code }, { token: as, lang });
  const deliver = async () => {
    const res = await app.http.post(
      '/v1/partner-locker/deliveries',
      {
        device_id: b.device.code,
        parcels: [{ reference: `S-${Date.now()}`, size: 'M' }],
        recipient: { name: 'Ada' },
        open_mode: 'screen_code',
      },
      { token: provider },
    );
    assert.equal(res.status, 201);
    return {
      id: res.body.delivery.id as number,
      code: res.body.delivery_code as string,
      door: res.body.delivery.parcels[0].compartment_number as number,
    };
  };

  before(async () => {
    app = await startApp();
    b = await makeBusiness(app.em());
    const p = await makeProvider(app.em(), 'locker_provider');
    await grantLockerPartner(app.em(), b.business.id, p.business.id);
    provider = await app.login(p.user.email, PASSWORD);
    const admin = await app.login(b.users.admin.email, PASSWORD);
    key = (await app.http.post(`/v1/devices/${b.device.code}/keys`, { name: 'screen' }, { token: admin })).body.key
      .secret;
  });
  after(() => app.running.close());

  test('a delivery code opens its doors for the deposit, again on a second entry; other codes and other screens are refused', async () => {
    const d = await deliver();
    const opened = await screen(d.code);
    assert.equal(opened.status, 200);
    assert.deepEqual(
      [
        opened.body.opened,
        opened.body.delivery_id,
        opened.body.compartments.map((c: { compartment_number: number }) => c.compartment_number),
      ],
      ['deposit', d.id, [d.door]],
    );
    assert.equal(
      (await app.http.get(`/v1/partner-locker/deliveries/${d.id}`, { token: provider })).body.delivery.status,
      'depositing',
    );
    assert.equal(
      (await screen(d.code)).status,
      200,
      'typed again while the deposit is under way: the doors open again',
    );

    const wrong = await screen('00000000', key, b.device.code, 'fr');
    assert.deepEqual(
      [wrong.status, wrong.body.errors[0].field, wrong.body.errors[0].message],
      [422, 'code', "Ce code n'ouvre rien dans ce casier."],
    );
    const other = await makeBusiness(app.em());
    assert.equal(
      (await screen(d.code, key, other.device.code)).status,
      404,
      "a key opens only its own device's screen",
    );
    assert.equal((await screen(d.code, provider)).status, 403, 'a session is no device key');
    await app.http.post(`/v1/partner-locker/deliveries/${d.id}/cancel`, {}, { token: provider });
    assert.equal((await screen(d.code)).status, 422, 'a cancelled delivery opens nothing');
  });

  test('five wrong codes lock the screen: 429 with Retry-After, even for the right code', async () => {
    // A locker of its own, so the wrong codes of the test above do not count.
    b = await makeBusiness(app.em());
    const p = await makeProvider(app.em(), 'locker_provider');
    await grantLockerPartner(app.em(), b.business.id, p.business.id);
    provider = await app.login(p.user.email, PASSWORD);
    key = (
      await app.http.post(
        `/v1/devices/${b.device.code}/keys`,
        {},
        { token: await app.login(b.users.admin.email, PASSWORD) },
      )
    ).body.key.secret;
    const d = await deliver();
    for (let i = 0; i < 4; i++) assert.equal((await screen(`1111111${i}`)).status, 422);
    const locking = await screen('22222222');
    assert.equal(locking.status, 429);
    assert.ok(Number(locking.headers.get('retry-after')) > 0);
    assert.equal((await screen(d.code)).status, 429, 'the right code is refused during the lock');
    assert.equal(
      (await app.http.get(`/v1/partner-locker/deliveries/${d.id}`, { token: provider })).body.delivery.status,
      'awaiting_deposit',
      'the doors stayed shut',
    );
  });
});
