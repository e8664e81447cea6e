import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { cacheCaughtUp, startApp, type TestApp } from '../helpers/app.ts';
import { makeBusiness } from '../helpers/factories.ts';
import { waitFor } from '../helpers/wait.ts';

/** Two API processes on one database: each keeps callers and switches until PostgreSQL reports a change. */
describe('the read cache', () => {
  let a: TestApp;
  let b: TestApp;
  before(async () => {
    a = await startApp({}, { worker: false });
    b = await startApp({}, { worker: false });
  });
  after(async () => {
    await a?.running.close();
    await b?.running.close();
  });

  /** Runs `change` and waits until `app`'s cache has heard of it. */
  const heard = async (app: TestApp, change: () => Promise<unknown>) => {
    await change();
    await cacheCaughtUp(app, app);
  };
  /** Runs SQL in a session whose triggers are off, so no notification is sent: what a cache keeps stays as it was. */
  const silently = (app: TestApp, sql: string, params: unknown[]) =>
    app.em().transactional(async (em) => {
      await em.execute('set local session_replication_role = replica');
      await em.execute(sql, params);
    });
  const expire =
    "update auth_token set expires_at = now() - interval '1 second' where token_hash = encode(sha256(?::bytea), 'hex')";

  test('a caller is kept until the change is heard; signing out through one process is refused by the other', async () => {
    const token = await a.login('employee@demo.example');
    await cacheCaughtUp(a, b);
    assert.equal((await b.http.get('/v1/user/me', { token })).status, 200);
    // Would fail without the cache: the token has expired in the database, but no notification said so.
    await silently(a, expire, [token]);
    assert.equal((await b.http.get('/v1/user/me', { token })).status, 200, 'kept: nothing reported the change');
    await heard(b, () => a.em().execute("notify read_cache, 'auth_token'"));
    assert.equal((await b.http.get('/v1/user/me', { token })).status, 401);

    const other = await a.login('employee@demo.example');
    assert.equal((await a.http.get('/v1/user/me', { token: other })).status, 200);
    assert.equal((await b.http.get('/v1/user/me', { token: other })).status, 200);
    await heard(b, async () => assert.equal((await a.http.post('/v1/user/logout', {}, { token: other })).status, 200));
    assert.equal(
      (await a.http.get('/v1/user/me', { token: other })).status,
      401,
      'the process that signed out forgets before it answers',
    );
    assert.equal((await b.http.get('/v1/user/me', { token: other })).status, 401);
  });

  test("a business switch turned off is refused once the trigger's notification arrives", async () => {
    const t = await makeBusiness(a.em());
    const token = await a.login(t.users.admin.email, 'test-password-1');
    assert.equal((await b.http.get('/v1/broker-order-assignments', { token })).status, 200);
    await heard(b, () =>
      a.em().execute('update business set assignment_module_enabled = false where id = ?', [t.business.id]),
    );
    const off = await b.http.get('/v1/broker-order-assignments', { token });
    assert.equal(off.status, 403);
    assert.equal(off.body.code, 'MODULE_DISABLED');
  });

  test('while its connection is lost nothing is kept; it listens again and empties once back', async () => {
    const listeners = async () =>
      (
        await a
          .em()
          .execute<{ pid: number }[]>(
            "select pid from pg_stat_activity where datname = current_database() and query = 'listen read_cache'",
          )
      ).map((r) => r.pid);
    const [before] = await waitFor(async () => {
      const pids = await listeners();
      return pids.length === 2 && pids;
    });
    const token = await a.login('employee@demo.example');
    await cacheCaughtUp(a, a);
    assert.equal((await a.http.get('/v1/user/me', { token })).status, 200);
    // Nothing else is left to hear, so the next time the cache empties is when it sees its connection go.
    const clears = a.running.reads!.clears;
    await a
      .em()
      .execute(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query = 'listen read_cache'",
      );
    await waitFor(async () => a.running.reads!.clears > clears, 5_000, 5);
    // Emptied when the connection went: a change no notification reports is seen at once.
    await silently(a, expire, [token]);
    assert.equal((await a.http.get('/v1/user/me', { token })).status, 401);
    const after = await waitFor(async () => {
      const pids = await listeners();
      return pids.length === 2 && !pids.includes(before!) && pids;
    }, 15_000);
    assert.equal(after.length, 2);
  });
});
