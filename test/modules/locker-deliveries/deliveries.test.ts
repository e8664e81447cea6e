// Partner locker deliveries over HTTP, with the provider's real receiver: create reserves a compartment per parcel
// (422 naming the parcel when none of its size is free), cancel frees them, an unused delivery code expires once,
// another provider's delivery is not found, and bad input writes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { verifyWebhook } from '../../../src/modules/webhooks/verify.ts';
import { grantLockerPartner } from '../../../src/modules/locker-deliveries/index.ts';
import { PICKUP_CODE } from '../../../src/modules/locker-deliveries/repo/deliveries.ts';
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
  const create = (over: Record<string, unknown> = {}, as = token) =>
    app.http.post(
      '/v1/partner-locker/deliveries',
      {
        device_id: b.device.code,
        parcels: [{ reference: 'P-1', size: 'L' }],
        recipient: { name: 'Ada', email: 'ada@example.com' },
        open_mode: 'screen_code',
        ...over,
      },
      { token: as },
    );
  const eventsOf = (id: number) =>
    receiver.received.map((r) => JSON.parse(r.body)).filter((e) => e.data?.delivery_id === String(id));
  const held = async (id: number) =>
    (
      await app
        .em()
        .execute<{ n: number }[]>(
          'select count(*)::int as n from compartment_parcel p join locker_delivery_parcel lp on lp.id = p.locker_parcel_id where lp.delivery_id = ?',
          [id],
        )
    )[0]!.n;

  before(async () => {
    receiver = await startReceiver();
    app = await startApp({ LOCKER_TIMER_SCALE: '0.0005' });
    b = await makeBusiness(app.em());
    // Two large compartments beside the four medium ones.
    await insertCompartments(app.em(), b.device.id, compartmentsOf(['L01', 'L02'], 'L', 5));
    const provider = await makeProvider(app.em(), 'locker_provider');
    await grantLockerPartner(app.em(), b.business.id, provider.business.id);
    token = await app.login(provider.user.email, PASSWORD);
    const put = await app.http.put('/v1/provider/webhook-settings', { url: `${receiver.url}/prod` }, { token });
    secret = put.body.generated_secret;
  });
  after(async () => {
    await app.running.close();
    await receiver.close();
  });

  test('create reserves a compartment per parcel and answers the delivery code once; cancel frees them and tells the provider', async () => {
    const res = await create({
      parcels: [
        { reference: 'P-1', size: 'L' },
        { reference: 'P-2', size: 'M' },
      ],
    });
    assert.equal(res.status, 201);
    const d = res.body.delivery;
    assert.match(res.body.delivery_code, /^\d{8}$/);
    assert.equal(d.status, 'awaiting_deposit');
    assert.deepEqual(
      d.parcels.map((p: { reference: string; compartment_number: number; pickup_locker_code: string }) => [
        p.reference,
        p.compartment_number,
        p.pickup_locker_code,
      ]),
      [
        ['P-1', 5, 'L-5'],
        ['P-2', 1, 'A-1'],
      ],
    );
    assert.equal(await held(d.id), 2);
    const read = await app.http.get(`/v1/partner-locker/deliveries/${d.id}`, { token });
    assert.deepEqual(read.body.delivery, d);
    assert.ok(!JSON.stringify(read.body).includes(res.body.delivery_code), 'the code is shown once');
    const [sealed] = await app
      .em()
      .execute<{ pickup_code_sealed: string }[]>('select pickup_code_sealed from locker_delivery where id = ?', [d.id]);
    const pickupCode = openSecret(purposeOf(PICKUP_CODE), sealed!.pickup_code_sealed);
    assert.match(pickupCode, /^\d{8}$/);
    assert.ok(!sealed!.pickup_code_sealed.includes(pickupCode), 'the pickup code is stored sealed');

    const cancelled = await app.http.post(
      `/v1/partner-locker/deliveries/${d.id}/cancel`,
      { reason: 'wrong locker' },
      { token },
    );
    assert.equal(cancelled.status, 200);
    assert.equal(cancelled.body.delivery.status, 'cancelled');
    assert.equal(await held(d.id), 0);
    const history = JSON.stringify(
      await app.running.temporal.workflow.getHandle(`locker-delivery-${d.id}`).fetchHistory(),
    );
    assert.ok(
      !history.includes(res.body.delivery_code) && !history.includes(pickupCode),
      'no code in the workflow history',
    );
    const again = await app.http.post(`/v1/partner-locker/deliveries/${d.id}/cancel`, {}, { token, lang: 'de' });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'INVALID_TRANSITION');
    const [event] = await waitFor(async () => {
      const e = eventsOf(d.id);
      return e.length > 0 && e;
    });
    assert.equal(event.event, 'partner_locker.delivery.cancelled');
    assert.equal(event.data.reason, 'wrong locker');
    const raw = receiver.received.find((r) => r.body.includes(event.event_id))!;
    assert.ok(verifyWebhook({ sender: 'partner_locker', headers: raw.headers, rawBody: raw.body, secret }).valid);
    const list = await app.http.get('/v1/partner-locker/deliveries?status=cancelled', { token });
    assert.ok(list.body.deliveries.some((x: { id: number }) => x.id === d.id));
  });

  test('no free compartment of a size: 422 naming the parcel, nothing reserved', async () => {
    const first = await create({
      parcels: [
        { reference: 'L-A', size: 'L' },
        { reference: 'L-B', size: 'L' },
      ],
    });
    assert.equal(first.status, 201);
    const refused = await create({
      parcels: [
        { reference: 'M-A', size: 'M' },
        { reference: 'L-C', size: 'L' },
      ],
    });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.errors[0].field, 'parcels.1.size');
    const small = await create({ parcels: [{ reference: 'S-A', size: 'S' }] });
    assert.equal(small.body.errors[0].field, 'parcels.0.size');
    await app.http.post(`/v1/partner-locker/deliveries/${first.body.delivery.id}/cancel`, {}, { token });
    assert.equal(
      (await create({ parcels: [{ reference: 'L-C', size: 'L' }] })).status,
      201,
      'free again once cancelled',
    );
  });

  test("another provider's delivery is not found; a provider without the business's grant cannot use its locker", async () => {
    const mine = await create({ open_mode: 'remote_open' });
    assert.equal(mine.status, 201);
    assert.equal(mine.body.delivery_code, undefined, 'remote open has no delivery code');
    const stranger = await makeProvider(app.em(), 'locker_provider');
    const theirs = await app.login(stranger.user.email, PASSWORD);
    assert.equal(
      (await app.http.get(`/v1/partner-locker/deliveries/${mine.body.delivery.id}`, { token: theirs })).status,
      404,
    );
    assert.equal(
      (await app.http.post(`/v1/partner-locker/deliveries/${mine.body.delivery.id}/cancel`, {}, { token: theirs }))
        .status,
      404,
    );
    const refused = await app.http.post(
      '/v1/partner-locker/deliveries',
      {
        device_id: b.device.code,
        parcels: [{ reference: 'P-1', size: 'L' }],
        recipient: { name: 'Ada' },
        open_mode: 'screen_code',
      },
      { token: theirs, lang: 'es' },
    );
    assert.equal(refused.status, 422);
    assert.deepEqual(
      [refused.body.errors[0].field, refused.body.errors[0].message],
      ['device_id', 'Ningún casillero en el que pueda entregar tiene este identificador.'],
    );
    const admin = await app.login(b.users.admin.email, PASSWORD);
    assert.equal((await create({}, admin)).status, 403);
    await app.http.post(`/v1/partner-locker/deliveries/${mine.body.delivery.id}/cancel`, {}, { token });
  });

  test('a device order and a partner delivery racing for one compartment: the database lets one in', async () => {
    await insertCompartments(app.em(), b.device.id, compartmentsOf(['S01'], 'S', 20));
    const admin = await app.login(b.users.admin.email, PASSWORD);
    const [store, delivery] = await Promise.all([
      app.http.post(
        '/v1/device-orders',
        {
          kind: 'delivery',
          device_id: b.device.code,
          grid_code: 'S01',
          reference_number: 'RACE',
          due_at: new Date(Date.now() + 3_600_000).toISOString(),
        },
        { token: admin },
      ),
      create({ parcels: [{ reference: 'RACE', size: 'S' }] }),
    ]);
    assert.deepEqual(
      [store.status, delivery.status].filter((s) => s === 201),
      [201],
      `store ${store.status}, delivery ${delivery.status}`,
    );
    assert.ok([409, 422].includes(store.status === 201 ? delivery.status : store.status));
    const holders = await app
      .em()
      .execute(
        'select device_order_id, locker_parcel_id from compartment_parcel p join compartment c on c.id = p.compartment_id where c.device_id = ? and c.grid_code = ?',
        [b.device.id, 'S01'],
      );
    assert.equal(holders.length, 1);
  });

  test('bad input answers 422 naming fields and writes nothing', async () => {
    const count = async () =>
      (await app.em().execute<{ n: number }[]>('select count(*)::int as n from locker_delivery'))[0]!.n;
    const before_ = await count();
    const dup = await create({
      parcels: [
        { reference: 'X', size: 'M' },
        { reference: 'X', size: 'M' },
      ],
    });
    assert.deepEqual([dup.status, dup.body.errors[0].field], [422, 'parcels.1.reference']);
    const bad = await create({ parcels: [], recipient: { name: '' }, open_mode: 'teleport' });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.errors.map((e: { field: string }) => e.field).sort(), [
      'open_mode',
      'parcels',
      'recipient.name',
    ]);
    assert.equal(await count(), before_);
  });

  test('remote open, then confirm: doors_opened and delivered carry the pickup code and the compartments; the order of steps holds', async () => {
    const res = await create({ parcels: [{ reference: 'OPEN-1', size: 'M' }], open_mode: 'remote_open' });
    const id = res.body.delivery.id;
    const url = (action: string) => `/v1/partner-locker/deliveries/${id}/${action}`;
    assert.equal(
      (await app.http.post(url('confirm'), {}, { token })).status,
      409,
      'nothing to confirm before the doors open',
    );
    const opened = await app.http.post(url('open'), {}, { token });
    assert.equal(opened.body.delivery.status, 'depositing');
    assert.equal((await app.http.post(url('open'), {}, { token })).status, 200, 'a re-open');
    const confirmed = await app.http.post(url('confirm'), {}, { token });
    assert.deepEqual(
      [confirmed.body.delivery.status, confirmed.body.delivery.confirmed_by],
      ['delivered', 'partner_api'],
    );
    assert.ok(confirmed.body.delivery.pickup_expires_at);
    for (const action of ['open', 'confirm', 'cancel'])
      assert.equal((await app.http.post(url(action), {}, { token })).status, 409, action);
    assert.equal(await held(id), 1, 'the parcel holds its compartment until it is collected');

    const events = await waitFor(async () => {
      const e = eventsOf(id);
      return e.length >= 3 && e;
    });
    assert.deepEqual(events.map((e: { event: string }) => e.event).sort(), [
      'partner_locker.delivery.delivered',
      'partner_locker.delivery.doors_opened',
      'partner_locker.delivery.doors_opened',
    ]);
    const [sealed] = await app
      .em()
      .execute<{ pickup_code_sealed: string }[]>('select pickup_code_sealed from locker_delivery where id = ?', [id]);
    const pickupCode = openSecret(purposeOf(PICKUP_CODE), sealed!.pickup_code_sealed);
    const door = {
      grid_id: res.body.delivery.parcels[0].grid_id,
      compartment_number: res.body.delivery.parcels[0].compartment_number,
      pickup_locker_number: res.body.delivery.parcels[0].pickup_locker_number,
      pickup_locker_code: res.body.delivery.parcels[0].pickup_locker_code,
    };
    const open = events.find((e: { event: string }) => e.event.endsWith('doors_opened'));
    assert.deepEqual(
      [open.data.pickup_code, open.data.opening.via, open.data.opening.compartments],
      [pickupCode, 'remote_open', [door]],
    );
    const delivered = events.find((e: { event: string }) => e.event.endsWith('delivered'));
    assert.deepEqual(
      [delivered.data.pickup_code, delivered.data.confirmed_by, delivered.data.compartments],
      [pickupCode, 'partner_api', [door]],
    );
  });

  test('an unused delivery code expires, and so does an uncollected deposit: each frees the compartments and tells the provider', async () => {
    // With LOCKER_TIMER_SCALE 0.0005 an hour lasts 1.8 s.
    await app
      .em()
      .execute(
        'insert into locker_settings (business_id, delivery_code_ttl_hours, pickup_ttl_hours) values (?, 1, 1)',
        [b.business.id],
      );
    try {
      const unused = (await create({ parcels: [{ reference: 'EXP-1', size: 'M' }] })).body.delivery.id;
      const deposited = (await create({ parcels: [{ reference: 'EXP-2', size: 'M' }], open_mode: 'remote_open' })).body
        .delivery.id;
      await app.http.post(`/v1/partner-locker/deliveries/${deposited}/open`, {}, { token });
      await app.http.post(`/v1/partner-locker/deliveries/${deposited}/confirm`, {}, { token });
      for (const [id, what] of [
        [unused, 'delivery_code'],
        [deposited, 'deposit'],
      ] as const) {
        const expired = await waitFor(async () =>
          eventsOf(id).find((e: { event: string }) => e.event === 'partner_locker.delivery.expired'),
        );
        assert.equal(expired.data.expired, what);
        assert.equal(
          (await app.http.get(`/v1/partner-locker/deliveries/${id}`, { token })).body.delivery.status,
          'expired',
        );
        assert.equal(await held(id), 0);
      }
    } finally {
      await app.em().execute('delete from locker_settings where business_id = ?', [b.business.id]);
    }
  });
});
