// App registration (docs/apps.md, Registration) through the real service: the worker runs app-registration-<id> on
// the suite's Temporal, codes go through the SMS sandbox and are read back as the platform admin reads them, ID
// tokens come from a real OpenID Connect provider.
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { DEMO_APPS, type AppConfig } from '../../../src/modules/apps/index.ts';
import { registrationWorkflowId } from '../../../src/modules/apps/contract.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makePlatformAdmin, PASSWORD } from '../../helpers/factories.ts';
import { startIdentityProvider, type IdentityProvider } from '../../helpers/identityProvider.ts';
import { waitFor } from '../../helpers/wait.ts';

const [customerDemo, driverDemo] = DEMO_APPS;
const { code: _c, ...CUSTOMER } = customerDemo!;
const { code: _d, ...DRIVER } = driverDemo!;
const AUDIENCE = 'tms-registration-app';

type Registration = AppConfig['authentication']['registration'];
/** The customer demo app with registration settings of the test's choosing. */
const customerApp = (r: Partial<Registration>, type: 'customer' | 'driver' = 'customer'): AppConfig => {
  const c = structuredClone(CUSTOMER) as AppConfig;
  c.type = type;
  c.authentication.idp.server_client_id = AUDIENCE;
  c.authentication.registration = {
    ...c.authentication.registration,
    phone_verification_required: true,
    sms_configured: true,
    requires_approval: false,
    resend_after: 10,
    ...r,
  };
  return c;
};
/** A fresh valid Czech mobile number, written nationally, and its E.164 form. */
const phone = () => {
  const tail = String(randomInt(0, 1_000_000)).padStart(6, '0');
  return { national: `601 ${tail.slice(0, 3)} ${tail.slice(3)}`, e164: `+420601${tail}` };
};

describe('standalone apps (A2): registration with an SMS code, an ID token and approval', () => {
  let idp: IdentityProvider;
  let app: TestApp;
  let noSms: TestApp;
  let shortLived: TestApp;
  let platformAdmin: string;
  let a: Awaited<ReturnType<typeof makeBusiness>>;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let verified: string; // phone verification, no approval
  let verifiedApproval: string; // phone verification, then approval
  let direct: string; // neither
  let approvalOnly: string; // approval, no phone
  let closed: string; // registration off

  const device = { device_id: 'device-1', device_platform: 'ios' };
  const person = (extra: Record<string, unknown> = {}) => {
    const p = phone();
    return {
      body: {
        name: 'Jana Nováková',
        email: `reg-${randomUUID().slice(0, 8)}@test.example`,
        password: 'registration-password',
        phone: p.national,
        ...device,
        ...extra,
      },
      e164: p.e164,
    };
  };
  const base = (appCode: string, client = a.business.code) => `/v1/apps/${appCode}/clients/${client}/registrations`;
  const register = (appCode: string, body: Record<string, unknown>, opts: { client?: string; via?: TestApp } = {}) =>
    (opts.via ?? app).http.post(base(appCode, opts.client), body);
  const verify = (appCode: string, id: string, code: string, client?: string) =>
    app.http.post(`${base(appCode, client)}/${id}/verify`, { code });
  const resend = (appCode: string, id: string) => app.http.post(`${base(appCode)}/${id}/resend`, {});
  /** The codes the sandbox recorded for the number, oldest first, as the platform admin reads them. */
  const codesTo = async (e164: string): Promise<string[]> => {
    const res = await app.http.get(`/v1/platform/sms/sandbox-messages?to=${encodeURIComponent(e164)}`, {
      token: platformAdmin,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return (res.body.messages as { text: string }[]).map((m) => /\b(\d{6})\b/.exec(m.text)![1]!).reverse();
  };
  const nthCode = (e164: string, n = 1) =>
    waitFor(async () => {
      const codes = await codesTo(e164);
      return codes.length >= n && codes[n - 1]!;
    });
  const emailSignIn = (appCode: string, email: string, password = 'registration-password') =>
    app.http.post(`/v1/apps/${appCode}/clients/${a.business.code}/auth/email`, { email, password, ...device });
  const configureBound = async (c: AppConfig, businesses = [a]) => {
    const appCode = `r-${randomUUID().slice(0, 8)}`;
    assert.equal((await app.http.put(`/v1/platform/apps/${appCode}`, c, { token: platformAdmin })).status, 200);
    for (const x of businesses)
      assert.equal(
        (await app.http.put(`/v1/platform/apps/${appCode}/clients/${x.business.code}`, {}, { token: platformAdmin }))
          .status,
        200,
      );
    return appCode;
  };

  before(async () => {
    idp = await startIdentityProvider([AUDIENCE]);
    const idpEnv = { IDP_ISSUER: idp.issuer, IDP_JWKS_URL: idp.jwksUrl, IDP_CLOCK_TOLERANCE_SECONDS: '0' };
    app = await startApp({ SMS_PROVIDER: 'sandbox', ...idpEnv });
    // The same database and Temporal namespace: one API without a provider, one whose registrations expire in 3 s
    // (their processes run on the first one's worker).
    noSms = await startApp({ SMS_PROVIDER: '' }, { worker: false });
    shortLived = await startApp({ SMS_PROVIDER: 'sandbox', REGISTRATION_TIMER_SCALE: '0.005' }, { worker: false });
    const em = app.em();
    a = await makeBusiness(em);
    b = await makeBusiness(em);
    const adminEmail = await makePlatformAdmin(em);
    platformAdmin = await app.login(adminEmail, PASSWORD);
    verified = await configureBound(customerApp({}), [a, b]);
    verifiedApproval = await configureBound(customerApp({ requires_approval: true }, 'driver'));
    direct = await configureBound(customerApp({ phone_verification_required: false }));
    approvalOnly = await configureBound(customerApp({ phone_verification_required: false, requires_approval: true }));
    closed = await configureBound(DRIVER as AppConfig);
  });
  after(async () => {
    await shortLived?.running.close();
    await noSms?.running.close();
    await app?.running.close();
    await idp?.close();
  });

  test('the whole flow: 202 with an opaque id, the code by SMS (sealed in the sandbox, only hashed in the registration), the app session', async () => {
    const p = person();
    const res = await register(verified, p.body);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.status, 'awaiting_code');
    assert.match(res.body.registration_id, /^[0-9a-f-]{36}$/);
    assert.equal(res.body.resend_after, 10);
    const expires = Date.parse(`${res.body.expires_at.replace(' ', 'T')}Z`);
    assert.ok(Math.abs(expires - (Date.now() + 600_000)) < 60_000, 'expires in 10 minutes');
    assert.equal(res.body.access_token, undefined, 'no session before the code');

    const code = await nthCode(p.e164);
    assert.equal(code.length, 6);
    const [stored] = await app
      .em()
      .execute<{ code_hash: string; password_hash: string; phone: string }[]>(
        'select code_hash, password_hash, phone from app_registration where id = ?',
        [res.body.registration_id],
      );
    assert.equal(stored!.phone, p.e164, 'kept in E.164');
    assert.ok(!stored!.code_hash.includes(code));
    assert.match(stored!.code_hash, /^hmac\$/);
    const sandbox = await app
      .em()
      .execute<{ sealed_text: string }[]>('select sealed_text from sms_message where to_number = ?', [p.e164]);
    assert.equal(sandbox.length, 1);
    assert.match(sandbox[0]!.sealed_text, /^tms1\./, 'the text, which carries the code, is sealed at rest');

    // No account before the code.
    assert.equal((await emailSignIn(verified, p.body.email as string)).status, 401);
    const wrong = await verify(verified, res.body.registration_id, code === '000000' ? '000001' : '000000');
    assert.equal(wrong.status, 422);
    assert.deepEqual(
      wrong.body.errors.map((e: { field: string }) => e.field),
      ['code'],
    );
    const ok = await verify(verified, res.body.registration_id, code);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.token_type, 'Bearer');
    assert.equal(ok.body.user.email, p.body.email);
    assert.equal(ok.body.app_context.client_code, a.business.code);
    const me = await app.http.get('/v1/user/me', { token: ok.body.access_token });
    assert.equal(me.status, 200);
    assert.equal(me.body.role, 'customer');
    const [account] = await app
      .em()
      .execute<{ business_id: number }[]>('select business_id from app_user where email = ?', [p.body.email]);
    assert.equal(account!.business_id, a.business.id);
    assert.equal((await emailSignIn(verified, p.body.email as string)).status, 200, 'the password works');

    const again = await verify(verified, res.body.registration_id, code);
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'REGISTRATION_CLOSED');
    const handle = app.running.temporal.workflow.getHandle(registrationWorkflowId(res.body.registration_id));
    assert.equal(await handle.result(), 'closed', 'the process ends without expiring');
    const [after] = await app
      .em()
      .execute<{ status: string; code_hash: string | null; password_hash: string | null }[]>(
        'select status, code_hash, password_hash from app_registration where id = ?',
        [res.body.registration_id],
      );
    assert.deepEqual(after, { status: 'completed', code_hash: null, password_hash: null });
  });

  test('the bootstrap says sms_configured only where the app says so and the service has a provider', async () => {
    const read = async (via: TestApp, appCode: string) =>
      (await via.http.get(`/v1/apps/${appCode}/clients/${a.business.code}/bootstrap`)).body.data.authentication
        .registration.sms_configured;
    assert.equal(await read(app, verified), true);
    assert.equal(await read(noSms, verified), false);
    const off = await configureBound(customerApp({ sms_configured: false }));
    assert.equal(await read(app, off), false);
    for (const [via, appCode] of [
      [noSms, verified],
      [app, off],
    ] as const) {
      const res = await register(appCode, person().body, { via });
      assert.equal(res.status, 403, JSON.stringify(res.body));
      assert.equal(res.body.code, 'SMS_UNAVAILABLE');
    }
  });

  test('with an ID token after REGISTRATION_REQUIRED, the new account is bound to the identity', async () => {
    const subject = `sub-${randomUUID()}`;
    idp.accounts.set(subject, { email: `idp-${randomUUID().slice(0, 8)}@idp.example`, name: 'Idp Person' });
    const signIn = async () =>
      app.http.post(`/v1/apps/${verified}/clients/${a.business.code}/auth/idp`, {
        ...device,
        id_token: await idp.idToken(AUDIENCE, subject),
      });
    assert.equal((await signIn()).body.code, 'REGISTRATION_REQUIRED');
    const p = person({ id_token: await idp.idToken(AUDIENCE, subject) });
    const res = await register(verified, p.body);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const ok = await verify(verified, res.body.registration_id, await nthCode(p.e164));
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const viaIdp = await signIn();
    assert.equal(viaIdp.status, 200, JSON.stringify(viaIdp.body));
    assert.equal(viaIdp.body.user.id, ok.body.user.id);

    const twice = await register(verified, person({ id_token: await idp.idToken(AUDIENCE, subject) }).body);
    assert.equal(twice.status, 409);
    assert.equal(twice.body.code, 'IDENTITY_TAKEN');
    const forged = await register(verified, person({ id_token: 'x.y.z' }).body);
    assert.equal(forged.status, 401);
    assert.equal(forged.body.code, 'INVALID_ID_TOKEN');
  });

  test('wrong codes are counted and lock the registration: then even the right code is refused', async () => {
    const p = person();
    const res = await register(verified, p.body);
    const code = await nthCode(p.e164);
    const wrongCode = code === '111111' ? '222222' : '111111';
    for (let i = 1; i <= 4; i++)
      assert.equal((await verify(verified, res.body.registration_id, wrongCode)).status, 422);
    const locked = await verify(verified, res.body.registration_id, wrongCode);
    assert.equal(locked.status, 429);
    assert.equal(locked.body.code, 'TOO_MANY_ATTEMPTS');
    assert.ok(Number(locked.headers.get('retry-after')) > 0);
    const right = await verify(verified, res.body.registration_id, code);
    assert.equal(right.status, 429, 'the right code during the lock');
  });

  test('a new code: refused before resend_after (429 with Retry-After), sent after it; only the newest code is accepted', async () => {
    const p = person();
    const res = await register(verified, p.body);
    const first = await nthCode(p.e164);
    const soon = await resend(verified, res.body.registration_id);
    assert.equal(soon.status, 429, JSON.stringify(soon.body));
    assert.equal(soon.body.code, 'RESEND_TOO_SOON');
    const wait = Number(soon.headers.get('retry-after'));
    assert.ok(wait >= 1 && wait <= 10, `Retry-After ${wait}`);
    const later = await waitFor(
      async () => {
        const r = await resend(verified, res.body.registration_id);
        if (r.status === 202) return r;
        assert.equal(r.body.code, 'RESEND_TOO_SOON');
        return null;
      },
      30_000,
      1_000,
    );
    assert.equal(later.body.status, 'awaiting_code');
    assert.equal(later.body.expires_at, res.body.expires_at, 'the registration keeps its expiry');
    const second = await nthCode(p.e164, 2);
    if (second !== first) {
      const old = await verify(verified, res.body.registration_id, first);
      assert.equal(old.status, 422, 'the first code no longer counts');
    }
    assert.equal((await verify(verified, res.body.registration_id, second)).status, 200);
    const closedNow = await resend(verified, res.body.registration_id);
    assert.equal(closedNow.status, 409);
    assert.equal(closedNow.body.code, 'REGISTRATION_CLOSED');
  });

  test('a registration nobody verifies expires by its durable timer: 410 for its code and for a new one', async () => {
    const p = person();
    const res = await register(verified, p.body, { via: shortLived });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const code = await nthCode(p.e164);
    const handle = app.running.temporal.workflow.getHandle(registrationWorkflowId(res.body.registration_id));
    assert.equal(await handle.result(), 'expired');
    const [row] = await app
      .em()
      .execute<{ status: string; password_hash: string | null }[]>(
        'select status, password_hash from app_registration where id = ?',
        [res.body.registration_id],
      );
    assert.deepEqual(row, { status: 'expired', password_hash: null });
    for (const late of [
      await verify(verified, res.body.registration_id, code),
      await resend(verified, res.body.registration_id),
    ]) {
      assert.equal(late.status, 410, JSON.stringify(late.body));
      assert.equal(late.body.code, 'REGISTRATION_EXPIRED');
    }
    assert.equal((await emailSignIn(verified, p.body.email as string)).status, 401, 'no account');
  });

  test('approval: the client admin of the business approves or rejects; an approved account signs in, a rejected one never exists', async () => {
    const [adminA, adminB, employeeA] = await Promise.all([
      app.login(a.users.admin.email, PASSWORD),
      app.login(b.users.admin.email, PASSWORD),
      app.login(a.users.employee.email, PASSWORD),
    ]);
    const p = person();
    const res = await register(verifiedApproval, p.body);
    const pending = await verify(verifiedApproval, res.body.registration_id, await nthCode(p.e164));
    assert.equal(pending.status, 202, JSON.stringify(pending.body));
    assert.equal(pending.body.status, 'pending_approval');
    assert.equal(pending.body.access_token, undefined, 'no session until approved');
    assert.equal((await emailSignIn(verifiedApproval, p.body.email as string)).status, 401);
    // The same email cannot be registered twice while the first waits.
    const dup = await register(verifiedApproval, { ...person().body, email: p.body.email });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.code, 'EMAIL_TAKEN');

    const q = person();
    const other = await register(approvalOnly, q.body);
    assert.equal(other.status, 202, 'no phone: pending at once');
    assert.equal(other.body.status, 'pending_approval');
    assert.equal(other.body.expires_at, null);

    const list = await app.http.get('/v1/app-registrations', { token: adminA });
    assert.equal(list.status, 200);
    const ids = list.body.registrations.map((r: { id: string }) => r.id);
    assert.ok(ids.includes(res.body.registration_id) && ids.includes(other.body.registration_id));
    const listed = list.body.registrations.find((r: { id: string }) => r.id === res.body.registration_id);
    assert.equal(listed.role, 'driver');
    assert.equal(listed.phone, p.e164);
    assert.equal(JSON.stringify(list.body).includes('hash'), false);
    const listB = await app.http.get('/v1/app-registrations', { token: adminB });
    assert.ok(!listB.body.registrations.some((r: { id: string }) => ids.includes(r.id)), "b sees none of a's");
    const crossed = await app.http.post(
      `/v1/app-registrations/${res.body.registration_id}/approve`,
      {},
      { token: adminB },
    );
    assert.equal(crossed.status, 404);
    assert.equal(
      (await app.http.post(`/v1/app-registrations/${res.body.registration_id}/approve`, {}, { token: employeeA }))
        .status,
      403,
    );
    assert.equal((await app.http.post('/v1/app-registrations/not-an-id/approve', {}, { token: adminA })).status, 404);

    const approved = await app.http.post(
      `/v1/app-registrations/${res.body.registration_id}/approve`,
      {},
      {
        token: adminA,
      },
    );
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    assert.equal(approved.body.registration.status, 'completed');
    const signedIn = await emailSignIn(verifiedApproval, p.body.email as string);
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    assert.equal(
      (await app.http.get('/v1/user/me', { token: signedIn.body.access_token })).body.role,
      'driver',
      "the driver app's role",
    );
    const twice = await app.http.post(
      `/v1/app-registrations/${res.body.registration_id}/reject`,
      {},
      {
        token: adminA,
      },
    );
    assert.equal(twice.status, 409);
    assert.equal(twice.body.code, 'REGISTRATION_CLOSED');

    const rejected = await app.http.post(
      `/v1/app-registrations/${other.body.registration_id}/reject`,
      {},
      {
        token: adminA,
      },
    );
    assert.equal(rejected.status, 200);
    assert.equal(rejected.body.registration.status, 'rejected');
    assert.equal((await emailSignIn(approvalOnly, q.body.email as string)).status, 401);
    const [none] = await app
      .em()
      .execute<{ n: number }[]>('select count(*)::int as n from app_user where email = ?', [q.body.email]);
    assert.equal(none!.n, 0, 'a rejected registration never gets an account');
    const listRejected = await app.http.get('/v1/app-registrations?status=rejected', { token: adminA });
    assert.ok(listRejected.body.registrations.some((r: { id: string }) => r.id === other.body.registration_id));
  });

  test('without phone verification or approval the account is made at once; a taken email is 409', async () => {
    const p = person();
    const res = await register(direct, p.body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.user.email, p.body.email);
    assert.equal((await app.http.get('/v1/user/me', { token: res.body.access_token })).status, 200);
    for (const email of [p.body.email, a.users.customer.email, a.users.admin.email.toUpperCase()]) {
      const taken = await register(direct, { ...person().body, email });
      assert.equal(taken.status, 409, String(email));
      assert.equal(taken.body.code, 'EMAIL_TAKEN');
    }
  });

  test('two registrations racing for one email: one takes it, the other is 409', async () => {
    for (const appCode of [approvalOnly, direct]) {
      const email = `race-${randomUUID().slice(0, 8)}@test.example`;
      const answers = await Promise.all([
        register(appCode, { ...person().body, email }),
        register(appCode, { ...person().body, email }),
      ]);
      assert.deepEqual(answers.map((r) => r.status).sort(), [appCode === direct ? 200 : 202, 409], appCode);
      assert.equal(answers.find((r) => r.status === 409)!.body.code, 'EMAIL_TAKEN');
    }
  });

  test('registration off is 403; an unknown or unbound app is APP_UNAVAILABLE', async () => {
    const off = await register(closed, person().body);
    assert.equal(off.status, 403);
    assert.equal(off.body.code, 'SIGN_IN_METHOD_OFF');
    for (const [appCode, client] of [
      ['no-such-app', a.business.code],
      [direct, b.business.code],
    ] as const) {
      const res = await register(appCode, person().body, { client });
      assert.equal(res.status, 403);
      assert.equal(res.body.code, 'APP_UNAVAILABLE');
    }
  });

  test('bad input is 422 naming each field, in the caller language, and writes nothing', async () => {
    const before = (await app.em().execute<{ n: number }[]>('select count(*)::int as n from app_registration'))[0]!.n;
    const bad = await app.http.post(
      base(verified),
      { ...person().body, phone: '123', device_id: 'x'.repeat(192), password: 'short', device_platform: 'web' },
      { lang: 'fr' },
    );
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.errors.map((e: { field: string }) => e.field).sort(), [
      'device_id',
      'device_platform',
      'password',
    ]);
    const badPhone = await app.http.post(base(verified), { ...person().body, phone: '601 123' }, { lang: 'fr' });
    assert.equal(badPhone.status, 422);
    assert.equal(badPhone.body.errors[0].field, 'phone');
    assert.match(badPhone.body.errors[0].message, /numéro de téléphone valide.*CZ/);
    const wrongShape = await verify(verified, randomUUID(), '12ab');
    assert.equal(wrongShape.status, 422);
    const after = (await app.em().execute<{ n: number }[]>('select count(*)::int as n from app_registration'))[0]!.n;
    assert.equal(after, before);
    assert.equal((await register(verified, { ...person().body, device_id: 'x'.repeat(191) })).status, 202);
  });

  test("a registration is its app and client's only: another client's path, or another app's, is 404", async () => {
    const p = person();
    const res = await register(verified, p.body);
    const code = await nthCode(p.e164);
    const elsewhere = await verify(verified, res.body.registration_id, code, b.business.code);
    assert.equal(elsewhere.status, 404);
    const otherApp = await verify(verifiedApproval, res.body.registration_id, code);
    assert.equal(otherApp.status, 404);
    assert.equal((await verify(verified, randomUUID(), code)).status, 404);
    assert.equal((await verify(verified, res.body.registration_id, code)).status, 200, 'still open for its own');
  });

  test('the sandbox is read by the platform admin only', async () => {
    const admin = await app.login(a.users.admin.email, PASSWORD);
    assert.equal((await app.http.get('/v1/platform/sms/sandbox-messages', { token: admin })).status, 403);
    assert.equal((await app.http.get('/v1/platform/sms/sandbox-messages')).status, 401);
  });
});
