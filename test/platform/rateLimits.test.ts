import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/platform/config.ts';
import { addressSubject } from '../../src/platform/rateLimits.ts';
import { LIMIT_ROWS_PRUNE_SCHEDULE } from '../../src/modules/abuse-limits/contract.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { waitFor } from '../helpers/wait.ts';
import { makeBusiness, makeProvider, PASSWORD } from '../helpers/factories.ts';

/** A documentation address (RFC 5737) no other test uses, so each test starts with empty windows. */
const freshAddress = () => `198.51.${randomInt(0, 256)}.${randomInt(1, 255)}`;
const from = (address: string, lang?: string) => ({ headers: { 'x-forwarded-for': address }, lang });

/** Signs in from an address of its own: the sign-in limit of these apps is 2 a minute per address. */
async function signIn(app: TestApp, email: string): Promise<string> {
  const res = await app.http.post('/v1/user/login', { email, password: PASSWORD }, from(freshAddress()));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.access_token;
}

const LIMITS = {
  RATE_LIMIT_PUBLIC_READ: '3/60',
  RATE_LIMIT_SIGN_IN: '2/60',
  RATE_LIMIT_INGEST: '2/60',
  RATE_LIMIT_WEBHOOK_TEST: '1/60',
  RATE_LIMIT_QUOTE: '2/60',
};

describe('rate limits', () => {
  let app: TestApp;
  let second: TestApp;

  before(async () => {
    // Behind one proxy: the test plays the proxy, writing the client address into X-Forwarded-For.
    app = await startApp({ ...LIMITS, TRUSTED_PROXY_HOPS: '1' });
    second = await startApp({ ...LIMITS, TRUSTED_PROXY_HOPS: '1' }, { worker: false });
  });
  after(async () => {
    await second.running.close();
    await app.running.close();
  });

  test("a public read answers the RateLimit headers, then 429 with Retry-After in the caller's language; another address is not held back", async () => {
    const address = freshAddress();
    const refusals = async () => {
      const text = await (await fetch(app.running.metrics!.url)).text();
      return Number(/^tms_rate_limit_refusals_total\{policy="public_read"\} (\S+)$/m.exec(text)?.[1] ?? 0);
    };
    const refusedBefore = await refusals();
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await app.http.get('/v1/otep/vocabulary', from(address));
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('ratelimit-policy'), '"public_read";q=3;w=60');
      remaining.push(res.headers.get('ratelimit')!.split(';')[1]!);
    }
    assert.deepEqual(remaining, ['r=2', 'r=1', 'r=0']);

    const refused = await app.http.get('/v1/otep/trackings/NOPE-1', from(address, 'de'));
    assert.equal(refused.status, 429);
    assert.equal(refused.body.code, 'RATE_LIMITED');
    assert.match(refused.body.message, /Zu viele Anfragen/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.equal(refused.body.retry_after, retryAfter);
    assert.equal(refused.headers.get('ratelimit'), `"public_read";r=0;t=${retryAfter}`);
    assert.equal((await refusals()) - refusedBefore, 1, 'the refusal is counted in /metrics under its limit');

    assert.equal((await app.http.get('/v1/otep/vocabulary', from(freshAddress()))).status, 200);
  });

  test('bad input counts too: a flood of unreadable requests is held back before it is read', async () => {
    const address = freshAddress();
    for (let i = 0; i < 3; i++)
      assert.equal(
        (await app.http.post('/v1/otep/validate', undefined, { ...from(address), raw: '{"a":"\\u0000"}' })).status,
        422,
      );
    assert.equal(
      (await app.http.post('/v1/otep/validate', undefined, { ...from(address), raw: '{"a":"\\u0000"}' })).status,
      429,
    );
  });

  test('the count is shared by API processes: what one spent, the other refuses', async () => {
    const address = freshAddress();
    assert.equal((await app.http.get('/v1/tracking/NOPE-2', from(address))).status, 404);
    assert.equal((await second.http.get('/v1/tracking/NOPE-2', from(address))).status, 404);
    assert.equal((await app.http.get('/v1/tracking/NOPE-2', from(address))).status, 404);
    const refused = await second.http.get('/v1/tracking/NOPE-2', from(address));
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('ratelimit')!.split(';')[1], 'r=0');
  });

  test('one IPv6 /64 is one client; an IPv4 address written IPv4-mapped is the same address', async () => {
    const net = `2001:db8:${randomInt(1, 0xffff).toString(16)}:${randomInt(1, 0xffff).toString(16)}`;
    assert.equal(new Set([`${net}::1`, `${net}:1:2:3:4`, `${net}:ffff::ffff`].map(addressSubject)).size, 1);
    assert.notEqual(addressSubject('2001:db8:1:2::1'), addressSubject('2001:db8:1:3::1'));
    assert.equal(addressSubject('::ffff:192.0.2.1'), '192.0.2.1');
    assert.equal(addressSubject('2001:db8::1'), '2001:db8:0:0::/64');
    for (let i = 1; i <= 3; i++)
      assert.equal((await app.http.get('/v1/otep/vocabulary', from(`${net}::${i}`))).status, 200);
    assert.equal(
      (await app.http.get('/v1/otep/vocabulary', from(`${net}::4`))).status,
      429,
      'a new address of the same /64',
    );
  });

  test('sign-in is limited per address, also through GraphQL, where each sign-in of a mutation counts', async () => {
    const b = await makeBusiness(app.em());
    const address = freshAddress();
    const signIns = (n: number) =>
      Array.from(
        { length: n },
        (_, i) => `s${i}: userLogin(email: "${b.users.employee.email}", password: "${PASSWORD}") { token_type }`,
      ).join(' ');
    const res = await app.http.graphql(`mutation { ${signIns(3)} }`, {}, from(address, 'fr'));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    // The first two signed in; the third was refused (and, its field being non-null, took the data with it).
    assert.deepEqual(
      res.body.errors.map((e: { path: string[] }) => e.path[0]),
      ['s2'],
    );
    const [refused] = res.body.errors;
    assert.equal(refused.extensions.code, 'RATE_LIMITED');
    assert.equal(refused.extensions.status, 429);
    assert.match(refused.message, /Trop de requêtes/);
    assert.equal(
      (await app.http.post('/v1/user/login', { email: b.users.employee.email, password: PASSWORD }, from(address)))
        .status,
      429,
    );
  });

  test('ingest is limited per key: another key of the same provider has its own count, and the address does not matter', async () => {
    const carrier = await makeProvider(app.em(), 'delivery_provider');
    const token = await signIn(app, carrier.user.email);
    const keyOf = async (name: string) =>
      (await app.http.post('/v1/otep/credentials', { name }, { token })).body.credential.secret as string;
    const [first, other] = [await keyOf('first'), await keyOf('other')];
    for (let i = 0; i < 2; i++) {
      const res = await app.http.post('/v1/otep/ingest', { events: [] }, { token: first, ...from(freshAddress()) });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('ratelimit-policy'), '"ingest";q=2;w=60');
    }
    const refused = await second.http.post(
      '/v1/otep/ingest',
      { events: [] },
      { token: first, ...from(freshAddress()) },
    );
    assert.equal(refused.status, 429);
    assert.equal(refused.body.code, 'RATE_LIMITED');
    assert.equal((await app.http.post('/v1/otep/ingest', { events: [] }, { token: other })).status, 200);
  });

  test('webhook test sends are limited per account; a caller who may not send them is refused before counting', async () => {
    const b = await makeBusiness(app.em());
    const admin = await signIn(app, b.users.admin.email);
    const employee = await signIn(app, b.users.employee.email);
    assert.equal((await app.http.post('/v1/webhook-settings/test', {}, { token: employee })).status, 403);
    // No signing secret yet: the first send is judged (409) and counts; the second is refused before it is judged.
    assert.equal((await app.http.post('/v1/webhook-settings/test', {}, { token: admin })).status, 409);
    const refused = await app.http.post('/v1/webhook-settings/test', {}, { token: admin });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('ratelimit-policy'), '"webhook_test";q=1;w=60');
  });

  test('delivery quotes, which may ask the road router, are limited per account', async () => {
    const b = await makeBusiness(app.em());
    const [employee, customer] = [await signIn(app, b.users.employee.email), await signIn(app, b.users.customer.email)];
    const quote = (token: string) =>
      app.http.post(
        '/v1/orders/rate',
        { type: 'D', address: { line1: '1 Main St', city: 'Brno', postal_code: '60200', country: 'CZ' } },
        { token },
      );
    // No price model yet: each quote is judged (409) and counts.
    for (let i = 0; i < 2; i++) {
      const res = await quote(employee);
      assert.equal(res.status, 409, JSON.stringify(res.body));
    }
    const refused = await quote(employee);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.code, 'RATE_LIMITED');
    assert.equal(refused.headers.get('ratelimit-policy'), '"quote";q=2;w=60');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.equal((await quote(customer)).status, 409, 'another account of the business has its own count');
  });

  test('the hourly schedule forgets windows and wrong-code counts untouched for a day, and keeps the rest', async () => {
    const em = app.em();
    const [stale, fresh] = [`ip:${freshAddress()}`, `ip:${freshAddress()}`];
    await em.execute(
      `insert into rate_limit_window (policy, subject, window_started_at, hits) values
      ('public_read', ?, now() - interval '25 hours', 7), ('public_read', ?, now() - interval '23 hours', 7)`,
      [stale, fresh],
    );
    await em.execute(
      `insert into code_attempt (kind, subject, failures, window_started_at, locked_until) values
      ('sign_in', ?, 3, now() - interval '3 days', now() - interval '2 days'), ('sign_in', ?, 3, now() - interval '3 days', now() + interval '1 hour')`,
      [stale, fresh],
    );
    const rows = async () =>
      (
        await em.execute<{ subject: string }[]>(
          'select subject from rate_limit_window where subject in (?, ?) union all select subject from code_attempt where subject in (?, ?) order by 1',
          [stale, fresh, stale, fresh],
        )
      ).map((r) => r.subject);

    const schedule = app.running.temporal.schedule.getHandle(LIMIT_ROWS_PRUNE_SCHEDULE);
    const { calendars } = (await schedule.describe()).spec;
    assert.deepEqual(
      [calendars?.[0]?.hour, calendars?.[0]?.minute],
      [[{ start: 0, end: 23, step: 1 }], [{ start: 17, end: 17, step: 1 }]],
      'every hour',
    );
    await schedule.trigger();
    await waitFor(async () => (await rows()).length === 2, 30_000);
    assert.deepEqual(await rows(), [fresh, fresh], 'a young window and a lock still in force stay');
  });

  test("the OpenAPI document lists each limited operation's 429 and its headers", async () => {
    const doc = (await app.http.get('/openapi.json')).body;
    for (const [path, method] of [
      ['/v1/otep/trackings/{tracking_number}', 'get'],
      ['/v1/user/login', 'post'],
      ['/v1/otep/ingest', 'post'],
      ['/v1/webhook-settings/test', 'post'],
    ] as const) {
      const responses = doc.paths[path][method].responses;
      assert.ok(responses['429'], `${method} ${path}`);
      assert.deepEqual(Object.keys(responses['429'].headers).sort(), ['RateLimit', 'RateLimit-Policy', 'Retry-After']);
      const success = Object.keys(responses).find((s) => s.startsWith('2'))!;
      assert.deepEqual(Object.keys(responses[success].headers).sort(), ['RateLimit', 'RateLimit-Policy']);
    }
    assert.match(doc.paths['/v1/user/login'].post.responses['429'].description, /TOO_MANY_ATTEMPTS.*RATE_LIMITED/);
    assert.equal(doc.paths['/v1/orders'].get.responses['429'], undefined, 'an operation without a limit');
  });
});

describe('rate limit settings', () => {
  test('X-Forwarded-For is ignored unless proxies are declared: a client cannot take a new address per request', async () => {
    const app = await startApp({ RATE_LIMIT_PUBLIC_READ: '2/60' }, { worker: false });
    try {
      // The connection's address is the test's own, shared with other files: spend what is left of its window.
      let status = 200;
      for (let i = 0; i < 5 && status === 200; i++)
        status = (await app.http.get('/v1/otep/vocabulary', from(freshAddress()))).status;
      assert.equal(status, 429);
      assert.equal((await app.http.get('/v1/otep/vocabulary', from(freshAddress()))).status, 429);
    } finally {
      await app.running.close();
    }
  });

  test('`off` turns a limit off; a value that is not requests/seconds stops the boot with its name', async () => {
    const app = await startApp({ RATE_LIMIT_PUBLIC_READ: 'off' }, { worker: false });
    try {
      const res = await app.http.get('/v1/otep/vocabulary');
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('ratelimit'), null);
    } finally {
      await app.running.close();
    }
    assert.throws(
      () => loadConfig({ RATE_LIMIT_SIGN_IN: '30 per minute' }),
      /RATE_LIMIT_SIGN_IN: must be requests\/seconds/,
    );
    assert.throws(() => loadConfig({ TRUSTED_PROXY_HOPS: '-1' }), /TRUSTED_PROXY_HOPS/);
  });
});
