// Standalone app sign-in (docs/apps.md, Sign-in) against a real OpenID Connect provider on the loopback: ID tokens
// come from its authorization code flow with PKCE, never from a hand-made signer.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { DEMO_APPS, type AppConfig } from '../../../src/modules/apps/index.ts';
import { cacheCaughtUp, startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makePlatformAdmin, PASSWORD } from '../../helpers/factories.ts';
import { startIdentityProvider, type IdentityProvider } from '../../helpers/identityProvider.ts';

const [customerDemo, driverDemo] = DEMO_APPS;
const { code: _c, ...CUSTOMER } = customerDemo!;
const { code: _d, ...DRIVER } = driverDemo!;
const CUSTOMER_AUDIENCE = 'tms-customer-app';
const withAudience = (c: AppConfig, aud: string): AppConfig => {
  const copy = structuredClone(c);
  copy.authentication.idp.server_client_id = aud;
  return copy;
};

describe('standalone apps (A2): sign-in with the identity provider and with email', () => {
  let idp: IdentityProvider;
  let app: TestApp;
  let admin: string;
  let a: Awaited<ReturnType<typeof makeBusiness>>;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let customerApp: string;
  let driverApp: string;
  const device = { device_id: 'device-1', device_platform: 'ios' };
  const email = (appCode: string, client: string, body: Record<string, unknown>) =>
    app.http.post(`/v1/apps/${appCode}/clients/${client}/auth/email`, { ...device, ...body });
  const viaIdp = (appCode: string, client: string, idToken: string, extra: Record<string, unknown> = {}) =>
    app.http.post(`/v1/apps/${appCode}/clients/${client}/auth/idp`, { ...device, id_token: idToken, ...extra });
  /** A person of the provider with a fresh subject, linked to `account` when given (through user_identity_link). */
  const person = async (account?: { email: string }, personEmail = `p-${randomUUID().slice(0, 8)}@idp.example`) => {
    const subject = `sub-${randomUUID()}`;
    idp.accounts.set(subject, { email: personEmail, name: 'Someone' });
    if (account) {
      const token = await app.login(account.email, PASSWORD);
      const linked = await app.http.post(
        '/v1/user/identity',
        { id_token: await idp.idToken('tms-web', subject) },
        { token },
      );
      assert.equal(linked.status, 200, JSON.stringify(linked.body));
    }
    return subject;
  };
  const configureBound = async (c: AppConfig, business = a) => {
    const appCode = `s-${randomUUID().slice(0, 8)}`;
    assert.equal((await app.http.put(`/v1/platform/apps/${appCode}`, c, { token: admin })).status, 200);
    const bound = await app.http.put(
      `/v1/platform/apps/${appCode}/clients/${business.business.code}`,
      {},
      { token: admin },
    );
    assert.equal(bound.status, 200);
    return appCode;
  };

  before(async () => {
    idp = await startIdentityProvider([CUSTOMER_AUDIENCE, 'tms-driver-app', 'someone-else', 'tms-web']);
    app = await startApp(
      {
        IDP_ISSUER: idp.issuer,
        IDP_JWKS_URL: idp.jwksUrl,
        IDP_WEB_CLIENT_ID: 'tms-web',
        IDP_CLOCK_TOLERANCE_SECONDS: '0',
      },
      { worker: false },
    );
    const em = app.em();
    a = await makeBusiness(em);
    b = await makeBusiness(em);
    const adminEmail = await makePlatformAdmin(em);
    admin = await app.login(adminEmail, PASSWORD);
    customerApp = await configureBound(withAudience(CUSTOMER as AppConfig, CUSTOMER_AUDIENCE));
    driverApp = await configureBound(DRIVER as AppConfig);
  });
  after(async () => {
    await app?.running.close();
    await idp?.close();
  });

  test("email sign-in answers the specification's app session, and its token works on REST, GraphQL and MCP", async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await email(customerApp, a.business.code, { email: a.users.customer.email, password: PASSWORD });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const s = res.body;
    assert.deepEqual(Object.keys(s).sort(), [
      'access_token',
      'app_context',
      'expires_at',
      'expires_timestamp',
      'result',
      'token_type',
      'user',
    ]);
    assert.equal(s.result, true);
    assert.equal(s.token_type, 'Bearer');
    assert.match(s.expires_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.equal(s.expires_at, new Date(s.expires_timestamp * 1000).toISOString().slice(0, 19).replace('T', ' '));
    assert.ok(s.expires_timestamp >= before + 24 * 3600 - 5 && s.expires_timestamp <= before + 24 * 3600 + 5);
    assert.deepEqual(s.user, { id: a.users.customer.id, name: a.users.customer.name, email: a.users.customer.email });
    assert.deepEqual(s.app_context, {
      app_code: customerApp,
      client_code: a.business.code,
      client_name: a.business.name,
      configuration_version: 2,
    });

    const token = s.access_token as string;
    const me = await app.http.get('/v1/user/me', { token });
    assert.equal(me.status, 200);
    assert.equal(me.body.role, 'customer');
    const gql = await app.http.graphql('{ userMe { id role } }', {}, { token });
    assert.deepEqual(gql.body.data.userMe, { id: a.users.customer.id, role: 'customer' });
    const mcp = new Client({ name: 'tms-app-session-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const tools = await mcp.listTools();
      assert.ok(tools.tools.length > 0, 'the customer sees its tools');
    } finally {
      await mcp.close();
    }
  });

  test('email sign-in refuses a wrong password, another role and another client; the client code alone grants nothing', async () => {
    const wrong = await email(customerApp, a.business.code, { email: a.users.customer.email, password: 'nope-nope' });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.code, 'INVALID_CREDENTIALS');
    const unknown = await email(customerApp, a.business.code, { email: 'nobody@test.example', password: PASSWORD });
    assert.equal(unknown.status, 401);
    assert.equal(unknown.body.code, 'INVALID_CREDENTIALS');

    for (const who of [a.users.driver, a.users.employee, a.users.admin]) {
      const res = await email(customerApp, a.business.code, { email: who.email, password: PASSWORD });
      assert.equal(res.status, 403, who.email);
      assert.equal(res.body.code, 'ROLE_NOT_ALLOWED');
    }
    const driver = await email(driverApp, a.business.code, { email: a.users.driver.email, password: PASSWORD });
    assert.equal(driver.status, 200);
    const customerOnDriverApp = await email(driverApp, a.business.code, {
      email: a.users.customer.email,
      password: PASSWORD,
    });
    assert.equal(customerOnDriverApp.body.code, 'ROLE_NOT_ALLOWED');

    // b's customer, with a's client code: refused. Bound to b as well, the app signs b's customer in for b only.
    const other = await email(customerApp, a.business.code, { email: b.users.customer.email, password: PASSWORD });
    assert.equal(other.status, 403);
    assert.equal(other.body.code, 'CLIENT_NOT_ALLOWED');
    await app.http.put(`/v1/platform/apps/${customerApp}/clients/${b.business.code}`, {}, { token: admin });
    const own = await email(customerApp, b.business.code, { email: b.users.customer.email, password: PASSWORD });
    assert.equal(own.status, 200);
    assert.equal(own.body.app_context.client_code, b.business.code);
    const crossed = await email(customerApp, b.business.code, { email: a.users.customer.email, password: PASSWORD });
    assert.equal(crossed.body.code, 'CLIENT_NOT_ALLOWED');
  });

  test('an unknown, unbound or switched-off app answers APP_UNAVAILABLE alike; a method the app does not offer is refused', async () => {
    const body = { email: a.users.customer.email, password: PASSWORD };
    for (const [appCode, client] of [
      ['no-such-app', a.business.code],
      [customerApp, 'NO-SUCH-CLIENT'],
      [driverApp, b.business.code],
    ] as const) {
      const res = await email(appCode, client, body);
      assert.equal(res.status, 403, `${appCode}/${client}`);
      assert.equal(res.body.code, 'APP_UNAVAILABLE');
    }
    const off = await configureBound(withAudience(CUSTOMER as AppConfig, CUSTOMER_AUDIENCE));
    await app.http.put(`/v1/platform/apps/${off}/availability`, { available: false }, { token: admin });
    assert.equal((await email(off, a.business.code, body)).body.code, 'APP_UNAVAILABLE');

    const idpOff = await viaIdp(driverApp, a.business.code, await idp.idToken('tms-driver-app', await person()));
    assert.equal(idpOff.status, 403);
    assert.equal(idpOff.body.code, 'SIGN_IN_METHOD_OFF');
    const noEmail = structuredClone(CUSTOMER) as AppConfig;
    noEmail.authentication.methods.email = false;
    const emailOff = await email(await configureBound(withAudience(noEmail, CUSTOMER_AUDIENCE)), a.business.code, body);
    assert.equal(emailOff.status, 403);
    assert.equal(emailOff.body.code, 'SIGN_IN_METHOD_OFF');
  });

  test('bad requests answer 422 naming the field, in the caller language', async () => {
    const body = { email: a.users.customer.email, password: PASSWORD };
    const long = await email(customerApp, a.business.code, { ...body, device_id: 'x'.repeat(192) });
    assert.equal(long.status, 422);
    assert.deepEqual(
      long.body.errors.map((e: { field: string }) => e.field),
      ['device_id'],
    );
    assert.equal(
      (await email(customerApp, a.business.code, { ...body, device_id: 'x'.repeat(191) })).status,
      200,
      '191 characters are allowed',
    );
    const platform = await viaIdp(customerApp, a.business.code, 'x', { device_platform: 'web', app_version: 'v1' });
    assert.equal(platform.status, 422);
    assert.deepEqual(platform.body.errors.map((e: { field: string }) => e.field).sort(), [
      'app_version',
      'device_platform',
    ]);
    const missing = await app.http.post(
      `/v1/apps/${customerApp}/clients/${a.business.code}/auth/idp`,
      {},
      { lang: 'de' },
    );
    assert.equal(missing.status, 422);
    assert.match(missing.body.message, /[äöüß]|Eingabe|ungültig/i);
  });

  test('identity provider sign-in admits the account bound to the identity, the binding the web made', async () => {
    const subject = await person(a.users.customer);
    const res = await viaIdp(customerApp, a.business.code, await idp.idToken(CUSTOMER_AUDIENCE, subject), {
      app_version: '1.3.2',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.user.id, a.users.customer.id);
    assert.equal(res.body.app_context.app_code, customerApp);
    const me = await app.http.get('/v1/user/me', { token: res.body.access_token });
    assert.equal(me.body.email, a.users.customer.email);
    const stored = await app
      .em()
      .execute(
        "select device_id, device_platform, app_roles from auth_token where token_hash = encode(sha256(?::bytea), 'hex')",
        [res.body.access_token],
      );
    assert.deepEqual(stored, [{ device_id: 'device-1', device_platform: 'ios', app_roles: ['customer'] }]);
  });

  test('identity provider sign-in refuses a token for another audience, an expired one and a forged one (401)', async () => {
    const subject = await person();
    // Linked to nobody, yet the token checks come first: each is 401 whatever the binding.
    const other = await viaIdp(customerApp, a.business.code, await idp.idToken('someone-else', subject));
    assert.equal(other.status, 401);
    assert.equal(other.body.code, 'INVALID_ID_TOKEN');
    const webToken = await viaIdp(customerApp, a.business.code, await idp.idToken('tms-web', subject));
    assert.equal(webToken.body.code, 'INVALID_ID_TOKEN', "the web's audience is not the app's");

    idp.idTokenTtl = 1;
    let expired: string;
    try {
      expired = await idp.idToken(CUSTOMER_AUDIENCE, subject);
    } finally {
      idp.idTokenTtl = 3600;
    }
    await new Promise((r) => setTimeout(r, 2_100));
    const late = await viaIdp(customerApp, a.business.code, expired);
    assert.equal(late.status, 401);
    assert.equal(late.body.code, 'INVALID_ID_TOKEN');

    const good = await idp.idToken(CUSTOMER_AUDIENCE, subject);
    const [h, p, sig] = good.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'someone-important' })).toString('base64url')}.${sig}`;
    for (const bad of [
      forged,
      `${h}.${p}.`,
      'not-a-token',
      good.replace(/^[^.]+/, Buffer.from('{"alg":"none"}').toString('base64url')),
    ]) {
      const res = await viaIdp(customerApp, a.business.code, bad);
      assert.equal(res.status, 401, bad.slice(0, 20));
      assert.equal(res.body.code, 'INVALID_ID_TOKEN');
      assert.ok(!JSON.stringify(res.body).includes(bad), 'the token is not echoed');
    }
  });

  test('an unknown identity needs registration (409); an unbound identity with an account’s email is a conflict (409)', async () => {
    const stranger = await person();
    const res = await viaIdp(customerApp, a.business.code, await idp.idToken(CUSTOMER_AUDIENCE, stranger));
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'REGISTRATION_REQUIRED');
    const lookalike = await person(undefined, a.users.customer.email);
    const conflict = await viaIdp(customerApp, a.business.code, await idp.idToken(CUSTOMER_AUDIENCE, lookalike));
    assert.equal(conflict.status, 409);
    assert.equal(conflict.body.code, 'IDENTITY_CONFLICT');
  });

  test('identity provider sign-in refuses a role the app does not sign in and a client the account is not of (403)', async () => {
    const driverSubject = await person(a.users.driver);
    const role = await viaIdp(customerApp, a.business.code, await idp.idToken(CUSTOMER_AUDIENCE, driverSubject));
    assert.equal(role.status, 403);
    assert.equal(role.body.code, 'ROLE_NOT_ALLOWED');
    const outsider = await person(b.users.customer);
    const client = await viaIdp(customerApp, a.business.code, await idp.idToken(CUSTOMER_AUDIENCE, outsider));
    assert.equal(client.status, 403);
    assert.equal(client.body.code, 'CLIENT_NOT_ALLOWED');
  });

  test('one identity per account and one account per identity; unlinking ends identity sign-in', async () => {
    const subject = await person(a.users.employee);
    const employeeToken = await app.login(a.users.employee.email, PASSWORD);
    const again = await app.http.post(
      '/v1/user/identity',
      { id_token: await idp.idToken('tms-web', subject) },
      { token: employeeToken },
    );
    assert.equal(again.status, 200, 'linking the same again answers as the first time');
    const second = await person();
    const another = await app.http.post(
      '/v1/user/identity',
      { id_token: await idp.idToken('tms-web', second) },
      { token: employeeToken },
    );
    assert.equal(another.status, 409);
    assert.equal(another.body.code, 'IDENTITY_CONFLICT');
    const brokerToken = await app.login(a.users.broker.email, PASSWORD);
    const taken = await app.http.post(
      '/v1/user/identity',
      { id_token: await idp.idToken(CUSTOMER_AUDIENCE, subject) },
      { token: brokerToken },
    );
    assert.equal(
      taken.status,
      409,
      "an app's audience of the account's business is accepted, and the identity is taken",
    );
    assert.equal(taken.body.code, 'IDENTITY_CONFLICT');
    const foreign = await app.http.post(
      '/v1/user/identity',
      { id_token: await idp.idToken('someone-else', second) },
      { token: brokerToken },
    );
    assert.equal(
      foreign.body.code,
      'INVALID_ID_TOKEN',
      'an audience that is neither the web nor an app of the business',
    );

    assert.equal((await app.http.del('/v1/user/identity', { token: employeeToken })).status, 200);
    assert.equal((await app.http.del('/v1/user/identity', { token: employeeToken })).status, 404);
    const c = await makeBusiness(app.em());
    await app.http.put(`/v1/platform/apps/${customerApp}/clients/${c.business.code}`, {}, { token: admin });
    const customerSubject = await person(c.users.customer);
    const idToken = await idp.idToken(CUSTOMER_AUDIENCE, customerSubject);
    assert.equal((await viaIdp(customerApp, c.business.code, idToken)).status, 200);
    const customerToken = await app.login(c.users.customer.email, PASSWORD);
    assert.equal((await app.http.del('/v1/user/identity', { token: customerToken })).status, 200);
    const gone = await viaIdp(customerApp, c.business.code, idToken);
    assert.equal(gone.body.code, 'REGISTRATION_REQUIRED');
  });

  test("an app session is refused once the account leaves the app's role or client; a web session is not", async () => {
    const c = await makeBusiness(app.em());
    const appCode = await configureBound(withAudience(CUSTOMER as AppConfig, CUSTOMER_AUDIENCE), c);
    const session = await email(appCode, c.business.code, { email: c.users.customer.email, password: PASSWORD });
    const appToken = session.body.access_token as string;
    const webToken = await app.login(c.users.customer.email, PASSWORD);
    await app.em().execute("update app_user set role = 'employee' where id = ?", [c.users.customer.id]);
    await cacheCaughtUp(app, app);
    assert.equal((await app.http.get('/v1/user/me', { token: appToken })).status, 401);
    assert.equal((await app.http.get('/v1/user/me', { token: webToken })).status, 200);
    await app.em().execute("update app_user set role = 'customer' where id = ?", [c.users.customer.id]);
    await cacheCaughtUp(app, app);
    assert.equal((await app.http.get('/v1/user/me', { token: appToken })).status, 200);
  });

  test('without a configured provider identity sign-in is off; with an unreachable one it answers 503', async () => {
    const bare = await startApp({ IDP_ISSUER: '', IDP_JWKS_URL: '' }, { worker: false });
    const dead = await startApp(
      { IDP_ISSUER: idp.issuer, IDP_JWKS_URL: 'http://127.0.0.1:9/jwks', IDP_CLOCK_TOLERANCE_SECONDS: '0' },
      { worker: false },
    );
    try {
      const token = await idp.idToken(CUSTOMER_AUDIENCE, await person());
      const off = await bare.http.post(`/v1/apps/${customerApp}/clients/${a.business.code}/auth/idp`, {
        ...device,
        id_token: token,
      });
      assert.equal(off.status, 403);
      assert.equal(off.body.code, 'SIGN_IN_METHOD_OFF');
      const down = await dead.http.post(`/v1/apps/${customerApp}/clients/${a.business.code}/auth/idp`, {
        ...device,
        id_token: token,
      });
      assert.equal(down.status, 503);
      assert.equal(down.body.code, 'IDP_UNAVAILABLE');
    } finally {
      await bare.running.close();
      await dead.running.close();
    }
  });
});
