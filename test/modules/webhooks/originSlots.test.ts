import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { OriginSlots } from '../../../src/modules/webhooks/originSlots.ts';
import { ENTITIES } from '../../../src/modules/index.ts';
import { createOrm, type Orm } from '../../../src/platform/db/orm.ts';
import { createLogger } from '../../../src/platform/logger.ts';
import { waitFor } from '../../helpers/wait.ts';

/** Several OriginSlots on one database stand for several worker processes. */
describe('retry slots per receiving origin, shared by every worker', () => {
  let orm: Orm;
  before(async () => {
    orm = await createOrm(process.env.DATABASE_URL!, ENTITIES, 4);
  });
  const workers: OriginSlots[] = [];
  after(async () => {
    for (const w of workers) await w.close();
    await orm.close();
  });
  const worker = (limit: number, leaseSec?: number) => {
    const w = new OriginSlots(orm, limit, createLogger('silent'), leaseSec);
    workers.push(w);
    return w;
  };
  const origin = () => `https://${randomUUID()}.example`;

  test('the limit holds across workers; other origins are not held back', async () => {
    const [a, b] = [worker(3), worker(3)];
    const o = origin();
    assert.deepEqual([await a.acquire(o, 0), await a.acquire(o, 0), await b.acquire(o, 0)], [true, true, true]);
    assert.equal(await b.acquire(o, 0), false, 'a fourth, from either worker, waits and gives up');
    assert.equal(await a.acquire(o, 150), false);
    assert.equal(a.heldBy(o) + b.heldBy(o), 3);
    assert.equal(await b.acquire(origin(), 0), true, 'another origin has slots of its own');
  });

  test('many attempts at once from two workers get exactly the limit', async () => {
    const [c, d] = [worker(5), worker(5)];
    const o = origin();
    const got = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? c : d).acquire(o, 300)));
    assert.equal(got.filter(Boolean).length, 5);
    assert.equal(c.heldBy(o) + d.heldBy(o), 5);
  });

  test('a released slot serves its worker at once and goes back to the others after a moment unused', async () => {
    const [a, b] = [worker(1), worker(1)];
    const o = origin();
    assert.equal(await a.acquire(o, 0), true);
    a.release(o);
    assert.equal(await a.acquire(o, 0), true, 'still in hand: no round trip');
    a.release(o);
    const started = Date.now();
    assert.equal(await b.acquire(o, 5_000), true, 'given back once unused');
    assert.ok(Date.now() - started >= 500, 'not before the worker stopped using it');
    assert.equal(a.heldBy(o), 0);
    b.release(o);
    await b.close();
    assert.equal(await a.acquire(o, 0), true, 'close() gives unused slots back at once');
  });

  test('attempts waiting for a busy origin are each served by a slot released in this worker, never above the limit', async () => {
    const w = worker(1);
    const o = origin();
    assert.equal(await w.acquire(o, 0), true);
    const served: number[] = [];
    let settled = 0;
    const waiting = [1, 2, 3].map((n) =>
      w.acquire(o, 30_000).then((got) => {
        settled++;
        if (got) served.push(n);
      }),
    );
    for (let i = 1; i <= 3; i++) {
      // Each release passes the slot on to one waiting attempt: the worker never holds more than the one it leased.
      w.release(o);
      await waitFor(async () => settled === i, 10_000, 5);
      assert.equal(w.heldBy(o), 1);
    }
    await Promise.all(waiting);
    assert.deepEqual(served.toSorted(), [1, 2, 3]);
    w.release(o);
    assert.equal(await w.acquire(o, 0), true, 'the last release returned it to the hand');
  });

  test("a worker that dies keeps its slots only until their lease ends; a live one's lease is renewed while used", async () => {
    const o = origin();
    const dead = worker(2, 1);
    assert.equal(await dead.acquire(o, 0), true);
    assert.equal(await dead.acquire(o, 0), true);
    const live = worker(2, 1);
    assert.equal(await live.acquire(o, 0), false);
    assert.equal(await live.acquire(o, 3_000), true, "the dead worker's lease ended");
    // The live worker keeps its slot past its lease by using it: the renewal happens on acquire.
    live.release(o);
    for (let i = 0; i < 6; i++) {
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(await live.acquire(o, 0), true);
      live.release(o);
    }
    const rows = await orm.em
      .fork()
      .execute<{ holder: string | null; live: boolean }[]>(
        'select holder, leased_until > now() as live from webhook_origin_slot where origin = ? order by slot',
        [o],
      );
    assert.equal(rows.filter((r) => r.live).length, live.heldBy(o));
    assert.ok(live.heldBy(o) >= 1);
  });
});
