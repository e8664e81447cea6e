/**
 * The platform admin's switches (docs/platform-admin.md) through the real HTTP API: every operation, its errors, the
 * audit rows, the refusal of every other role, and the switches' effect: the assignment module's 503 and 403, and
 * the opt-in families' guard (docs/opt-in-families.md), read through the read cache of this process and of another.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { aiAgentDailyTurnCap, requireFamily, type OptInFamily } from '../../../src/modules/platform-admin/index.ts';
import type { OperationContext } from '../../../src/platform/catalog/types.ts';
import { errorBody } from '../../../src/platform/errorBody.ts';
import { AppError } from '../../../src/platform/errors.ts';
import type { Role } from '../../../src/platform/roles.ts';
import { cacheCaughtUp, startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeProvider, PASSWORD } from '../../helpers/factories.ts';
import { waitFor } from '../../helpers/wait.ts';

type Business = Awaited<ReturnType<typeof makeBusiness>>;

describe("the platform admin's switches", () => {
  let app: TestApp;
  let admin: string;
  let a: Business;
  let b: Business;
  const tokens = {} as Record<Exclude<Role, 'platform_admin'>, string>;

  const put = (path: string, body: unknown, token = admin) => app.http.put(`/v1/platform${path}`, body, { token });
  const family = (code: string, name: string, enabled: boolean) =>
    put(`/businesses/${encodeURIComponent(code)}/families/${name}`, { enabled });
  const auditRows = async (subject: string) =>
    app
      .em()
      .execute<{ actor_email: string; action: string; before: any; after: any; at: Date }[]>(
        'select actor_email, action, before, after, at from platform_audit where subject = ? order by id',
        [subject],
      );
  const auditCount = async () =>
    Number((await app.em().execute<{ n: number }[]>('select count(*)::int as n from platform_audit'))[0]!.n);
  const switchRows = async () =>
    app
      .em()
      .execute<Record<string, unknown>[]>(
        'select business_id, order_chat, sms_marketing, ai_agent, sms_marketing_migrated, sms_marketing_revoked_at, ai_agent_daily_turn_cap from business_switch order by business_id',
      );

  /** The guard as a family's handler calls it, for an account of `biz`, on `on`'s database and read cache. */
  const ctxOf = (on: TestApp, user: { id: number; email: string; role: Role; businessId?: number | null }) =>
    ({
      caller: { ...user, businessId: user.businessId ?? null, name: user.email, tokenHash: 'x', via: 'session' },
      em: on.em(),
      reads: on.running.reads!,
      config: on.config,
      lang: 'en',
    }) as unknown as OperationContext;
  /** What the guard answers: 'ok', or the error body it refuses with, as the REST surface sends it. */
  const guard = async (on: TestApp, user: Parameters<typeof ctxOf>[1], name: OptInFamily, lang: 'en' | 'de' = 'en') => {
    try {
      await requireFamily(ctxOf(on, user), name);
      return 'ok';
    } catch (err) {
      assert.ok(err instanceof AppError, String(err));
      return { status: err.status, ...errorBody(err, lang) };
    }
  };
  const staff = (biz: Business) => biz.users.admin;

  before(async () => {
    app = await startApp({ AI_AGENT_DAILY_TURN_CAP: '150' }, { worker: false });
    a = await makeBusiness(app.em());
    b = await makeBusiness(app.em());
    admin = await app.login('platform@demo.example', 'demo-password');
    tokens.client_admin = await app.login(a.users.admin.email, PASSWORD);
    tokens.employee = await app.login(a.users.employee.email, PASSWORD);
    tokens.contractor = await app.login(a.users.broker.email, PASSWORD);
    tokens.driver = await app.login(a.users.driver.email, PASSWORD);
    tokens.customer = await app.login(a.users.customer.email, PASSWORD);
    for (const role of ['locker_provider', 'delivery_provider'] as const)
      tokens[role] = await app.login((await makeProvider(app.em(), role)).user.email, PASSWORD);
  });
  after(() => app.running.close());

  test('the businesses are listed with their switches, all opt-in families off and the default cap', async () => {
    const list = await app.http.get('/v1/platform/businesses?per_page=200', { token: admin });
    assert.equal(list.status, 200);
    assert.ok(list.body.total >= 2);
    const mine = list.body.businesses.find((x: { code: string }) => x.code === a.business.code);
    assert.deepEqual(mine, {
      code: a.business.code,
      name: a.business.name,
      assignment_module_enabled: true,
      families: { order_chat: false, sms_marketing: false, ai_agent: false },
      sms_marketing: { migrated: false, revoked: false, revoked_at: null, revoked_reason: null, usable: false },
      ai_agent: { daily_turn_cap: 150, daily_turn_cap_set: null },
    });
    const one = await app.http.get(`/v1/platform/businesses/${b.business.code}`, { token: admin });
    assert.equal(one.status, 200);
    assert.equal(one.body.business.code, b.business.code);
    const missing = await app.http.get('/v1/platform/businesses/NO-SUCH-BUSINESS', { token: admin, lang: 'de' });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'NOT_FOUND');
    const page = await app.http.get('/v1/platform/businesses?per_page=1&page=2', { token: admin });
    assert.equal(page.body.businesses.length, 1);
    assert.notEqual(page.body.businesses[0].code, list.body.businesses[0].code);
  });

  test('each family switches per business, with an audit row before and after, and the guard answers 409 while off', async () => {
    const biz = await makeBusiness(app.em());
    const subject = `business:${biz.business.code}`;
    for (const name of ['order_chat', 'ai_agent'] as const) {
      const off = await guard(app, staff(biz), name);
      assert.deepEqual(off, {
        status: 409,
        result: false,
        code: 'FEATURE_DISABLED',
        message: 'This feature is switched off for your business.',
        feature_enabled: false,
      });
      const on = await family(biz.business.code, name, true);
      assert.equal(on.status, 200);
      assert.equal(on.body.business.families[name], true);
      assert.equal(await guard(app, staff(biz), name), 'ok');
      // Isolation: the other businesses keep theirs off.
      assert.equal(((await guard(app, staff(b), name)) as { status: number }).status, 409);
    }
    const rows = await auditRows(subject);
    assert.deepEqual(
      rows.map((r) => [r.actor_email, r.action, r.before.families, r.after.families]),
      [
        [
          'platform@demo.example',
          'platform_family_set',
          { order_chat: false, sms_marketing: false, ai_agent: false },
          { order_chat: true, sms_marketing: false, ai_agent: false },
        ],
        [
          'platform@demo.example',
          'platform_family_set',
          { order_chat: true, sms_marketing: false, ai_agent: false },
          { order_chat: true, sms_marketing: false, ai_agent: true },
        ],
      ],
    );
    assert.ok(
      rows.every((r) => !Number.isNaN(new Date(r.at).getTime())),
      'each row has its time',
    );
    // Switched off again: refused at once (this process emptied its cache on commit), translated.
    assert.equal((await family(biz.business.code, 'order_chat', false)).status, 200);
    const refused = await guard(app, staff(biz), 'order_chat', 'de');
    assert.deepEqual(refused, {
      status: 409,
      result: false,
      code: 'FEATURE_DISABLED',
      message: 'Diese Funktion ist für Ihr Unternehmen ausgeschaltet.',
      feature_enabled: false,
    });
  });

  test('SMS Marketing answers only switched on, migrated and not revoked; a revocation outlasts the switch', async () => {
    const biz = await makeBusiness(app.em());
    const code = biz.business.code;
    const sms = () => guard(app, staff(biz), 'sms_marketing');
    const message = async () => ((await sms()) as { message: string }).message;
    assert.equal(await message(), 'This feature is switched off for your business.');
    await family(code, 'sms_marketing', true);
    assert.equal(
      await message(),
      'SMS Marketing is not set up for your business yet: its SMS sender has not been migrated.',
    );
    const migrated = await put(`/businesses/${code}/sms-marketing/migration`, { migrated: true });
    assert.equal(migrated.status, 200);
    assert.equal(migrated.body.business.sms_marketing.usable, true);
    assert.equal(await sms(), 'ok');
    assert.equal(await guard(app, biz.users.employee, 'sms_marketing'), 'ok');

    const revoked = await put(`/businesses/${code}/sms-marketing/revocation`, { revoked: true, reason: ' Spam ' });
    assert.equal(revoked.status, 200);
    const view = revoked.body.business.sms_marketing;
    assert.equal(view.revoked, true);
    assert.equal(view.revoked_reason, 'Spam');
    assert.match(view.revoked_at, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.equal(view.usable, false);
    const body = await sms();
    assert.deepEqual(body, {
      status: 409,
      result: false,
      code: 'FEATURE_DISABLED',
      message: 'SMS Marketing has been revoked for your business by the platform.',
      feature_enabled: false,
    });
    // Off and on again: still revoked. Revoked again: the first time is kept.
    await family(code, 'sms_marketing', false);
    await family(code, 'sms_marketing', true);
    assert.equal(await message(), 'SMS Marketing has been revoked for your business by the platform.');
    const again = await put(`/businesses/${code}/sms-marketing/revocation`, { revoked: true, reason: 'Unpaid' });
    assert.equal(again.body.business.sms_marketing.revoked_at, view.revoked_at);
    assert.equal(again.body.business.sms_marketing.revoked_reason, 'Unpaid');
    const lifted = await put(`/businesses/${code}/sms-marketing/revocation`, { revoked: false, reason: 'ignored' });
    assert.deepEqual(lifted.body.business.sms_marketing, {
      migrated: true,
      revoked: false,
      revoked_at: null,
      revoked_reason: null,
      usable: true,
    });
    assert.equal(await sms(), 'ok');

    const rows = await auditRows(`business:${code}`);
    assert.deepEqual(
      rows.map((r) => r.action),
      [
        'platform_family_set',
        'platform_sms_marketing_migration_set',
        'platform_sms_marketing_revocation_set',
        'platform_family_set',
        'platform_family_set',
        'platform_sms_marketing_revocation_set',
        'platform_sms_marketing_revocation_set',
      ],
    );
    assert.equal(rows[1]!.before.sms_marketing.migrated, false);
    assert.equal(rows[1]!.after.sms_marketing.migrated, true);
    assert.equal(rows[2]!.before.sms_marketing.revoked, false);
    assert.equal(rows[2]!.after.sms_marketing.revoked_reason, 'Spam');
    assert.equal(rows[6]!.before.sms_marketing.revoked_reason, 'Unpaid');
    assert.equal(rows[6]!.after.sms_marketing.revoked, false);
  });

  test('who a family is for: SMS Marketing and the AI agent refuse every account but client and employee (403), Order Chat any account of a business', async () => {
    const biz = await makeBusiness(app.em());
    for (const name of ['order_chat', 'sms_marketing', 'ai_agent'] as const)
      await family(biz.business.code, name, true);
    await put(`/businesses/${biz.business.code}/sms-marketing/migration`, { migrated: true });
    for (const name of ['sms_marketing', 'ai_agent'] as const) {
      for (const user of [biz.users.admin, biz.users.employee]) assert.equal(await guard(app, user, name), 'ok');
      for (const user of [biz.users.customer, biz.users.driver, biz.users.broker]) {
        const refused = await guard(app, user, name);
        assert.deepEqual(refused, {
          status: 403,
          result: false,
          code: 'FORBIDDEN',
          message: 'This feature is for the client and employee accounts of a business only.',
        });
      }
    }
    for (const user of Object.values(biz.users)) assert.equal(await guard(app, user, 'order_chat'), 'ok');
    const platform = { id: 1, email: 'platform@demo.example', role: 'platform_admin' as const, businessId: null };
    for (const name of ['order_chat', 'sms_marketing', 'ai_agent'] as const)
      assert.deepEqual(await guard(app, platform, name), {
        status: 403,
        result: false,
        code: 'FORBIDDEN',
        message: 'This feature is for the accounts of a business only.',
      });
  });

  test('another API process follows a switch as soon as it hears the change (NOTIFY read_cache)', async () => {
    const other = await startApp({ AI_AGENT_DAILY_TURN_CAP: '150' }, { worker: false });
    try {
      const biz = await makeBusiness(app.em());
      const user = staff(biz);
      await cacheCaughtUp(app, other); // no earlier change is still on its way to it
      assert.equal(((await guard(other, user, 'ai_agent')) as { status: number }).status, 409);
      assert.equal(await aiAgentDailyTurnCap(ctxOf(other, user), biz.business.id), 150);
      // Both answers are now kept by the other process for up to a minute: only the tables' own triggers can make it
      // read again within the wait.
      await family(biz.business.code, 'ai_agent', true);
      await waitFor(async () => (await guard(other, user, 'ai_agent')) === 'ok', 5_000, 5);
      assert.equal(other.running.reads!.lastHeard, 'business_switch');
      await put(`/businesses/${biz.business.code}/ai-agent/daily-turn-cap`, { daily_turn_cap: 40 });
      await waitFor(async () => (await aiAgentDailyTurnCap(ctxOf(other, user), biz.business.id)) === 40, 5_000, 5);
    } finally {
      await other.running.close();
    }
  });

  test("the AI agent's daily turn cap: the configured default, the business's own, null back to the default", async () => {
    const biz = await makeBusiness(app.em());
    const code = biz.business.code;
    const cap = () => aiAgentDailyTurnCap(ctxOf(app, staff(biz)), biz.business.id);
    assert.equal(await cap(), 150);
    const set = await put(`/businesses/${code}/ai-agent/daily-turn-cap`, { daily_turn_cap: 500 });
    assert.equal(set.status, 200);
    assert.deepEqual(set.body.business.ai_agent, { daily_turn_cap: 500, daily_turn_cap_set: 500 });
    assert.equal(await cap(), 500);
    assert.equal(await aiAgentDailyTurnCap(ctxOf(app, staff(b)), b.business.id), 150, 'other businesses keep theirs');
    const reset = await put(`/businesses/${code}/ai-agent/daily-turn-cap`, { daily_turn_cap: null });
    assert.deepEqual(reset.body.business.ai_agent, { daily_turn_cap: 150, daily_turn_cap_set: null });
    assert.equal(await cap(), 150);
    for (const bad of [0, 100_001, 2.5, '10', true]) {
      const res = await put(`/businesses/${code}/ai-agent/daily-turn-cap`, { daily_turn_cap: bad });
      assert.equal(res.status, 422, String(bad));
      assert.deepEqual(
        res.body.errors.map((e: { field: string }) => e.field),
        ['daily_turn_cap'],
      );
    }
    const rows = await auditRows(`business:${code}`);
    assert.deepEqual(
      rows.map((r) => [r.before.ai_agent.daily_turn_cap_set, r.after.ai_agent.daily_turn_cap_set]),
      [
        [null, 500],
        [500, null],
      ],
    );
  });

  test('the assignment module per business: switched off it answers 403 to that business only, audited', async () => {
    const biz = await makeBusiness(app.em());
    const token = await app.login(biz.users.admin.email, PASSWORD);
    const list = (t: string) => app.http.get('/v1/broker-order-assignments', { token: t });
    assert.equal((await list(token)).status, 200);
    const off = await put(`/businesses/${biz.business.code}/assignment-module`, { enabled: false });
    assert.equal(off.status, 200);
    assert.equal(off.body.business.assignment_module_enabled, false);
    const refused = await list(token);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'MODULE_DISABLED');
    assert.equal((await list(tokens.client_admin)).status, 200, 'business a keeps its module');
    assert.equal((await put(`/businesses/${biz.business.code}/assignment-module`, { enabled: true })).status, 200);
    assert.equal((await list(token)).status, 200);
    const rows = await auditRows(`business:${biz.business.code}`);
    assert.deepEqual(
      rows.map((r) => [r.action, r.before.assignment_module_enabled, r.after.assignment_module_enabled]),
      [
        ['platform_assignment_module_set', true, false],
        ['platform_assignment_module_set', false, true],
      ],
    );
  });

  test('the assignment module system-wide: 503 for everyone while off; null gives the word back to ASSIGNMENT_MODULE_AVAILABLE', async () => {
    const list = () => app.http.get('/v1/broker-order-assignments', { token: tokens.client_admin });
    const settings = async () => (await app.http.get('/v1/platform/settings', { token: admin })).body;
    assert.deepEqual(await settings(), {
      result: true,
      assignment_module: { available: true, source: 'environment' },
      ai_agent: { default_daily_turn_cap: 150 },
    });
    const off = await put('/settings/assignment-module', { available: false });
    assert.equal(off.status, 200);
    assert.deepEqual(off.body.assignment_module, { available: false, source: 'platform' });
    const down = await list();
    assert.equal(down.status, 503);
    assert.equal(down.body.code, 'MODULE_UNAVAILABLE');
    const contractor = await app.http.post(
      '/v1/broker-order-assignments/release',
      { order_id: 1 },
      { token: tokens.contractor },
    );
    assert.equal(contractor.status, 503);

    // A process started with ASSIGNMENT_MODULE_AVAILABLE=0 follows the platform admin's switch once set.
    const envOff = await startApp({ ASSIGNMENT_MODULE_AVAILABLE: '0' }, { worker: false });
    try {
      const envList = () => envOff.http.get('/v1/broker-order-assignments', { token: tokens.client_admin });
      assert.equal((await envList()).status, 503);
      assert.equal((await put('/settings/assignment-module', { available: true })).status, 200);
      await waitFor(async () => (await envList()).status === 200, 5_000, 5);
      assert.equal(envOff.running.reads!.lastHeard, 'platform_setting');
      assert.equal((await list()).status, 200);
      const reset = await put('/settings/assignment-module', { available: null });
      assert.deepEqual(reset.body.assignment_module, { available: true, source: 'environment' });
      await waitFor(async () => (await envList()).status === 503, 5_000, 5);
      assert.equal((await list()).status, 200, 'back to its environment: on');
    } finally {
      await envOff.running.close();
    }
    const rows = await auditRows('platform:assignment_module_available');
    assert.deepEqual(
      rows.map((r) => [r.action, r.before, r.after]),
      [
        [
          'platform_assignment_availability_set',
          { available: true, source: 'environment' },
          { available: false, source: 'platform' },
        ],
        [
          'platform_assignment_availability_set',
          { available: false, source: 'platform' },
          { available: true, source: 'platform' },
        ],
        [
          'platform_assignment_availability_set',
          { available: true, source: 'platform' },
          { available: true, source: 'environment' },
        ],
      ],
    );
  });

  test('every platform-admin operation: 403 to every other role and 401 without a token, nothing written or audited', async () => {
    const code = a.business.code;
    const calls: [string, string, unknown][] = [
      ['GET', '/v1/platform/businesses', undefined],
      ['GET', `/v1/platform/businesses/${code}`, undefined],
      ['GET', '/v1/platform/settings', undefined],
      ['PUT', `/v1/platform/businesses/${code}/assignment-module`, { enabled: false }],
      ['PUT', `/v1/platform/businesses/${code}/families/order_chat`, { enabled: true }],
      ['PUT', `/v1/platform/businesses/${code}/sms-marketing/revocation`, { revoked: true }],
      ['PUT', `/v1/platform/businesses/${code}/sms-marketing/migration`, { migrated: true }],
      ['PUT', `/v1/platform/businesses/${code}/ai-agent/daily-turn-cap`, { daily_turn_cap: 5 }],
      ['PUT', '/v1/platform/settings/assignment-module', { available: false }],
    ];
    const audits = await auditCount();
    const switches = await switchRows();
    for (const [method, path, body] of calls) {
      for (const [role, token] of Object.entries(tokens)) {
        const res = method === 'GET' ? await app.http.get(path, { token }) : await app.http.put(path, body, { token });
        assert.equal(res.status, 403, `${method} ${path} as ${role}`);
        assert.equal(res.body.code, 'FORBIDDEN');
      }
      const anonymous = method === 'GET' ? await app.http.get(path) : await app.http.put(path, body);
      assert.equal(anonymous.status, 401, `${method} ${path}`);
    }
    assert.equal(await auditCount(), audits);
    assert.deepEqual(await switchRows(), switches);
    assert.equal((await app.http.get('/v1/broker-order-assignments', { token: tokens.client_admin })).status, 200);
  });

  test('the switches refuse an unknown business (404) and bad input (422), writing nothing', async () => {
    const audits = await auditCount();
    const switches = await switchRows();
    for (const [path, body] of [
      ['/businesses/NO-SUCH/assignment-module', { enabled: true }],
      ['/businesses/NO-SUCH/families/order_chat', { enabled: true }],
      ['/businesses/NO-SUCH/sms-marketing/revocation', { revoked: true }],
      ['/businesses/NO-SUCH/sms-marketing/migration', { migrated: true }],
      ['/businesses/NO-SUCH/ai-agent/daily-turn-cap', { daily_turn_cap: 5 }],
    ] as const) {
      const res = await put(path, body);
      assert.equal(res.status, 404, path);
      assert.equal(res.body.code, 'NOT_FOUND');
    }
    const code = a.business.code;
    const invalid: [string, unknown, string][] = [
      [`/businesses/${code}/families/sms`, { enabled: true }, 'family'],
      [`/businesses/${code}/families/order_chat`, { enabled: 'yes' }, 'enabled'],
      [`/businesses/${code}/families/order_chat`, { enabled: true, extra: 1 }, 'extra'],
      [`/businesses/${code}/sms-marketing/revocation`, { revoked: true, reason: 'x'.repeat(501) }, 'reason'],
      [`/businesses/${code}/sms-marketing/migration`, {}, 'migrated'],
      ['/settings/assignment-module', { available: 'off' }, 'available'],
    ];
    for (const [path, body, field] of invalid) {
      const res = await app.http.put(`/v1/platform${path}`, body, { token: admin, lang: 'fr' });
      assert.equal(res.status, 422, path);
      assert.equal(res.body.code, 'VALIDATION_FAILED');
      assert.ok(
        res.body.errors.some((e: { field: string }) => e.field === field),
        `${path}: ${JSON.stringify(res.body.errors)}`,
      );
    }
    assert.equal(await auditCount(), audits);
    assert.deepEqual(await switchRows(), switches);
  });

  test('price hiding: a client admin reads and sets the families hidden from its own customers, audited', async () => {
    const path = (id: number) => `/v1/client/customers/${id}/hidden-price-families`;
    const customer = a.users.customer.id;
    const read = await app.http.get(path(customer), { token: tokens.client_admin });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, { result: true, customer_id: customer, hidden_price_families: [] });
    const set = await app.http.put(
      path(customer),
      { families: ['device_orders', 'local_delivery', 'device_orders'] },
      { token: tokens.client_admin },
    );
    assert.equal(set.status, 200);
    assert.deepEqual(set.body.hidden_price_families, ['local_delivery', 'device_orders']);
    // The column the webhooks module reads (src/modules/webhooks/transform.ts).
    const [stored] = await app
      .em()
      .execute<{ f: string[] }[]>('select hidden_price_families as f from app_user where id = ?', [customer]);
    assert.deepEqual(stored!.f, ['local_delivery', 'device_orders']);
    assert.deepEqual((await app.http.get(path(customer), { token: tokens.client_admin })).body.hidden_price_families, [
      'local_delivery',
      'device_orders',
    ]);
    const rows = await auditRows(`business:${a.business.code}/customer:${customer}`);
    assert.deepEqual(
      rows.map((r) => [r.actor_email, r.action, r.before, r.after]),
      [
        [
          a.users.admin.email,
          'customer_price_hiding_set',
          { hidden_price_families: [] },
          { hidden_price_families: ['local_delivery', 'device_orders'] },
        ],
      ],
    );

    const audits = await auditCount();
    // Another business's customer, an account of this business that is no customer, an unknown id: 404.
    for (const id of [b.users.customer.id, a.users.employee.id, a.users.admin.id, 2_000_000_000]) {
      assert.equal((await app.http.get(path(id), { token: tokens.client_admin })).status, 404, String(id));
      const res = await app.http.put(path(id), { families: [] }, { token: tokens.client_admin });
      assert.equal(res.status, 404, String(id));
      assert.equal(res.body.code, 'NOT_FOUND');
    }
    const unknown = await app.http.put(path(customer), { families: ['pizza'] }, { token: tokens.client_admin });
    assert.equal(unknown.status, 422);
    assert.deepEqual(
      unknown.body.errors.map((e: { field: string }) => e.field),
      ['families.0'],
    );
    // Every other role: 403, the platform admin included.
    for (const [role, token] of [...Object.entries(tokens), ['platform_admin', admin]]) {
      if (role === 'client_admin') continue;
      assert.equal((await app.http.get(path(customer), { token })).status, 403, role);
      assert.equal((await app.http.put(path(customer), { families: [] }, { token })).status, 403, role);
    }
    assert.equal(await auditCount(), audits);
    const [still] = await app
      .em()
      .execute<{ f: string[] }[]>('select hidden_price_families as f from app_user where id = ?', [customer]);
    assert.deepEqual(still!.f, ['local_delivery', 'device_orders']);
    const cleared = await app.http.put(path(customer), { families: [] }, { token: tokens.client_admin });
    assert.deepEqual(cleared.body.hidden_price_families, []);
  });
});
