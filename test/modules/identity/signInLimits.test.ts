import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { startApp, type Reply, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, PASSWORD } from '../../helpers/factories.ts';

/** What a caller can tell from an answer: status, code and wait (a long wait to ten seconds, as a second may pass while it is read). */
function seen(r: Reply): string {
  const wait = Number(r.headers.get('retry-after') ?? 0);
  return `${r.status} ${r.body.code} ${wait > 10 ? `~${Math.round(wait / 10) * 10}` : wait}`;
}

describe('sign-in slows down and then refuses an email after wrong passwords', () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  const signIn = (email: string, password: string, lang?: string) =>
    app.http.post('/v1/user/login', { email, password }, { lang });

  before(async () => {
    app = await startApp({ SIGN_IN_MAX_FAILURES: '5', SIGN_IN_LOCK_SECONDS: '600' }, { worker: false });
    b = await makeBusiness(app.em());
  });
  after(() => app.running.close());

  /** Wrong passwords until the lock, each wait taken as Retry-After asks; the right password is tried during each wait. */
  async function runToLock(email: string, password: string): Promise<string[]> {
    const answers: string[] = [];
    for (let failures = 0; failures < 5;) {
      const wrong = await signIn(email, 'not-the-password');
      answers.push(seen(wrong));
      if (wrong.status === 401 && ++failures < 3) continue;
      // From the third wrong password the email is held back: the right one is refused too, without being checked.
      const held = await signIn(email, password);
      answers.push(seen(held));
      if (failures < 5) await sleep(Number(held.headers.get('retry-after')) * 1000);
    }
    return answers;
  }

  test('the same answers whether or not an account has the email: 401 three times, then held back 1 s, 2 s, then locked', async () => {
    const known = await runToLock(b.users.driver.email, PASSWORD);
    const unknown = await runToLock(`nobody-${randomUUID().slice(0, 8)}@test.example`, PASSWORD);
    assert.deepEqual(known, [
      '401 INVALID_CREDENTIALS 0',
      '401 INVALID_CREDENTIALS 0',
      '401 INVALID_CREDENTIALS 0',
      '429 TOO_MANY_ATTEMPTS 1',
      '401 INVALID_CREDENTIALS 0',
      '429 TOO_MANY_ATTEMPTS 2',
      '401 INVALID_CREDENTIALS 0',
      '429 TOO_MANY_ATTEMPTS ~600',
    ]);
    assert.deepEqual(unknown, known);

    const locked = await signIn(b.users.driver.email, PASSWORD, 'es');
    assert.equal(locked.status, 429);
    assert.match(locked.body.message, /Demasiados inicios de sesión fallidos/);
    assert.equal(locked.body.retry_after, Number(locked.headers.get('retry-after')));
    assert.equal((await signIn(b.users.employee.email, PASSWORD)).status, 200, 'another email of the same business');
  });

  test('a right password clears the count: the slow-down starts again from the first wrong one', async () => {
    const email = b.users.customer.email;
    for (let i = 0; i < 2; i++) assert.equal((await signIn(email, 'wrong')).status, 401);
    assert.equal((await signIn(email, PASSWORD)).status, 200);
    for (let i = 0; i < 2; i++) assert.equal((await signIn(email, 'wrong')).status, 401);
    assert.equal((await signIn(email, PASSWORD)).status, 200);
  });

  test('thirty wrong passwords at once: no more than the limit is judged, the others are told how long to wait', async () => {
    const email = b.users.broker.email;
    const answers = await Promise.all(Array.from({ length: 30 }, () => signIn(email, 'wrong')));
    assert.ok(answers.every((a) => a.status === 401 || (a.status === 429 && a.body.code === 'TOO_MANY_ATTEMPTS')));
    // Judged one after another: three before the first wait, then one per wait that has run out, at most five.
    const judged = answers.filter((a) => a.status === 401).length;
    assert.ok(judged >= 3 && judged <= 5, `${judged} judged`);
    assert.ok(answers.filter((a) => a.status === 429).every((a) => Number(a.headers.get('retry-after')) >= 1));
  });

  test('the counts are kept under a hash of the email, not the email', async () => {
    const rows = await app
      .em()
      .execute<{ subject: string }[]>("select subject from code_attempt where kind = 'sign_in'");
    assert.ok(rows.length > 0);
    assert.ok(
      rows.every((r) => /^email:[0-9a-f]{40}$/.test(r.subject)),
      JSON.stringify(rows),
    );
  });
});
