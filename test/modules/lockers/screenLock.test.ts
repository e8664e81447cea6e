// The locker screen's wrong-code lock holds back everyone at that locker; the business's client admin lifts it over
// HTTP (docs/runbook.md). Lifting clears the screen's lock and its device keys' own, keeps the lock history (the next
// lock is longer), and is refused to other roles and other businesses.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { grantLockerPartner } from '../../../src/modules/locker-deliveries/index.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeProvider, PASSWORD } from '../../helpers/factories.ts';

describe("lifting a locker screen's wrong-code lock", () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let admin: string;
  let provider: string;
  let key: string;
  const screen = (code: string) => app.http.post(`/v1/lockers/${b.device.code}/code`, { code }, { token: key });
  const lift = (token = admin, device = b.device.code) => app.http.del(`/v1/devices/${device}/code-lock`, { token });
  /** Five wrong codes: the last one locks the screen; answers its Retry-After. */
  const lockScreen = async (): Promise<number> => {
    for (let i = 0; i < 4; i++) assert.equal((await screen(`1111111${i}`)).status, 422);
    const locking = await screen('22222222');
    assert.equal(locking.status, 429);
    return Number(locking.headers.get('retry-after'));
  };

  before(async () => {
    app = await startApp();
    b = await makeBusiness(app.em());
    const p = await makeProvider(app.em(), 'locker_provider');
    await grantLockerPartner(app.em(), b.business.id, p.business.id);
    provider = await app.login(p.user.email, PASSWORD);
    admin = await app.login(b.users.admin.email, PASSWORD);
    key = (await app.http.post(`/v1/devices/${b.device.code}/keys`, { name: 'screen' }, { token: admin })).body.key
      .secret;
  });
  after(() => app.running.close());

  test('the client admin lifts the lock; another run of wrong codes locks for longer; once lifted the right code opens', async () => {
    const res = await app.http.post(
      '/v1/partner-locker/deliveries',
      {
        device_id: b.device.code,
        parcels: [{ reference: 'LIFT-1', size: 'M' }],
        recipient: { name: 'Ada' },
        open_mode: 'screen_code',
      },
      { token: provider },
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const code: string = res.body.delivery_code;

    const first = await lockScreen();
    assert.equal((await screen(code)).status, 429, 'the right code is refused during the lock');

    const employee = await app.login(b.users.employee.email, PASSWORD);
    assert.equal((await lift(employee)).status, 403, 'a client admin lifts it, nobody else');
    const other = await makeBusiness(app.em());
    assert.equal(
      (await lift(await app.login(other.users.admin.email, PASSWORD), b.device.code)).status,
      404,
      "another business's locker is unknown",
    );
    assert.equal((await screen(code)).status, 429, 'still locked');

    const lifted = await lift();
    assert.equal(lifted.status, 200, JSON.stringify(lifted.body));
    assert.equal(lifted.body.lifted, true);
    assert.ok(lifted.body.remaining_seconds > 0 && lifted.body.remaining_seconds <= first, JSON.stringify(lifted.body));
    const second = await lockScreen();
    assert.ok(second > first, `the lock history stays: ${second} s after ${first} s`);

    assert.equal((await lift()).body.lifted, true);
    const opened = await screen(code);
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    assert.equal(opened.body.opened, 'deposit');
    assert.deepEqual((await lift()).body, { result: true, lifted: false, remaining_seconds: 0 }, 'nothing to lift');
  });

  test("lifting also clears the device key's own lock (20 wrong codes an hour), which the screen's lock alone would leave", async () => {
    const keyLocked = async () =>
      (
        await app
          .em()
          .execute<{ n: number }[]>(
            "select count(*)::int as n from code_attempt where kind = 'locker_screen_code' and subject like 'device_key:%' and locked_until > now()",
          )
      )[0]!.n > 0;
    assert.equal((await lift()).status, 200);
    // Ten wrong codes were counted against the key above; ten more (two locks, the first lifted) reach its limit.
    await lockScreen();
    assert.equal((await lift()).status, 200);
    await lockScreen();
    assert.ok(await keyLocked(), "the key's own lock is in force");
    assert.equal((await lift()).body.lifted, true);
    assert.equal(await keyLocked(), false);
    assert.equal((await screen('33333333')).status, 422, 'the screen takes codes again');
  });
});
