import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { translate } from '../../../src/platform/i18n/messages.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { keepEvents, makeBusiness, PASSWORD } from '../../helpers/factories.ts';

describe('pickup code attempts are limited', () => {
  let app: TestApp;

  before(async () => {
    app = await startApp();
  });
  after(() => app.running.close());

  async function business() {
    const b = await makeBusiness(app.em());
    await keepEvents(app.em(), b.business.id);
    const admin = await app.login(b.users.admin.email, PASSWORD);
    const customer = await app.login(b.users.customer.email, PASSWORD);
    const store = async (grid: string) => {
      const res = await app.http.post(
        '/v1/device-orders',
        {
          kind: 'delivery',
          device_id: b.device.code,
          grid_code: grid,
          reference_number: `PKG-${grid}`,
          due_at: new Date(Date.now() + 3600_000).toISOString(),
        },
        { token: admin },
      );
      assert.equal(res.status, 201);
      return { id: res.body.device_order.id as number, code: res.body.pickup_code as string };
    };
    return { b, admin, customer, store };
  }
  const collect = (id: number, pickup_code: string, token: string, lang = 'en') =>
    app.http.post(`/v1/device-orders/${id}/collect`, { pickup_code }, { token, lang });
  const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');
  /** The lock ends as if its time had passed. */
  const expireLock = (subject: string) =>
    app.em().execute("update code_attempt set locked_until = now() - interval '1 second' where subject = ?", [subject]);
  const history = async (id: number) =>
    (
      await app
        .em()
        .execute<{ event_type: string }[]>(
          'select event_type from device_order_event where device_order_id = ? order by id',
          [id],
        )
    ).map((r) => r.event_type);

  test("five wrong codes lock the order: 429 with Retry-After in the caller's language, even for the right code; history and one exception", async () => {
    const { customer, store } = await business();
    const { id, code } = await store('A01');
    for (let i = 0; i < 4; i++) assert.equal((await collect(id, wrongFor(code), customer)).status, 422);
    const fifth = await collect(id, wrongFor(code), customer, 'fr');
    assert.equal(fifth.status, 429);
    assert.equal(fifth.body.code, 'TOO_MANY_ATTEMPTS');
    const seconds = Number(fifth.headers.get('retry-after'));
    assert.ok(seconds > 0 && seconds <= 900, `Retry-After ${seconds}`);
    assert.equal(fifth.body.retry_after, seconds);
    assert.equal(fifth.body.message, translate('error.too_many_attempts', 'fr', { seconds }));

    const right = await collect(id, code, customer);
    assert.equal(right.status, 429, 'the right code is refused during the lock');
    const viaGraphql = await app.http.graphql(
      `mutation { deviceOrderCollect(id: ${id}, pickup_code: "${code}") { result } }`,
      undefined,
      { token: customer },
    );
    assert.equal(viaGraphql.body.errors[0].extensions.code, 'TOO_MANY_ATTEMPTS');
    assert.equal(viaGraphql.body.errors[0].extensions.status, 429);

    assert.deepEqual(await history(id), ['device_order.stored', 'device_order.exception_opened']);
    const exceptions = await app
      .em()
      .execute(
        'select type, severity, status, resolution_action from device_order_exception where device_order_id = ?',
        [id],
      );
    assert.deepEqual(exceptions, [
      { type: 'pickup_code_locked', severity: 'high', status: 'open', resolution_action: null },
    ]);
    const [event] = await app
      .em()
      .execute<{ payload: any }[]>(
        "select payload from outbox_event where event_type = 'device_order.exception_opened' and reference_id = ?",
        [String(id)],
      );
    assert.deepEqual(
      { ...event!.payload.data.exception, id: 0 },
      { id: 0, type: 'pickup_code_locked', severity: 'high', status: 'open', resolution_action: null },
    );
    assert.equal(event!.payload.data.device_order.id, id);
    assert.ok(!JSON.stringify(event!.payload).includes(code), 'the pickup code is never in the event');

    // A second run after the lock ends locks twice as long; the exception is still open, so only the history grows.
    await expireLock(`device_order:${id}`);
    for (let i = 0; i < 4; i++) assert.equal((await collect(id, wrongFor(code), customer)).status, 422);
    const again = await collect(id, wrongFor(code), customer);
    assert.equal(again.status, 429);
    assert.ok(Number(again.headers.get('retry-after')) > 900, `doubled: ${again.headers.get('retry-after')}`);
    assert.deepEqual(await history(id), ['device_order.stored', 'device_order.exception_opened', 'pickup_code.locked']);
    assert.equal(
      (await app.em().execute('select 1 from device_order_exception where device_order_id = ?', [id])).length,
      1,
    );

    await expireLock(`device_order:${id}`);
    const collected = await collect(id, code, customer);
    assert.equal(collected.status, 200);
    assert.equal(collected.body.device_order.status, 'collected');
  });

  test('twenty wrong codes sent at once: four are judged wrong, the fifth locks, the rest find the lock', async () => {
    const { customer, store } = await business();
    const { id, code } = await store('A01');
    const answers = await Promise.all(Array.from({ length: 20 }, () => collect(id, wrongFor(code), customer)));
    const count = (status: number) => answers.filter((a) => a.status === status).length;
    assert.deepEqual([count(422), count(429)], [4, 16]);
    assert.deepEqual(
      await history(id),
      ['device_order.stored', 'device_order.exception_opened'],
      'one lock, not several',
    );
  });

  test('a caller who spreads wrong codes over many orders is locked for all of them after twenty', async () => {
    const { admin, customer, store } = await business();
    const orders = [];
    for (const grid of ['A01', 'A02', 'A03', 'A04']) orders.push(await store(grid));
    for (const { id, code } of orders) {
      for (let i = 0; i < 4; i++) assert.equal((await collect(id, wrongFor(code), customer)).status, 422);
      assert.equal((await collect(id, wrongFor(code), customer)).status, 429);
    }
    // A fresh order nobody has guessed at: still refused to this caller, for an hour.
    assert.equal(
      (
        await app.http.post(
          `/v1/device-orders/${orders[0]!.id}/remove`,
          { removal_reason: 'anomaly' },
          { token: admin },
        )
      ).status,
      200,
    );
    const fresh = await store('A01');
    const refused = await collect(fresh.id, fresh.code, customer);
    assert.equal(refused.status, 429);
    assert.ok(
      Number(refused.headers.get('retry-after')) > 900,
      `the caller's lock: ${refused.headers.get('retry-after')}`,
    );
    // Another caller with the right code is not held back by this one's guesses.
    assert.equal((await collect(fresh.id, fresh.code, admin)).status, 200);
  });

  test('the stored code is a keyed hash, not a salted digest of six digits', async () => {
    const { store } = await business();
    const { id } = await store('A01');
    const [row] = await app
      .em()
      .execute<{ pickup_code_hash: string }[]>('select pickup_code_hash from device_order where id = ?', [id]);
    assert.match(row!.pickup_code_hash, /^hmac\$[\w-]+\$[\w-]{43}$/);
  });
});
