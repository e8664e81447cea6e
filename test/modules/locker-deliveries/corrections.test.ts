// What the provider and the business's staff do besides the happy path, over HTTP with a real receiver: staff
// confirm from the console, the provider reports a failure per parcel, and reopens compartments inside the
// correction window only (409 after it); bad input names its field and writes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, PASSWORD } from '../../helpers/factories.ts';
import { lockerWorld } from '../../helpers/lockerWorld.ts';

describe('partner delivery corrections, failures and console confirms', () => {
  let app: TestApp;
  let w: Awaited<ReturnType<typeof lockerWorld>>;

  before(async () => {
    // An hour lasts 1.8 s; the correction window of 60 minutes too.
    app = await startApp({ LOCKER_TIMER_SCALE: '0.0005' });
    w = await lockerWorld(app, { correction_window_minutes: 60 });
  });
  after(async () => {
    await app.running.close();
    await w.receiver.close();
  });

  test('staff confirm a deposit from the console; the business lists the deliveries into its lockers, others see none', async () => {
    const d = await w.deliver('screen_code');
    const url = `/v1/locker-deliveries/${d.id}/confirm`;
    assert.equal((await app.http.post(url, {}, { token: w.admin })).status, 409, 'no deposit under way yet');
    await w.screen(d.code!);
    const confirmed = await app.http.post(url, {}, { token: w.admin });
    assert.deepEqual([confirmed.status, confirmed.body.delivery.confirmed_by], [200, 'console']);
    assert.equal((await w.event(d.id, 'partner_locker.delivery.delivered')).data.confirmed_by, 'console');
    const list = await app.http.get('/v1/locker-deliveries?status=delivered', { token: w.admin });
    assert.ok(list.body.deliveries.some((x: { id: number }) => x.id === d.id));
    const other = await makeBusiness(app.em());
    const otherAdmin = await app.login(other.users.admin.email, PASSWORD);
    assert.equal((await app.http.get(`/v1/locker-deliveries/${d.id}`, { token: otherAdmin })).status, 404);
    assert.equal((await app.http.post(url, {}, { token: otherAdmin })).status, 404);
    assert.equal((await app.http.get('/v1/locker-deliveries', { token: otherAdmin })).body.total, 0);
    assert.equal((await app.http.post(url, {}, { token: w.provider })).status, 403, "the console is the business's");
  });

  test('a failure with a code per parcel frees every compartment; unknown or repeated parcels are refused and change nothing', async () => {
    const d = await w.deliver('remote_open', [
      { reference: 'F-1', size: 'M' },
      { reference: 'F-2', size: 'M' },
    ]);
    const unknown = await w.act(d.id, 'fail', { parcels: [{ reference: 'F-9', code: 'parcel_damaged' }] }, 'fr');
    assert.deepEqual(
      [unknown.status, unknown.body.errors[0].field, unknown.body.errors[0].message],
      [422, 'parcels.0.reference', "Cette livraison n'a aucun colis avec cette référence."],
    );
    const twice = await w.act(d.id, 'fail', {
      parcels: [
        { reference: 'F-1', code: 'other' },
        { reference: 'F-1', code: 'other' },
      ],
    });
    assert.deepEqual([twice.status, twice.body.errors[0].field], [422, 'parcels.1.reference']);
    const badCode = await w.act(d.id, 'fail', { parcels: [{ reference: 'F-1', code: 'lost_in_space' }] });
    assert.deepEqual([badCode.status, badCode.body.errors[0].field], [422, 'parcels.0.code']);
    assert.equal((await w.read(d.id)).status, 'awaiting_deposit');
    assert.equal(await w.held(d.id), 2);

    const failed = await w.act(d.id, 'fail', { parcels: [{ reference: 'F-2', code: 'parcel_too_large' }] });
    assert.equal(failed.body.delivery.status, 'failed');
    assert.deepEqual(
      failed.body.delivery.parcels.map((p: { failure_code: string | null }) => p.failure_code),
      [null, 'parcel_too_large'],
    );
    assert.equal(await w.held(d.id), 0);
    const event = await w.event(d.id, 'partner_locker.delivery.failed');
    assert.deepEqual(event.data.parcels, [
      { reference: 'F-1', failure_code: null },
      { reference: 'F-2', failure_code: 'parcel_too_large' },
    ]);
    assert.equal((await w.act(d.id, 'fail', { parcels: [{ reference: 'F-1', code: 'other' }] })).status, 409);
  });

  test('a correction reopens named compartments inside the window; outside it, 409', async () => {
    const d = await w.deliver('remote_open', [
      { reference: 'C-1', size: 'M' },
      { reference: 'C-2', size: 'M' },
    ]);
    assert.equal(
      (await w.act(d.id, 'correction', { compartment_numbers: [d.doors[0]] })).status,
      409,
      'nothing to correct before the deposit',
    );
    await w.act(d.id, 'open');
    await w.act(d.id, 'confirm');
    const stranger = await w.act(d.id, 'correction', { compartment_numbers: [d.doors[0], 999] });
    assert.deepEqual([stranger.status, stranger.body.errors[0].field], [422, 'compartment_numbers.1']);
    const reopened = await w.act(d.id, 'correction', { compartment_numbers: [d.doors[1]] });
    assert.deepEqual([reopened.status, reopened.body.delivery.status], [200, 'delivered']);
    const event = await w.event(d.id, 'partner_locker.delivery.correction_reopened');
    assert.deepEqual(
      event.data.correction.compartments.map((c: { compartment_number: number }) => c.compartment_number),
      [d.doors[1]],
    );
    assert.equal(
      (await w.read(d.id)).delivered_at,
      reopened.body.delivery.delivered_at,
      'a correction keeps the delivery time',
    );

    await new Promise((r) => setTimeout(r, 2_000));
    const late = await w.act(d.id, 'correction', { compartment_numbers: [d.doors[0]] }, 'es');
    assert.deepEqual([late.status, late.body.code], [409, 'CORRECTION_WINDOW_CLOSED']);
    assert.equal(w.events(d.id).filter((e) => e.event.endsWith('correction_reopened')).length, 1);
  });
});
