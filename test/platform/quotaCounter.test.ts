import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { ENTITIES } from '../../src/modules/index.ts';
import { createOrm, type Orm } from '../../src/platform/db/orm.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { QuotaCounter } from '../../src/platform/quotaCounter.ts';

/** Two counters stand for two API processes on one database. */
describe('rate limit counts', () => {
  let orm: Orm;
  before(async () => {
    orm = await createOrm(process.env.DATABASE_URL!, ENTITIES, 2);
  });
  after(() => orm.close());

  const hitsOf = async (subject: string) =>
    (
      await orm.em
        .fork()
        .execute<{ hits: number }[]>("select hits from rate_limit_window where policy = 'test' and subject = ?", [
          subject,
        ])
    )[0]?.hits ?? 0;
  const counter = () => new QuotaCounter(orm, createLogger('silent'));

  test('far from the quota a request costs no write: counts are added together, none is lost', async () => {
    const a = counter();
    const subject = randomUUID();
    const quota = { limit: 1000, windowSeconds: 60 };
    const answers = [];
    // No I/O between these calls after the first, so no flush can run among them.
    for (let i = 0; i < 50; i++) answers.push((await a.count(orm.em.fork(), 'test', subject, quota)).hits);
    assert.deepEqual(
      answers,
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    assert.equal(await hitsOf(subject), 1, 'only the first request of the window was written before its answer');
    await a.stop();
    assert.equal(await hitsOf(subject), 50);
  });

  test('near the quota every request is counted in PostgreSQL first, so two processes together stop at the quota', async () => {
    const a = counter();
    const b = counter();
    const subject = randomUUID();
    const quota = { limit: 30, windowSeconds: 60 };
    const spend = async (c: QuotaCounter, n: number) => {
      const hits = [];
      for (let i = 0; i < n; i++) hits.push((await c.count(orm.em.fork(), 'test', subject, quota)).hits);
      return hits;
    };
    await spend(a, 10);
    await spend(b, 10);
    await a.stop();
    await b.stop();
    assert.equal(await hitsOf(subject), 20);
    const c = counter();
    const d = counter();
    const near = [...(await spend(c, 5)), ...(await spend(d, 5)), ...(await spend(c, 1)), ...(await spend(d, 1))];
    assert.deepEqual(
      near,
      [21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32],
      'each count is the shared total: 31 and 32 are refused',
    );
    await c.stop();
    await d.stop();
  });
});
