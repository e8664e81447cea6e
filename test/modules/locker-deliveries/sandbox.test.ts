// A sandbox locker over HTTP, with the provider's real receiver: its deliveries are test deliveries (livemode
// false, PLE-MOCK- ids, data.test, X-Webhook-Test: 1) that go to the sandbox URL, or nowhere with the switch off,
// and the simulator reports the doors as a locker would, so a provider plays a delivery to its end alone.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { compartmentsOf, insertDevice } from '../../../src/modules/lockers/index.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { lockerWorld } from '../../helpers/lockerWorld.ts';
import { waitFor } from '../../helpers/wait.ts';

describe('sandbox lockers', () => {
  let app: TestApp;
  let w: Awaited<ReturnType<typeof lockerWorld>>;
  let sandbox: string;
  const deliver = async (openMode: 'screen_code' | 'remote_open') => {
    const res = await app.http.post(
      '/v1/partner-locker/deliveries',
      {
        device_id: sandbox,
        parcels: [{ reference: `SB-${Date.now()}`, size: 'M' }],
        recipient: { name: 'Ada' },
        open_mode: openMode,
      },
      { token: w.provider },
    );
    assert.equal(res.status, 201);
    return {
      id: res.body.delivery.id as number,
      code: res.body.delivery_code as string | undefined,
      delivery: res.body.delivery,
    };
  };
  const sandboxScreen = (code: string, device = sandbox) =>
    app.http.post(`/v1/partner-locker/sandbox/${device}/code`, { code }, { token: w.provider });

  before(async () => {
    // The simulated doors close 5 s after they open, 2.5 ms here.
    app = await startApp({ LOCKER_TIMER_SCALE: '0.0005' });
    w = await lockerWorld(app);
    sandbox = `SANDBOX-${w.b.device.code}`;
    await insertDevice(app.em(), {
      businessId: w.b.business.id,
      code: sandbox,
      name: 'Sandbox locker',
      sandbox: true,
      compartments: compartmentsOf(['M01', 'M02']),
    });
    const put = await app.http.put(
      '/v1/provider/webhook-settings',
      { sandbox_url: `${w.receiver.url}/sandbox`, sandbox_enabled: true },
      { token: w.provider },
    );
    assert.equal(put.status, 200);
  });
  after(async () => {
    await app.running.close();
    await w.receiver.close();
  });

  test('the provider lists its lockers, the sandbox one marked, with free compartments by size', async () => {
    const list = await app.http.get('/v1/partner-locker/lockers', { token: w.provider });
    assert.deepEqual(
      list.body.lockers.map((l: { device_id: string; sandbox: boolean; free: { M: number } }) => [
        l.device_id,
        l.sandbox,
        l.free.M,
      ]),
      [
        [w.b.device.code, false, 4],
        [sandbox, true, 2],
      ],
    );
  });

  test('a remote-open sandbox delivery settles by the simulated doors; its events are test events at the sandbox URL', async () => {
    const d = await deliver('remote_open');
    assert.equal(d.delivery.livemode, false);
    await w.act(d.id, 'open');
    const delivered = await w.event(d.id, 'partner_locker.delivery.delivered');
    assert.equal(delivered.data.confirmed_by, 'door_close', 'the simulator reported the door closed');
    for (const e of w.events(d.id)) {
      assert.match(e.event_id, /^PLE-MOCK-\d+$/);
      assert.equal(e.data.test, true);
      const raw = w.receiver.received.find((r) => r.body.includes(`"${e.event_id}"`))!;
      assert.equal(raw.url, '/sandbox');
      assert.equal(raw.headers['x-webhook-test'], '1');
      assert.equal(JSON.parse(raw.body).livemode, false);
    }
    const [door] = await app
      .em()
      .execute<{ door_state: string }[]>(
        'select door_state from compartment c join device d on d.id = c.device_id where d.code = ? and c.compartment_number = ?',
        [sandbox, d.delivery.parcels[0].compartment_number],
      );
    assert.equal(door?.door_state, 'closed', "the simulator's report is kept as a locker's would be");

    // The recipient's side, played by the provider with the pickup code from the event.
    const pickup = await sandboxScreen(delivered.data.pickup_code);
    assert.equal(pickup.body.opened, 'pickup');
    await w.event(d.id, 'partner_locker.pickup.completed');
    assert.equal((await w.read(d.id)).status, 'picked_up');
  });

  test('a screen-code sandbox delivery: the provider types the delivery code, the simulator closes the door; a real locker has no sandbox screen', async () => {
    const d = await deliver('screen_code');
    assert.equal((await sandboxScreen(d.code!)).body.opened, 'deposit');
    const delivered = await w.event(d.id, 'partner_locker.delivery.delivered');
    assert.equal(
      delivered.data.confirmed_by,
      'timeout_door_closed',
      'the simulator closed the door; the deposit timeout settled it',
    );
    assert.equal(
      (await sandboxScreen(d.code!, w.b.device.code)).status,
      404,
      'only a sandbox locker has a sandbox screen',
    );
    assert.equal((await sandboxScreen('00000000')).status, 422);
  });

  test('with the sandbox switch off, sandbox events go nowhere; live events still go to the live URL', async () => {
    await app.http.put('/v1/provider/webhook-settings', { sandbox_enabled: false }, { token: w.provider });
    const quiet = await deliver('remote_open');
    await w.act(quiet.id, 'cancel');
    const live = await w.deliver('remote_open');
    await w.act(live.id, 'cancel');
    await w.event(live.id, 'partner_locker.delivery.cancelled');
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(w.events(quiet.id), [], 'no sandbox event was sent');
    await waitFor(
      async () =>
        (
          await app
            .em()
            .execute<{ n: number }[]>(
              "select count(*)::int as n from outbox_event where reference_type = 'locker_delivery' and reference_id = ?",
              [String(quiet.id)],
            )
        )[0]!.n > 0,
    );
  });
});
