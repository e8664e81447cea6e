import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { verifyWebhook } from '../../../src/modules/webhooks/verify.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeOrder, makeProvider, PASSWORD } from '../../helpers/factories.ts';
import { startReceiver } from '../../helpers/receiver.ts';
import { waitFor } from '../../helpers/wait.ts';
import { JOURNEY } from '../../fixtures/otepJourney.ts';

const SECRET = 'otep-hook-secret-0123456789';

/** The fixture's carrier events, re-addressed to one of our shipments, as a carrier would push them. */
const carrierEvents = (tn: string) =>
  JOURNEY.events
    .filter((e) => e.source === 'carrier')
    .map(({ recorded_at: _r, source: _s, ...e }) => ({ ...e, subject: tn }));

/** An order created before the fixture journey starts (2026-11-17T09:00Z), as the journey needs. */
async function backdate(app: TestApp, orderId: number) {
  await app
    .em()
    .execute("update order_status_change set occurred_at = '2026-11-17T08:00:00Z' where order_id = ?", [orderId]);
}

describe('OTEP ingest with provider keys', () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let carrier: Awaited<ReturnType<typeof makeProvider>>;
  let carrierToken: string;
  let key: string;

  before(async () => {
    app = await startApp({ WEBHOOK_RETRY_SCALE: '0.001' });
    b = await makeBusiness(app.em());
    carrier = await makeProvider(app.em(), 'delivery_provider');
    carrierToken = await app.login(carrier.user.email, PASSWORD);
    const created = await app.http.post('/v1/otep/credentials', { name: 'hub scanner' }, { token: carrierToken });
    assert.equal(created.status, 201);
    key = created.body.credential.secret;
  });
  after(() => app.running.close());

  test('keys: the secret is shown once, stored hashed, listed without it, revocable; a key opens ingest and nothing else', async () => {
    const second = await app.http.post('/v1/otep/credentials', { name: 'spare' }, { token: carrierToken });
    const { key_id, secret } = second.body.credential;
    assert.match(secret, /^otep_sk_/);
    const list = await app.http.get('/v1/otep/credentials', { token: carrierToken });
    assert.ok(list.body.credentials.some((c: { key_id: string }) => c.key_id === key_id));
    assert.ok(!JSON.stringify(list.body).includes(secret), 'never listed');
    const [stored] = await app
      .em()
      .execute<{ secret_hash: string }[]>('select secret_hash from otep_credential where key_id = ?', [key_id]);
    assert.notEqual(stored!.secret_hash, secret);
    assert.equal(stored!.secret_hash.length, 64);

    assert.equal((await app.http.post('/v1/otep/ingest', { events: [] }, { token: secret })).status, 200);
    assert.equal((await app.http.get('/v1/user/me', { token: secret })).status, 403, 'an ingest key is not a session');
    assert.equal(
      (await app.http.post('/v1/otep/ingest', { events: [] }, { token: carrierToken })).status,
      403,
      'a session is not an ingest key',
    );
    const admin = await app.login(b.users.admin.email, PASSWORD);
    assert.equal(
      (await app.http.post('/v1/otep/credentials', {}, { token: admin })).status,
      403,
      'only provider accounts get keys',
    );

    assert.equal((await app.http.del(`/v1/otep/credentials/${key_id}`, { token: carrierToken })).status, 200);
    assert.equal(
      (await app.http.post('/v1/otep/ingest', { events: [] }, { token: secret })).status,
      401,
      'revoked at once',
    );
    const other = await makeProvider(app.em(), 'delivery_provider');
    const otherToken = await app.login(other.user.email, PASSWORD);
    assert.equal(
      (await app.http.del(`/v1/otep/credentials/${key_id}`, { token: otherToken })).status,
      404,
      'another provider cannot see it',
    );
    assert.equal(
      (await app.http.del('/v1/otep/credentials/%20', { token: carrierToken })).status,
      404,
      'a key id of blanks names no key',
    );

    const used = (await app.http.get('/v1/otep/credentials', { token: carrierToken })).body.credentials.find(
      (c: { key_id: string }) => c.key_id === key_id,
    );
    assert.ok(used.last_used_at && used.revoked_at, 'the list says when a key was last used and revoked');
    // At most 10 unrevoked keys: `other` has none, so ten succeed and the eleventh is refused.
    for (let i = 0; i < 10; i++)
      assert.equal((await app.http.post('/v1/otep/credentials', {}, { token: otherToken })).status, 201);
    const eleventh = await app.http.post('/v1/otep/credentials', {}, { token: otherToken });
    assert.deepEqual([eleventh.status, eleventh.body.code], [409, 'TOO_MANY_KEYS']);
  });

  test('a journey pushed out of order builds an ordered timeline; re-sent it is all duplicates; a changed event is a correction', async () => {
    const order = await makeOrder(app.em(), b.business.id, {
      carrierProviderId: carrier.business.id,
      selfDelivery: false,
    });
    await backdate(app, order.id);
    const events = carrierEvents(order.trackingNumber);
    const first = await app.http.post(
      '/v1/otep/ingest',
      { tracking_number: order.trackingNumber, events: events.toReversed() },
      { token: key },
    );
    assert.equal(first.status, 200);
    assert.deepEqual([first.body.accepted, first.body.duplicates, first.body.rejected], [6, 0, 0]);

    const timeline = await app.http.get(`/v1/otep/trackings/${order.trackingNumber}`);
    assert.equal(timeline.status, 200);
    const codes = timeline.body.events.map((e: { status_code: string }) => e.status_code);
    assert.deepEqual(codes, [
      'otep:core:created',
      'otep:core:picked_up',
      'otep:parcel:at_warehouse',
      'otep:core:out_for_delivery',
      'otep:core:delivery_failed',
      'otep:core:out_for_delivery',
      'otep:core:delivered',
    ]);
    assert.deepEqual(
      timeline.body.events.slice(1).map((e: { occurred_at: string }) => e.occurred_at),
      events.map((e) => e.occurred_at),
      'times as the carrier wrote them',
    );
    assert.equal(timeline.body.current.status_code, 'otep:core:delivered');
    assert.equal(timeline.body.current.terminal, true);

    const again = await app.http.post('/v1/otep/ingest', { events }, { token: key });
    assert.deepEqual([again.body.accepted, again.body.duplicates], [0, 6]);
    const readBack = await app.http.post('/v1/otep/ingest', timeline.body, { token: key });
    assert.deepEqual(
      [readBack.body.accepted, readBack.body.duplicates, readBack.body.rejected],
      [0, timeline.body.events.length, 0],
      'the document a GET returns can be pushed back as is',
    );

    const corrected = await app.http.post(
      '/v1/otep/ingest',
      { events: [{ ...events[4]!, description: 'Parcel left with neighbour, flat 3' }] },
      { token: key },
    );
    assert.equal(corrected.body.events[0].status, 'accepted');
    assert.equal(corrected.body.events[0].revision, 2);
    const [count] = await app
      .em()
      .execute<{ n: string }[]>('select count(*) as n from tracking_event where order_id = ?', [order.id]);
    assert.equal(Number(count!.n), 6, 'a correction replaces, it does not add');
  });

  test('late events: after the end they are kept and flagged; the order status follows only the newest event', async () => {
    const order = await makeOrder(app.em(), b.business.id, {
      carrierProviderId: carrier.business.id,
      selfDelivery: false,
    });
    const tn = order.trackingNumber;
    await backdate(app, order.id);
    const push = (events: unknown[]) => app.http.post('/v1/otep/ingest', { events }, { token: key });
    await push([
      { subject: tn, occurred_at: '2026-11-20T10:00:00Z', status_code: 'otep:core:delivered', otep_version: '1.0.0' },
    ]);
    await push([
      {
        subject: tn,
        occurred_at: '2026-11-19T10:00:00Z',
        status_code: 'otep:parcel:at_warehouse',
        otep_version: '1.0.0',
      },
    ]);
    const [row] = await app
      .em()
      .execute<{ status_id: number }[]>('select status_id from delivery_order where id = ?', [order.id]);
    assert.equal(row!.status_id, 3, 'an older event arriving late does not move the status back');
    await push([
      { subject: tn, occurred_at: '2026-11-21T10:00:00Z', status_code: 'otep:core:in_transit', otep_version: '1.0.0' },
    ]);
    const t = (await app.http.get(`/v1/otep/trackings/${tn}`)).body;
    const late = t.events.find((e: { status_code: string }) => e.status_code === 'otep:core:in_transit');
    assert.equal(late.after_terminal, true);
    assert.equal(t.current.status_code, 'otep:core:delivered');
  });

  test('an order of two packages: each has its own timeline, and the order is delivered only once both are', async () => {
    const order = await makeOrder(app.em(), b.business.id, {
      carrierProviderId: carrier.business.id,
      selfDelivery: false,
    });
    await backdate(app, order.id);
    const first = order.trackingNumber;
    const second = `${first}-2`;
    await app
      .em()
      .execute('insert into order_package (order_id, business_id, position, package_number) values (?, ?, 2, ?)', [
        order.id,
        b.business.id,
        second,
      ]);
    const push = (events: unknown[]) => app.http.post('/v1/otep/ingest', { events }, { token: key });
    const event = (subject: string, at: string, code: string) => ({
      id: 'e1',
      subject,
      occurred_at: at,
      status_code: code,
      otep_version: '1.0.0',
    });
    const status = async () =>
      (
        await app.em().execute<{ status_id: number }[]>('select status_id from delivery_order where id = ?', [order.id])
      )[0]!.status_id;

    // The same event id on each package is two events.
    const res = await push([
      event(first, '2026-11-20T10:00:00Z', 'otep:core:delivered'),
      event(second, '2026-11-20T09:00:00Z', 'otep:core:out_for_delivery'),
    ]);
    assert.deepEqual([res.body.accepted, res.body.duplicates], [2, 0]);
    assert.notEqual(await status(), 3, 'one package delivered, the other still out: the order is not delivered');
    const one = (await app.http.get(`/v1/otep/trackings/${first}`)).body;
    const two = (await app.http.get(`/v1/otep/trackings/${second}`)).body;
    assert.equal(one.current.status_code, 'otep:core:delivered');
    assert.equal(two.current.status_code, 'otep:core:out_for_delivery');
    assert.ok(
      !two.events.some((e: { status_code: string }) => e.status_code === 'otep:core:delivered'),
      "a package's timeline holds its own carrier events",
    );
    const classic = (await app.http.get(`/v1/tracking/${second}`)).body;
    assert.deepEqual(
      classic.packages.map((p: { tracking_number: string; delivered: boolean }) => [p.tracking_number, p.delivered]),
      [
        [first, true],
        [second, false],
      ],
    );

    await push([{ ...event(second, '2026-11-20T11:00:00Z', 'otep:core:delivered'), id: 'e2' }]);
    assert.equal(await status(), 3, 'both delivered: so is the order');
    assert.equal(
      (await app.http.get(`/v1/tracking/${first}`)).body.packages.every((p: { delivered: boolean }) => p.delivered),
      true,
    );
  });

  test('each rejection reason, per event, and nothing half-written', async () => {
    const mine = await makeOrder(app.em(), b.business.id, {
      carrierProviderId: carrier.business.id,
      selfDelivery: false,
    });
    const notMine = await makeOrder(app.em(), b.business.id);
    const res = await app.http.post(
      '/v1/otep/ingest',
      {
        events: [
          {
            subject: mine.trackingNumber,
            occurred_at: '2026-11-20T10:00:00+02:00',
            status_code: 'otep:core:picked_up',
            otep_version: '1.0.0',
          },
          {
            subject: 'TMSNOSUCH00000',
            occurred_at: '2026-11-20T10:00:00Z',
            status_code: 'otep:core:picked_up',
            otep_version: '1.0.0',
          },
          {
            subject: notMine.trackingNumber,
            occurred_at: '2026-11-20T10:00:00Z',
            status_code: 'otep:core:picked_up',
            otep_version: '1.0.0',
          },
          {
            subject: mine.trackingNumber,
            occurred_at: '2026-11-20T10:00:00',
            status_code: 'otep:core:in_transit',
            otep_version: '1.0.0',
          },
          {
            subject: mine.trackingNumber,
            occurred_at: '1970-01-01T00:00:00Z',
            status_code: 'otep:core:teleported',
            location: { lat: 95, lng: 2 },
          },
        ],
      },
      { token: key, lang: 'de' },
    );
    assert.equal(res.status, 200);
    const [ok, unknown, foreign, noZone, absurd] = res.body.events;
    assert.equal(ok.status, 'accepted');
    assert.deepEqual([unknown.status, unknown.reason], ['rejected', 'unknown_shipment']);
    assert.deepEqual([foreign.status, foreign.reason], ['rejected', 'not_your_shipment']);
    assert.deepEqual(
      [noZone.reason, noZone.findings[0].pointer, noZone.findings[0].code],
      ['invalid', '/events/3/occurred_at', 'time_zone_missing'],
    );
    assert.match(noZone.findings[0].message, /Zeitzone/, "in the caller's language");
    assert.deepEqual(
      absurd.findings
        .filter((f: { severity: string }) => f.severity === 'error')
        .map((f: { pointer: string }) => f.pointer)
        .sort(),
      ['/events/4/location/lat', '/events/4/occurred_at', '/events/4/status_code'],
    );
    const rows = await app
      .em()
      .execute('select status_code from tracking_event where order_id in (?)', [[mine.id, notMine.id]]);
    assert.deepEqual(
      rows,
      [{ status_code: 'otep:core:picked_up' }],
      'only the valid event of our shipment was written',
    );

    assert.equal((await app.http.post('/v1/otep/ingest', { events: 'nope' }, { token: key })).status, 422);
    assert.equal(
      (
        await app.http.post('/v1/otep/ingest', undefined, {
          token: key,
          raw: '{"events": [',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
      400,
    );
    assert.equal(
      (
        await app.http.post('/v1/otep/ingest', undefined, {
          token: key,
          raw: 'events',
          headers: { 'content-type': 'text/plain' },
        })
      ).status,
      415,
    );
    const many = Array.from({ length: 1001 }, () => ({}));
    assert.equal((await app.http.post('/v1/otep/ingest', { events: many }, { token: key })).status, 422);
    assert.equal(
      (
        await app.http.post('/v1/otep/ingest', undefined, {
          token: key,
          raw: JSON.stringify({ events: [], pad: 'x'.repeat(1_100_000) }),
        })
      ).status,
      413,
    );
  });

  test('accepted events reach the merchant as tracking.event and order.status_change, signed; nothing private is public', async () => {
    const receiver = await startReceiver(() => 200);
    try {
      const admin = await app.login(b.users.admin.email, PASSWORD);
      await app.http.put(
        '/v1/webhook-settings',
        {
          webhook_sign_secret: SECRET,
          tracking_event_webhook_url: `${receiver.url}/t`,
          order_status_change_webhook_url: `${receiver.url}/s`,
        },
        { token: admin },
      );
      const order = await makeOrder(app.em(), b.business.id, {
        carrierProviderId: carrier.business.id,
        selfDelivery: false,
      });
      const res = await app.http.post(
        '/v1/otep/ingest',
        {
          events: [
            {
              id: 'hub-42',
              subject: order.trackingNumber,
              occurred_at: '2026-11-21T06:00:00+01:00',
              status_code: 'otep:parcel:at_warehouse',
              location: { name: 'Paris Nord hub', city: 'Gonesse', country: 'FR' },
              otep_version: '1.0.0',
            },
          ],
        },
        { token: key },
      );
      assert.equal(res.body.accepted, 1);
      const got = await waitFor(async () => {
        const tracking = receiver.received.find(
          (r) => r.body.includes('tracking.event') && r.body.includes(order.trackingNumber),
        );
        const status = receiver.received.find(
          (r) => r.body.includes('order.status_change') && r.body.includes(order.trackingNumber),
        );
        return tracking && status && { tracking, status };
      });
      for (const r of [got.tracking, got.status])
        assert.deepEqual(verifyWebhook({ sender: 'tenant', headers: r.headers, rawBody: r.body, secret: SECRET }), {
          valid: true,
        });
      const tracking = JSON.parse(got.tracking.body);
      assert.match(tracking.event_id, /^TRE-\d+\.1$/);
      assert.equal(tracking.data.tracking_event.key, 'otep:parcel:at_warehouse');
      assert.equal(tracking.data.tracking_event.status_id, 33);
      const status = JSON.parse(got.status.body);
      assert.deepEqual(
        [status.data.before_status, status.data.after_status, status.data.operation_type],
        [1, 33, 6008],
      );

      const t = await app.http.get(`/v1/otep/trackings/${order.trackingNumber}`);
      assert.equal(
        t.body.events.length,
        2,
        'the creation and the carrier event; the status change it caused is not shown twice',
      );
      for (const path of [`/v1/otep/trackings/${order.trackingNumber}`, `/v1/tracking/${order.trackingNumber}`]) {
        const text = JSON.stringify((await app.http.get(path)).body);
        assert.ok(!text.includes('Ada Recipient') && !text.includes(order.orderRef!), `${path} shows nothing private`);
      }
    } finally {
      await receiver.close();
    }
  });
});
