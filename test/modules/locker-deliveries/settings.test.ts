// A business's own rules for partner deliveries into its lockers, over HTTP: its timers (defaults until set, bounds
// checked, copied by each new delivery) and which providers may deliver (granted and revoked by account code).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { makeBusiness, makeProvider, PASSWORD } from '../../helpers/factories.ts';
import { lockerSuite } from '../../helpers/lockerWorld.ts';

describe('locker settings and partner grants', () => {
  const suite = lockerSuite();

  test('timers: defaults until set, a partial change keeps the rest, out-of-range values change nothing; new deliveries copy them', async () => {
    const { app, w } = suite;
    const defaults = {
      delivery_code_ttl_hours: 72,
      deposit_timeout_minutes: 15,
      pickup_ttl_hours: 72,
      correction_window_minutes: 10,
      code_rotation_hours: 0,
    };
    assert.deepEqual((await app.http.get('/v1/locker-settings', { token: w.admin })).body, {
      result: true,
      settings: defaults,
    });
    const changed = await app.http.put('/v1/locker-settings', { delivery_code_ttl_hours: 2 }, { token: w.admin });
    assert.deepEqual(changed.body.settings, { ...defaults, delivery_code_ttl_hours: 2 });
    const bad = await app.http.put(
      '/v1/locker-settings',
      { pickup_ttl_hours: 0, correction_window_minutes: 1441, deposit_timeout_minutes: 1.5, colour: 'red' },
      { token: w.admin, lang: 'zh-Hans' },
    );
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.errors.map((e: { field: string }) => e.field).sort(), [
      'colour',
      'correction_window_minutes',
      'deposit_timeout_minutes',
      'pickup_ttl_hours',
    ]);
    assert.deepEqual((await app.http.get('/v1/locker-settings', { token: w.admin })).body.settings, {
      ...defaults,
      delivery_code_ttl_hours: 2,
    });

    const d = await w.deliver('screen_code');
    const expires = Date.parse((await w.read(d.id)).delivery_code_expires_at);
    assert.ok(Math.abs(expires - Date.now() - 2 * 3_600_000) < 60_000, 'the new delivery took the 2 hour code expiry');
    const employee = await app.login(w.b.users.employee.email, PASSWORD);
    assert.equal((await app.http.put('/v1/locker-settings', { pickup_ttl_hours: 5 }, { token: employee })).status, 403);
    await w.act(d.id, 'cancel');
  });

  test('grants: a provider is granted and revoked by its account code; a revoked one starts nothing new, its deliveries under way go on', async () => {
    const { app, w } = suite;
    const granted = await app.http.get('/v1/locker-partners', { token: w.admin });
    assert.equal(granted.body.partners.length, 1);
    const code: string = granted.body.partners[0].provider_code;
    const d = await w.deliver('remote_open');
    assert.equal((await app.http.del(`/v1/locker-partners/${code}`, { token: w.admin })).status, 200);
    assert.equal(
      (await app.http.del(`/v1/locker-partners/${code}`, { token: w.admin })).status,
      404,
      'revoked already',
    );
    const refused = await app.http.post(
      '/v1/partner-locker/deliveries',
      {
        device_id: w.b.device.code,
        parcels: [{ reference: 'NEW', size: 'M' }],
        recipient: { name: 'Ada' },
        open_mode: 'remote_open',
      },
      { token: w.provider },
    );
    assert.deepEqual([refused.status, refused.body.errors[0].field], [422, 'device_id']);
    assert.equal((await w.act(d.id, 'open')).status, 200, 'the delivery under way goes on');

    assert.deepEqual((await app.http.put(`/v1/locker-partners/${code}`, {}, { token: w.admin })).body, {
      result: true,
      granted: true,
    });
    assert.deepEqual((await app.http.put(`/v1/locker-partners/${code}`, {}, { token: w.admin })).body, {
      result: true,
      granted: false,
    });
    const merchant = await makeBusiness(app.em());
    assert.equal(
      (await app.http.put(`/v1/locker-partners/${merchant.business.code}`, {}, { token: w.admin })).status,
      404,
      'not a locker provider',
    );
    const other = await makeProvider(app.em(), 'delivery_provider');
    assert.equal(
      (await app.http.put(`/v1/locker-partners/${other.business.code}`, {}, { token: w.admin })).status,
      404,
      'a delivery provider is no locker provider',
    );
    assert.equal(
      (await app.http.put('/v1/locker-partners/%09%09', {}, { token: w.admin })).status,
      404,
      'a code of blanks names no provider',
    );
    await w.act(d.id, 'cancel');
  });
});
