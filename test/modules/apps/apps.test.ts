import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { DEMO_APPS, type AppConfig } from '../../../src/modules/apps/index.ts';
import { cacheCaughtUp, startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makePlatformAdmin, PASSWORD } from '../../helpers/factories.ts';
import { waitFor } from '../../helpers/wait.ts';

/** The demo customer app's configuration under a fresh code, so that tests never share rows. */
const { code: _demo, ...DEMO_CONFIG } = DEMO_APPS[0]!;
const config = (patch: Partial<AppConfig> = {}): AppConfig => ({ ...structuredClone(DEMO_CONFIG), ...patch });

describe('standalone apps (A2): configuration and bootstrap', () => {
  let app: TestApp;
  let admin: string;
  let clientAdmin: string;
  let a: Awaited<ReturnType<typeof makeBusiness>>;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  const code = () => `t-${randomUUID().slice(0, 8)}`;
  const boot = (appCode: string, client: string, query = '', lang?: string) =>
    app.http.get(`/v1/apps/${appCode}/clients/${encodeURIComponent(client)}/bootstrap${query}`, { lang });
  const configure = (appCode: string, body: unknown = config(), token = admin) =>
    app.http.put(`/v1/platform/apps/${appCode}`, body, { token });
  const bind = (appCode: string, client: string, body: unknown = {}) =>
    app.http.put(`/v1/platform/apps/${appCode}/clients/${encodeURIComponent(client)}`, body, { token: admin });
  /** A configured app bound to business a. */
  const boundApp = async (c: AppConfig = config()) => {
    const appCode = code();
    assert.equal((await configure(appCode, c)).status, 200);
    assert.equal((await bind(appCode, a.business.code)).status, 200);
    return appCode;
  };

  before(async () => {
    // With an SMS provider, so that the bootstrap's sms_configured is the configuration's (docs/apps.md, Registration).
    app = await startApp({ SMS_PROVIDER: 'sandbox' }, { worker: false });
    const em = app.em();
    a = await makeBusiness(em);
    b = await makeBusiness(em);
    const email = await makePlatformAdmin(em);
    admin = await app.login(email, PASSWORD);
    clientAdmin = await app.login(a.users.admin.email, PASSWORD);
  });
  after(() => app.running.close());

  test("the bootstrap answers the specification's resource, with the shortcuts whose capability is on, in order", async () => {
    const appCode = await boundApp();
    const res = await boot(appCode, a.business.code);
    assert.equal(res.status, 200);
    assert.equal(res.body.result, true);
    const d = res.body.data;
    assert.deepEqual(d.app, { code: appCode, name: 'Demo Customer', type: 'customer', schema_version: 1 });
    assert.deepEqual(d.client, { code: a.business.code, display_name: a.business.name });
    assert.equal(d.configuration_version, 2);
    assert.deepEqual(d.capabilities, DEMO_CONFIG.capabilities);
    assert.deepEqual(d.authentication, DEMO_CONFIG.authentication);
    assert.deepEqual(d.services, DEMO_CONFIG.services);
    // pay is configured but payments.pay is off: left out; the others keep the configured order.
    assert.deepEqual(d.settings.home.quick_actions, ['send', 'lockers', 'return', 'wallet']);
    assert.deepEqual(d.branding, DEMO_CONFIG.branding);
    assert.deepEqual(d.service_contracts, DEMO_CONFIG.service_contracts);
    assert.deepEqual(d.version_policy, DEMO_CONFIG.version_policy);
    assert.equal(d.update, null);
    assert.deepEqual(Object.keys(d).sort(), [
      'app',
      'authentication',
      'branding',
      'capabilities',
      'client',
      'configuration_version',
      'service_contracts',
      'services',
      'settings',
      'update',
      'version_policy',
    ]);
  });

  test('the update verdict follows the platform policy: block below the minimum, suggest below the recommended', async () => {
    const appCode = await boundApp();
    const verdict = async (q: string) => (await boot(appCode, a.business.code, q)).body.data.update;
    assert.deepEqual(await verdict('?platform=ios&app_version=1.1.9'), {
      platform: 'ios',
      app_version: '1.1.9',
      action: 'block',
    });
    assert.equal((await verdict('?platform=android&app_version=1.2.0-rc.1')).action, 'block');
    assert.equal((await verdict('?platform=android&app_version=1.3.5')).action, 'suggest_update');
    assert.equal((await verdict('?platform=ios&app_version=1.4.0')).action, 'none');
    assert.equal((await verdict('?platform=ios&app_version=10.0.0%2Bbuild.7')).action, 'none');
    assert.equal(await verdict('?platform=ios'), null);
  });

  test("every error of the bootstrap: 404 unknown or not bound (another business's app too), 403 switched off, 422 platform and version", async () => {
    const appCode = await boundApp();
    assert.equal((await boot('no-such-app', a.business.code)).status, 404);
    const unknownClient = await boot(appCode, 'NO-SUCH-CLIENT');
    assert.equal(unknownClient.status, 404);
    assert.equal(unknownClient.body.code, 'NOT_FOUND');
    // Isolation: an app bound to business b only is not found under a's code, and the reverse.
    const other = code();
    await configure(other);
    await bind(other, b.business.code);
    assert.equal((await boot(other, b.business.code)).status, 200);
    assert.equal((await boot(other, a.business.code)).status, 404);
    assert.equal((await boot(appCode, b.business.code)).status, 404);

    const platform = await boot(appCode, a.business.code, '?platform=windows&app_version=1.0.0');
    assert.equal(platform.status, 422);
    assert.deepEqual(
      platform.body.errors.map((e: { field: string }) => e.field),
      ['platform'],
    );
    for (const v of ['1.2', 'v1.2.3', '01.2.3', 'latest']) {
      const res = await boot(appCode, a.business.code, `?platform=ios&app_version=${encodeURIComponent(v)}`);
      assert.equal(res.status, 422, v);
      assert.deepEqual(
        res.body.errors.map((e: { field: string }) => e.field),
        ['app_version'],
      );
    }

    // The binding switched off: 403 for this client only.
    assert.equal((await bind(other, a.business.code)).status, 200);
    assert.equal((await bind(appCode, a.business.code, { available: false })).body.available, false);
    const off = await boot(appCode, a.business.code, '', 'fr');
    assert.equal(off.status, 403);
    assert.equal(off.body.code, 'APP_UNAVAILABLE');
    assert.match(off.body.message, /n'est pas disponible/);
    assert.equal((await bind(appCode, a.business.code, { available: true })).status, 200);
    assert.equal((await boot(appCode, a.business.code)).status, 200);

    // The app switched off: 403 for every client, its bindings kept.
    const switched = await app.http.put(
      `/v1/platform/apps/${other}/availability`,
      { available: false },
      { token: admin },
    );
    assert.equal(switched.status, 200);
    assert.equal((await boot(other, a.business.code)).body.code, 'APP_UNAVAILABLE');
    assert.equal((await boot(other, b.business.code)).body.code, 'APP_UNAVAILABLE');
    await app.http.put(`/v1/platform/apps/${other}/availability`, { available: true }, { token: admin });
    assert.equal((await boot(other, b.business.code)).status, 200);

    // Unbound: not found again, as for an app it never had.
    const unbound = await app.http.del(`/v1/platform/apps/${other}/clients/${a.business.code}`, { token: admin });
    assert.equal(unbound.status, 200);
    assert.equal((await boot(other, a.business.code)).status, 404);
    assert.equal(
      (await app.http.del(`/v1/platform/apps/${other}/clients/${a.business.code}`, { token: admin })).status,
      404,
    );
  });

  test('every change raises configuration_version and the next bootstrap sees it through the cache', async () => {
    const appCode = await boundApp();
    const first = await boot(appCode, a.business.code);
    const clears = app.running.reads?.clears;
    assert.equal(first.body.data.configuration_version, 2);
    assert.ok(first.body.data.settings.home.quick_actions.includes('send'));
    // Read again: the same body, from the cache.
    assert.deepEqual((await boot(appCode, a.business.code)).body, first.body);

    const changed = config({ capabilities: { ...DEMO_CONFIG.capabilities, 'orders.send': false } });
    const res = await configure(appCode, changed);
    assert.equal(res.status, 200);
    assert.equal(res.body.configuration_version, 3);
    const next = await boot(appCode, a.business.code);
    assert.equal(next.body.data.configuration_version, 3);
    assert.equal(next.body.data.capabilities['orders.send'], false);
    assert.deepEqual(next.body.data.settings.home.quick_actions, ['lockers', 'return', 'wallet']);
    if (clears !== undefined) assert.ok(app.running.reads!.clears > clears);

    const bindRes = await bind(appCode, b.business.code, { available: true });
    assert.equal(bindRes.body.configuration_version, 4);
    assert.equal((await boot(appCode, b.business.code)).body.data.configuration_version, 4);
    const off = await app.http.put(`/v1/platform/apps/${appCode}/availability`, { available: false }, { token: admin });
    assert.equal(off.body.configuration_version, 5);
    assert.equal((await boot(appCode, b.business.code)).status, 403);
    await app.http.put(`/v1/platform/apps/${appCode}/availability`, { available: true }, { token: admin });

    // The business's name is the client's display name: a rename is heard too (NOTIFY read_cache on business).
    assert.equal((await boot(appCode, b.business.code)).body.data.client.display_name, b.business.name);
    await app.em().execute('update business set name = ? where id = ?', [`${b.business.name} renamed`, b.business.id]);
    await waitFor(
      async () => (await boot(appCode, b.business.code)).body.data.client.display_name === `${b.business.name} renamed`,
      5_000,
      5,
    );
  });

  test('another API process serves the bootstrap from its cache until the change is heard, then the new one', async () => {
    const peer = await startApp({}, { worker: false });
    try {
      const appCode = await boundApp();
      // The peer hears the app's creation some time after the commit; it must have heard it before the first read
      // is kept, else that late notification empties the cache after it. Notifications arrive in commit order.
      await cacheCaughtUp(app, peer);
      const read = async () => (await peer.http.get(`/v1/apps/${appCode}/clients/${a.business.code}/bootstrap`)).body;
      assert.equal((await read()).data.app.name, 'Demo Customer');
      // Written with the triggers off, so no notification: the peer keeps answering what it read.
      await app.em().transactional(async (em) => {
        await em.execute('set local session_replication_role = replica');
        await em.execute("update platform_app set name = 'Silent' where code = ?", [appCode]);
      });
      assert.equal((await read()).data.app.name, 'Demo Customer', 'kept: nothing reported the change');
      // A change through the operation is heard by the peer within moments of the commit.
      await configure(appCode, config({ name: 'Heard' }));
      const seen = await waitFor(
        async () => {
          const body = await read();
          return body.data.app.name === 'Heard' && body;
        },
        5_000,
        5,
      );
      assert.equal(seen.data.configuration_version, 3);
    } finally {
      await peer.running.close();
    }
  });

  test('the audit trail keeps who, when, what, before and after of every platform-admin change', async () => {
    const appCode = await boundApp();
    await configure(appCode, config({ name: 'Renamed' }));
    await bind(appCode, a.business.code, { available: false });
    await app.http.put(`/v1/platform/apps/${appCode}/availability`, { available: false }, { token: admin });
    await app.http.del(`/v1/platform/apps/${appCode}/clients/${a.business.code}`, { token: admin });
    const rows = await app
      .em()
      .execute(
        'select actor_email, action, subject, at, before, after from platform_audit where subject like ? order by id',
        [`app:${appCode}%`],
      );
    assert.deepEqual(
      rows.map((r) => r.action),
      [
        'app_configure',
        'app_client_bind',
        'app_configure',
        'app_client_bind',
        'app_availability_set',
        'app_client_unbind',
      ],
    );
    assert.ok(
      rows.every(
        (r) =>
          /^platform-.*@test\.example$/.test(r.actor_email) && Date.now() - new Date(r.at as string).getTime() < 60_000,
      ),
    );
    const [created, bound, renamed, switched, appOff, unbound] = rows as Record<string, any>[] as [
      Record<string, any>,
      Record<string, any>,
      Record<string, any>,
      Record<string, any>,
      Record<string, any>,
      Record<string, any>,
    ];
    assert.equal(created.before, null);
    assert.equal(created.after.name, 'Demo Customer');
    assert.equal(created.after.configuration_version, 1);
    assert.equal(bound.subject, `app:${appCode}/client:${a.business.code}`);
    assert.equal(bound.before, null);
    assert.deepEqual(bound.after, { available: true, configuration_version: 2 });
    assert.equal(renamed.before.name, 'Demo Customer');
    assert.equal(renamed.after.name, 'Renamed');
    assert.deepEqual(switched.before, { available: true, configuration_version: 3 });
    assert.deepEqual(switched.after, { available: false, configuration_version: 4 });
    assert.deepEqual(appOff.after, { available: false, configuration_version: 5 });
    assert.deepEqual(unbound.before, { available: false, configuration_version: 5 });
    assert.equal(unbound.after, null);
  });

  test('only the platform admin configures: 403 for a client admin, 401 without a token, nothing written', async () => {
    const appCode = code();
    const refused = await configure(appCode, config(), clientAdmin);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'FORBIDDEN');
    assert.equal((await app.http.put(`/v1/platform/apps/${appCode}`, config())).status, 401);
    assert.equal((await app.http.get('/v1/platform/apps', { token: clientAdmin })).status, 403);
    const appCode2 = await boundApp();
    const bindRefused = await app.http.put(
      `/v1/platform/apps/${appCode2}/clients/${a.business.code}`,
      { available: false },
      { token: clientAdmin },
    );
    assert.equal(bindRefused.status, 403);
    assert.equal((await boot(appCode2, a.business.code)).status, 200);
    const audit = await app
      .em()
      .execute('select count(*)::int as n from platform_audit where subject = ?', [`app:${appCode}`]);
    assert.equal(audit[0]!.n, 0);
  });

  test('a change naming no app or no business answers 404 and writes nothing', async () => {
    const appCode = code();
    assert.equal((await configure(appCode)).status, 200);
    const subjects = [`app:${appCode}`, `app:${appCode}/client:NO-SUCH-${appCode}`, `app:no-${appCode}`];
    const count = async () =>
      (
        await app
          .em()
          .execute<{ n: number }[]>(
            'select count(*)::int as n from platform_audit where subject in (?, ?, ?)',
            subjects,
          )
      )[0]!.n;
    const before = await count();
    const answers = [
      await bind(appCode, `NO-SUCH-${appCode}`),
      await bind(`no-${appCode}`, a.business.code),
      await app.http.put(`/v1/platform/apps/no-${appCode}/availability`, { available: false }, { token: admin }),
      await app.http.del(`/v1/platform/apps/${appCode}/clients/NO-SUCH-${appCode}`, { token: admin }),
    ];
    assert.deepEqual(
      answers.map((r) => [r.status, r.body.code]),
      Array(4).fill([404, 'NOT_FOUND']),
    );
    assert.equal(await count(), before, 'no audit row for a refused change');
    const listed = (await app.http.get('/v1/platform/apps?per_page=200', { token: admin })).body;
    assert.equal(JSON.stringify(listed).includes(`no-${appCode}`), false, 'no app was made by a refused change');
  });

  test('the configuration is validated strictly, every failing field named', async () => {
    const appCode = code();
    const bad = config({
      capabilities: { 'Orders.Send': true, wallet: true, 'orders.send': true },
      quick_actions: ['send', 'teleport' as never, 'send'],
      version_policy: {
        ios: { ...DEMO_CONFIG.version_policy.ios, minimum_version: '1.4', recommended_version: '1.0.0' },
        android: { ...DEMO_CONFIG.version_policy.android, minimum_version: '2.0.0', recommended_version: '1.9.9' },
      },
      authentication: {
        ...DEMO_CONFIG.authentication,
        idp: { server_client_id: ' ' },
        methods: { idp: true, email: true, registration: false },
      },
    });
    const res = await configure(appCode, bad);
    assert.equal(res.status, 422);
    const fields = res.body.errors.map((e: { field: string }) => e.field).sort();
    for (const f of [
      'capabilities.Orders.Send',
      'capabilities.wallet',
      'quick_actions.1',
      'version_policy.ios.minimum_version',
      'version_policy.android.recommended_version',
    ])
      assert.ok(fields.includes(f), `${f} in ${fields.join(', ')}`);
    // The refinements run once the shapes are right.
    const refined = await configure(
      appCode,
      config({
        quick_actions: ['send', 'send'],
        authentication: {
          ...DEMO_CONFIG.authentication,
          idp: { server_client_id: ' ' },
          methods: { idp: true, email: true, registration: false },
        },
      }),
    );
    assert.equal(refined.status, 422);
    assert.deepEqual(refined.body.errors.map((e: { field: string }) => e.field).sort(), [
      'authentication.idp.server_client_id',
      'authentication.registration.enabled',
      'quick_actions',
    ]);
    assert.equal(
      (await app.http.get(`/v1/platform/apps?per_page=200`, { token: admin })).body.apps.some(
        (x: { code: string }) => x.code === appCode,
      ),
      false,
    );
  });

  test('the bootstrap is rate limited per address (public_read): RateLimit headers, then 429 once spent', async () => {
    const appCode = await boundApp();
    const ok = await boot(appCode, a.business.code);
    assert.match(ok.headers.get('ratelimit-policy') ?? '', /^"public_read";q=\d+;w=\d+$/);
    const limited = await startApp({ RATE_LIMIT_PUBLIC_READ: '2/60' }, { worker: false });
    try {
      const answers = [];
      for (let i = 0; i < 3; i++)
        answers.push(await limited.http.get(`/v1/apps/${appCode}/clients/${a.business.code}/bootstrap`));
      const refused = answers.at(-1)!;
      assert.equal(refused.status, 429);
      assert.equal(refused.body.code, 'RATE_LIMITED');
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
    } finally {
      await limited.running.close();
    }
  });

  test('the demo apps are bound to DEMO: the customer app with idp, email and registration, the driver app with email only', async () => {
    const customer = await boot('demo-customer', 'DEMO', '?platform=android&app_version=1.4.0');
    assert.equal(customer.status, 200);
    assert.deepEqual(customer.body.data.authentication.methods, { idp: true, email: true, registration: true });
    assert.equal(customer.body.data.app.type, 'customer');
    const driver = await boot('demo-driver', 'DEMO');
    assert.equal(driver.status, 200);
    assert.deepEqual(driver.body.data.authentication.methods, { idp: false, email: true, registration: false });
    assert.equal(driver.body.data.app.type, 'driver');
    assert.equal((await boot('demo-driver', 'OTHER')).status, 404);
  });
});
