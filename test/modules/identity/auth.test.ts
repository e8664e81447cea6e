import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { waitFor } from '../../helpers/wait.ts';

describe('sign-in, tokens and the caller', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({}, { worker: false });
  });
  after(() => app.running.close());

  test('login answers a bearer token with expiry; /me answers the caller and business', async () => {
    const res = await app.http.post('/v1/user/login', { email: 'Admin@Demo.example', password: 'demo-password' });
    assert.equal(res.status, 200);
    assert.equal(res.body.token_type, 'Bearer');
    assert.match(res.body.expires_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.ok(res.headers.get('x-request-id'));
    const me = await app.http.get('/v1/user/me', { token: res.body.access_token });
    assert.equal(me.status, 200);
    assert.deepEqual(
      { email: me.body.email, role: me.body.role, business: me.body.business.code },
      { email: 'admin@demo.example', role: 'client_admin', business: 'DEMO' },
    );
    const platform = await app.http.get('/v1/user/me', { token: await app.login('platform@demo.example') });
    assert.equal(platform.body.business, null);
  });

  test('wrong password and unknown email answer the same 401, translated', async () => {
    const wrong = await app.http.post(
      '/v1/user/login',
      { email: 'admin@demo.example', password: 'nope' },
      { lang: 'es' },
    );
    const unknown = await app.http.post(
      '/v1/user/login',
      { email: 'ghost@demo.example', password: 'nope' },
      { lang: 'es' },
    );
    assert.equal(wrong.status, 401);
    assert.deepEqual(wrong.body, unknown.body);
    assert.deepEqual(wrong.body, {
      result: false,
      code: 'INVALID_CREDENTIALS',
      message: 'El correo electrónico o la contraseña son incorrectos.',
    });
  });

  test('bad login input answers 422 naming the fields', async () => {
    const res = await app.http.post('/v1/user/login', { email: 'not-an-email', password: 5 });
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.errors.map((e: { field: string }) => e.field).sort(), ['email', 'password']);
    // As the published `format: email` reads an address: a local part of at most 64 characters; unknown fields refused.
    const long = await app.http.post('/v1/user/login', { email: `${'a'.repeat(65)}@demo.example`, password: 'x' });
    assert.deepEqual([long.status, long.body.errors?.[0]?.field], [422, 'email']);
    const extra = await app.http.post('/v1/user/login', {
      email: 'admin@demo.example',
      password: 'demo-password',
      remember: true,
    });
    assert.deepEqual([extra.status, extra.body.errors?.[0]?.field], [422, 'remember']);
  });

  test('logout revokes the token; a revoked, random or missing token answers 401', async () => {
    const token = await app.login('employee@demo.example');
    assert.equal((await app.http.post('/v1/user/logout', {}, { token })).status, 200);
    assert.equal((await app.http.get('/v1/user/me', { token })).status, 401);
    assert.equal((await app.http.get('/v1/user/me', { token: 'x'.repeat(43) })).status, 401);
    const none = await app.http.get('/v1/user/me');
    assert.equal(none.status, 401);
    assert.equal(none.body.code, 'UNAUTHENTICATED');
  });

  test('an expired token answers 401', async () => {
    const token = await app.login('employee@demo.example');
    assert.equal((await app.http.get('/v1/user/me', { token })).status, 200);
    const clears = app.running.reads!.clears;
    await app
      .em()
      .execute(
        "update auth_token set expires_at = now() - interval '1 second' where token_hash = encode(sha256(?::bytea), 'hex')",
        [token],
      );
    // The read cache keeps who the token belongs to until PostgreSQL reports the change (test/platform/readCache.test.ts).
    await waitFor(async () => app.running.reads!.clears > clears, 5_000, 5);
    assert.equal((await app.http.get('/v1/user/me', { token })).status, 401);
  });

  test('tokens and passwords are stored hashed', async () => {
    const token = await app.login('driver@demo.example');
    const rows = await app.em().execute('select count(*)::int as n from auth_token where token_hash = ?', [token]);
    assert.equal(rows[0]!.n, 0);
    const users = await app.em().execute("select password_hash from app_user where email = 'driver@demo.example'");
    assert.match(users[0]!.password_hash, /^scrypt\$/);
  });

  test('malformed JSON, wrong content type, unknown paths and methods get clear errors', async () => {
    const malformed = await app.http.post('/v1/user/login', undefined, { raw: '{"email":', lang: 'fr' });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.message, "Le corps de la requête n'est pas un JSON valide.");
    assert.equal(
      (await app.http.put('/v1/webhook-settings', undefined, { raw: '\n' })).status,
      400,
      'blanks alone are not JSON',
    );
    const form = await app.http.post('/v1/user/login', undefined, {
      raw: 'email=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(form.status, 415);
    assert.equal((await app.http.get('/v1/nothing-here')).status, 404);
    const wrongMethod = await app.http.get('/v1/user/login', { lang: 'de' });
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.body.code, 'METHOD_NOT_ALLOWED');
    // RFC 9110: a 405 names the methods the resource has.
    assert.equal(wrongMethod.headers.get('allow'), 'POST');
    const undeclared = await fetch(`${app.url}/api/v1/orders`, { method: 'PROPFIND' });
    assert.equal(undeclared.status, 405);
    assert.equal(undeclared.headers.get('allow'), 'HEAD, GET');
  });

  test('a concrete path shadows a templated one, as the OpenAPI document matches them; OPTIONS lists the methods', async () => {
    // `/v1/otep/trackings/batch` is the batch read (POST), not the timeline of a tracking number called batch.
    const get = await app.http.get('/v1/otep/trackings/batch');
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
    const options = await fetch(`${app.url}/api/v1/otep/trackings/batch`, { method: 'OPTIONS' });
    assert.equal(options.status, 204);
    assert.equal(options.headers.get('allow'), 'POST');
    assert.equal(
      (await fetch(`${app.url}/api/v1/orders/1`, { method: 'OPTIONS' })).headers.get('allow'),
      'HEAD, GET, DELETE',
    );
    assert.equal(
      (await app.http.get('/v1/otep/trackings/NOT-A-NUMBER-1')).status,
      404,
      'the templated path still answers',
    );
  });
});
