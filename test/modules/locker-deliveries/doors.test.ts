// The locker's own reports moving partner deliveries, over HTTP with a real device key and receiver: every
// remote-opened door closing settles the deposit (door_close); a screen-code deposit settles on the courier's
// "done" (courier_terminal) or, past the deposit timeout, once every door is closed (timeout_door_closed); the
// pickup code opens the doors only after the deposit, and the pickup completes when they close again.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { lockerWorld } from '../../helpers/lockerWorld.ts';
import { waitFor } from '../../helpers/wait.ts';

describe('locker door reports', () => {
  let app: TestApp;
  let w: Awaited<ReturnType<typeof lockerWorld>>;
  const statusOf = async (id: number) => (await w.read(id)).status;

  before(async () => {
    // An hour lasts 1.8 s: the 15 minute deposit timeout 0.45 s, the pickup expiry (72 hours) over two minutes.
    app = await startApp({ LOCKER_TIMER_SCALE: '0.0005' });
    w = await lockerWorld(app);
  });
  after(async () => {
    await app.running.close();
    await w.receiver.close();
  });

  test('remote open: the deposit settles by itself when the locker reports every opened door closed (door_close)', async () => {
    const d = await w.deliver('remote_open', [
      { reference: 'RO-1', size: 'M' },
      { reference: 'RO-2', size: 'M' },
    ]);
    assert.equal((await w.act(d.id, 'open')).status, 200);
    for (const door of d.doors) assert.deepEqual((await w.door(door, 'opened')).body, { result: true, applied: true });
    assert.equal((await w.door(d.doors[0]!, 'closed')).status, 200);
    await new Promise((r) => setTimeout(r, 700));
    assert.equal(await statusOf(d.id), 'depositing', 'one door is still open, past the deposit timeout');
    await w.door(d.doors[1]!, 'closed');
    const delivered = await w.event(d.id, 'partner_locker.delivery.delivered');
    assert.equal(delivered.data.confirmed_by, 'door_close');
    assert.equal(delivered.data.pickup_code, await w.pickupCode(d.id));
    assert.deepEqual((await w.read(d.id)).confirmed_by, 'door_close');
  });

  test('screen code, the courier presses "done", then the recipient collects: pickup.completed frees the compartment', async () => {
    const d = await w.deliver('screen_code');
    const pickupCode = await w.pickupCode(d.id);
    assert.equal(
      (await w.screen(pickupCode)).status,
      422,
      'the pickup code opens nothing before the deposit is confirmed',
    );
    const opened = await w.screen(d.code!);
    assert.deepEqual([opened.status, opened.body.opened], [200, 'deposit']);
    const done = await app.http.post(`/v1/lockers/${w.b.device.code}/confirm`, { delivery_id: d.id }, { token: w.key });
    assert.deepEqual(done.body, {
      result: true,
      delivery_id: d.id,
      status: 'delivered',
      confirmed_by: 'courier_terminal',
    });
    assert.equal(
      (await app.http.post(`/v1/lockers/${w.b.device.code}/confirm`, { delivery_id: d.id }, { token: w.key })).status,
      409,
    );
    assert.equal((await w.screen(d.code!)).status, 422, 'the delivery code opens nothing once delivered');

    const pickup = await w.screen(pickupCode);
    assert.deepEqual(
      [
        pickup.status,
        pickup.body.opened,
        pickup.body.compartments.map((c: { compartment_number: number }) => c.compartment_number),
      ],
      [200, 'pickup', d.doors],
    );
    await w.door(d.doors[0]!, 'opened');
    assert.equal(await statusOf(d.id), 'delivered', 'collected only once the door is closed again');
    await w.door(d.doors[0]!, 'closed');
    const completed = await w.event(d.id, 'partner_locker.pickup.completed');
    assert.deepEqual(
      completed.data.compartments.map((c: { compartment_number: number }) => c.compartment_number),
      d.doors,
    );
    assert.ok(completed.data.opened_at <= completed.data.picked_up_at);
    assert.equal(await statusOf(d.id), 'picked_up');
    assert.equal(await w.held(d.id), 0);
    assert.equal((await w.screen(pickupCode)).status, 422, 'a collected delivery opens nothing');
    const history = JSON.stringify(
      await app.running.temporal.workflow.getHandle(`locker-delivery-${d.id}`).fetchHistory(),
    );
    assert.ok(!history.includes(pickupCode) && !history.includes(d.code!), 'no code in the workflow history');
  });

  test('past the deposit timeout a screen-code deposit settles when every door is closed (timeout_door_closed)', async () => {
    const d = await w.deliver('screen_code');
    await w.screen(d.code!);
    await w.door(d.doors[0]!, 'closed');
    const delivered = await w.event(d.id, 'partner_locker.delivery.delivered');
    assert.equal(delivered.data.confirmed_by, 'timeout_door_closed');
  });

  test("a report older than the door's newest changes nothing; odd reports are refused, and a key reports only its own doors", async () => {
    const d = await w.deliver('remote_open');
    await w.act(d.id, 'open');
    const now = Date.now();
    assert.equal((await w.door(d.doors[0]!, 'opened', new Date(now))).body.applied, true);
    assert.equal(
      (await w.door(d.doors[0]!, 'closed', new Date(now - 60_000))).body.applied,
      false,
      'late news of an earlier close',
    );
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await statusOf(d.id), 'depositing');

    const unknown = await w.door(999, 'closed');
    assert.deepEqual([unknown.status, unknown.body.errors[0].field], [422, 'compartment_number']);
    const ahead = await w.door(d.doors[0]!, 'closed', new Date(now + 3_600_000));
    assert.deepEqual([ahead.status, ahead.body.errors[0].field], [422, 'at']);
    const bad = await app.http.post(
      `/v1/lockers/${w.b.device.code}/doors`,
      { compartment_number: -1, state: 'ajar', at: 'yesterday' },
      { token: w.key, lang: 'de' },
    );
    assert.equal(bad.status, 422);
    assert.deepEqual([...new Set(bad.body.errors.map((e: { field: string }) => e.field))].sort(), [
      'at',
      'compartment_number',
      'state',
    ]);
    const [row] = await app
      .em()
      .execute<{ door_state: string }[]>(
        'select door_state from compartment where device_id = ? and compartment_number = ?',
        [w.b.device.id, d.doors[0]],
      );
    assert.equal(row?.door_state, 'opened', 'refused reports wrote nothing');
    const other = await lockerWorld(app);
    const foreign = await app.http.post(
      `/v1/lockers/${other.b.device.code}/doors`,
      { compartment_number: 1, state: 'closed', at: new Date().toISOString() },
      { token: w.key },
    );
    assert.equal(foreign.status, 404);
    const stranger = await app.http.post(
      `/v1/lockers/${other.b.device.code}/confirm`,
      { delivery_id: d.id },
      { token: other.key },
    );
    assert.equal(stranger.status, 404, "another locker's key cannot confirm this delivery");
    await other.receiver.close();

    await w.door(d.doors[0]!, 'closed');
    await waitFor(async () => (await statusOf(d.id)) === 'delivered');
  });
});
