// Partner locker deliveries over HTTP, with the provider's real receiver: create reserves a compartment per parcel
// (422 naming the parcel when none of its size is free), cancel frees them, an unused delivery code expires once,
// another provider's delivery is not found, and bad input writes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { verifyWebhook } from '../../../src/modules/webhooks/verify.ts';
import { grantLockerPartner } from '../../../src/modules/locker-deliveries/index.ts';
import { PICKUP_CODE } from '../../../src/modules/locker-deliveries/repo.ts';
import { compartmentsOf, insertCompartments } from '../../../src/modules/lockers/index.ts';
import { openSecret, purposeOf } from '../../../src/platform/secretBox.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeProvider, PASSWORD } from '../../helpers/factories.ts';
import { startReceiver } from '../../helpers/receiver.ts';
import { waitFor } from '../../helpers/wait.ts';

describe('partner locker deliveries', () => {
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let token: string;
  let secret: string;
  const create = (over: Record<string, unknown> = {}, as = token) => app.http.post('/v1/partner-locker/deliveries', {
    device_id: b.device.code, parcels: [{ reference: 'P-1', size: 'L' }], recipient: { name: 'Ada', email: 'ada@example.com' }, open_mode: 'screen_code', ...over,
  }, { token: as });
  const eventsOf = (id: number) => receiver.received.map((r) => JSON.parse(r.body)).filter((e) => e.data?.delivery_id === String(id));
  const held = async (id: number) => (await app.em().execute<{ n: number }[]>(
    'select count(*)::int as n from compartment_parcel p join locker_delivery_parcel lp on lp.id = p.locker_parcel_id where lp.delivery_id = ?', [id]))[0]!.n;

  before(async () => {
    receiver = await startReceiver();
    app = await startApp();
    b = await makeBusiness(app.em());
    // Two large compartments beside the four medium ones.
    await insertCompartments(app.em(), b.device.id, compartmentsOf(['L01', 'L02'], 'L', 5));
    const provider = await makeProvider(app.em(), 'locker_provider');
    await grantLockerPartner(app.em(), b.business.id, provider.business.id);
    token = await app.login(provider.user.email, PASSWORD);
    const put = await app.http.put('/v1/provider/webhook-settings', { url: `${receiver.url}/prod` }, { token });
    secret = put.body.generated_secret;
  });
  after(async () => { await app.running.close(); await receiver.close(); });

  test('create reserves a compartment per parcel and answers the delivery code once; cancel frees them and tells the provider', async () => {
    const res = await create({ parcels: [{ reference: 'P-1', size: 'L' }, { reference: 'P-2', size: 'M' }] });
    assert.equal(res.status, 201);
    const d = res.body.delivery;
    assert.match(res.body.delivery_code, /^\d{8}$/);
    assert.equal(d.status, 'awaiting_deposit');
    assert.deepEqual(d.parcels.map((p: { reference: string; compartment_number: number; pickup_locker_code: string }) => [p.reference, p.compartment_number, p.pickup_locker_code]),
      [['P-1', 5, 'L-5'], ['P-2', 1, 'A-1']]);
    assert.equal(await held(d.id), 2);
    const read = await app.http.get(`/v1/partner-locker/deliveries/${d.id}`, { token });
    assert.deepEqual(read.body.delivery, d);
    assert.ok(!JSON.stringify(read.body).includes(res.body.delivery_code), 'the code is shown once');
    const [sealed] = await app.em().execute<{ pickup_code_sealed: string }[]>('select pickup_code_sealed from locker_delivery where id = ?', [d.id]);
    const pickupCode = openSecret(purposeOf(PICKUP_CODE), sealed!.pickup_code_sealed);
    assert.match(pickupCode, /^\d{8}$/);
    assert.ok(!sealed!.pickup_code_sealed.includes(pickupCode), 'the pickup code is stored sealed');

    const cancelled = await app.http.post(`/v1/partner-locker/deliveries/${d.id}/cancel`, { reason: 'wrong locker' }, { token });
    assert.equal(cancelled.status, 200);
    assert.equal(cancelled.body.delivery.status, 'cancelled');
    assert.equal(await held(d.id), 0);
    const history = JSON.stringify(await app.running.temporal.workflow.getHandle(`locker-delivery-${d.id}`).fetchHistory());
    assert.ok(!history.includes(res.body.delivery_code) && !history.includes(pickupCode), 'no code in the workflow history');
    const again = await app.http.post(`/v1/partner-locker/deliveries/${d.id}/cancel`, {}, { token, lang: 'de' });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'INVALID_TRANSITION');
    const [event] = await waitFor(async () => { const e = eventsOf(d.id); return e.length > 0 && e; });
    assert.equal(event.event, 'partner_locker.delivery.cancelled');
    assert.equal(event.data.reason, 'wrong locker');
    const raw = receiver.received.find((r) => r.body.includes(event.event_id))!;
    assert.ok(verifyWebhook({ sender: 'partner_locker', headers: raw.headers, rawBody: raw.body, secret }).valid);
    const list = await app.http.get('/v1/partner-locker/deliveries?status=cancelled', { token });
    assert.ok(list.body.deliveries.some((x: { id: number }) => x.id === d.id));
  });

  test('no free compartment of a size: 422 naming the parcel, nothing reserved', async () => {
    const first = await create({ parcels: [{ reference: 'L-A', size: 'L' }, { reference: 'L-B', size: 'L' }] });
    assert.equal(first.status, 201);
    const refused = await create({ parcels: [{ reference: 'M-A', size: 'M' }, { reference: 'L-C', size: 'L' }] });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.errors[0].field, 'parcels.1.size');
    const small = await create({ parcels: [{ reference: 'S-A', size: 'S' }] });
    assert.equal(small.body.errors[0].field, 'parcels.0.size');
    await app.http.post(`/v1/partner-locker/deliveries/${first.body.delivery.id}/cancel`, {}, { token });
    assert.equal((await create({ parcels: [{ reference: 'L-C', size: 'L' }] })).status, 201, 'free again once cancelled');
  });

  test("another provider's delivery is not found; a provider without the business's grant cannot use its locker", async () => {
    const mine = await create({ open_mode: 'remote_open' });
    assert.equal(mine.status, 201);
    assert.equal(mine.body.delivery_code, undefined, 'remote open has no delivery code');
    const stranger = await makeProvider(app.em(), 'locker_provider');
    const theirs = await app.login(stranger.user.email, PASSWORD);
    assert.equal((await app.http.get(`/v1/partner-locker/deliveries/${mine.body.delivery.id}`, { token: theirs })).status, 404);
    assert.equal((await app.http.post(`/v1/partner-locker/deliveries/${mine.body.delivery.id}/cancel`, {}, { token: theirs })).status, 404);
    const refused = await create({}, theirs);
    assert.equal(refused.status, 422);
    assert.equal(refused.body.errors[0].field, 'device_id');
    const admin = await app.login(b.users.admin.email, PASSWORD);
    assert.equal((await create({}, admin)).status, 403);
    await app.http.post(`/v1/partner-locker/deliveries/${mine.body.delivery.id}/cancel`, {}, { token });
  });

  test('a device order and a partner delivery racing for one compartment: the database lets one in', async () => {
    await insertCompartments(app.em(), b.device.id, compartmentsOf(['S01'], 'S', 20));
    const admin = await app.login(b.users.admin.email, PASSWORD);
    const [store, delivery] = await Promise.all([
      app.http.post('/v1/device-orders', { kind: 'delivery', device_id: b.device.code, grid_code: 'S01', reference_number: 'RACE', due_at: new Date(Date.now() + 3_600_000).toISOString() }, { token: admin }),
      create({ parcels: [{ reference: 'RACE', size: 'S' }] }),
    ]);
    assert.deepEqual([store.status, delivery.status].filter((s) => s === 201), [201], `store ${store.status}, delivery ${delivery.status}`);
    assert.ok([409, 422].includes(store.status === 201 ? delivery.status : store.status));
    const holders = await app.em().execute('select device_order_id, locker_parcel_id from compartment_parcel p join compartment c on c.id = p.compartment_id where c.device_id = ? and c.grid_code = ?', [b.device.id, 'S01']);
    assert.equal(holders.length, 1);
  });

  test('bad input answers 422 naming fields and writes nothing', async () => {
    const count = async () => (await app.em().execute<{ n: number }[]>('select count(*)::int as n from locker_delivery'))[0]!.n;
    const before_ = await count();
    const dup = await create({ parcels: [{ reference: 'X', size: 'M' }, { reference: 'X', size: 'M' }] });
    assert.deepEqual([dup.status, dup.body.errors[0].field], [422, 'parcels.1.reference']);
    const bad = await create({ parcels: [], recipient: { name: '' }, open_mode: 'teleport' });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.errors.map((e: { field: string }) => e.field).sort(), ['open_mode', 'parcels', 'recipient.name']);
    assert.equal(await count(), before_);
  });

  test('an unused delivery code expires, frees the compartments and tells the provider', async () => {
    await app.em().execute('insert into locker_settings (business_id, delivery_code_ttl_hours) values (?, 1) on conflict (business_id) do update set delivery_code_ttl_hours = 1', [b.business.id]);
    const res = await create({ parcels: [{ reference: 'EXP-1', size: 'M' }] });
    const id = res.body.delivery.id;
    // An hour is long for a test: the row and the process are moved to a code that has just expired.
    await app.em().execute("update locker_delivery set delivery_code_expires_at = now() where id = ?", [id]);
    await app.running.temporal.workflow.getHandle(`locker-delivery-${id}`).terminate('test restarts it with a due expiry');
    await app.running.temporal.workflow.start('lockerDeliveryWorkflow', {
      workflowId: `locker-delivery-${id}-again`, taskQueue: app.config.taskQueue, args: [{ id, deliveryCodeExpiresAt: new Date().toISOString() }],
    });
    const [event] = await waitFor(async () => { const e = eventsOf(id); return e.length > 0 && e; });
    assert.equal(event.event, 'partner_locker.delivery.expired');
    assert.equal(event.data.expired, 'delivery_code');
    assert.equal((await app.http.get(`/v1/partner-locker/deliveries/${id}`, { token })).body.delivery.status, 'expired');
    assert.equal(await held(id), 0);
  });
});
