// An async order batch survives a killed worker (docs/orders.md, "Bulk and async intake"): the worker runs as its own
// OS process and is killed (SIGKILL) while a chunk has inserted its orders and not yet committed; a new worker
// finishes the batch, and every row created exactly one order. Real parts: the suite's Temporal, PostgreSQL, the API
// over HTTP, a worker process of its own.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { orderBatchWorkflowId } from '../../src/modules/order-batches/contract.ts';
import { CHUNK_ROWS } from '../../src/modules/order-batches/domain.ts';
import type { orderBatchWorkflow } from '../../src/modules/order-batches/workflows.ts';
import type { Em } from '../../src/platform/db/orm.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { keepEvents, makeBusiness, orderArguments, PASSWORD } from '../helpers/factories.ts';
import { spawnRole, stopChild } from '../helpers/roles.ts';
import { waitFor } from '../helpers/wait.ts';

/** Three chunks: the second is the one the worker dies in. */
const ROWS = CHUNK_ROWS * 2 + 10;

describe('an async order batch survives a killed worker', () => {
  const children = new Set<ChildProcess>();
  let app: TestApp;

  before(async () => {
    // The API only: the worker runs in a child process the test kills.
    app = await startApp({}, { worker: false });
  });
  after(async () => {
    for (const child of children) await stopChild(child, 'SIGKILL');
    await app?.running.close();
  });

  test('a SIGKILL mid-chunk creates every row exactly once', { timeout: 240_000 }, async () => {
    const b = await makeBusiness(app.em());
    await keepEvents(app.em(), b.business.id);
    const admin = await app.login(b.users.admin.email, PASSWORD);
    const tag = `restart-${Date.now()}`;
    const rows = Array.from({ length: ROWS }, (_, i) => orderArguments(`${tag}-${i}`));

    // The first row of the second chunk is held by this test's transaction: the second chunk inserts its orders,
    // then waits on that row to mark its rows done, uncommitted, which is where the worker dies.
    const holder = app.running.orm.em.fork();
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => (release = r));
    let holding: Promise<void> | undefined;

    // A first worker registers the namespace's search attributes and leaves. The batch is then stored with no worker
    // running: its process waits for the next worker, which starts once the row is held.
    await stopChild((await spawnRole('worker', {}, children)).child, 'SIGTERM');
    const res = await app.http.post('/v1/client/batchOrderCreateAsync', { orders: rows }, { token: admin });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const asyncId = res.body.asyncId as string;
    const [batch] = await app
      .em()
      .execute<{ id: number }[]>('select id from order_batch where async_id = ?', [asyncId]);
    const locked = new Promise<void>((resolve) => {
      holding = holder.transactional(async (tx: Em) => {
        await tx.execute('select 1 from order_batch_row where batch_id = ? and row_index = ? for update', [
          batch!.id,
          CHUNK_ROWS,
        ]);
        resolve();
        await released;
      });
    });
    await locked;
    let worker = await spawnRole('worker', {}, children);

    // The second chunk is waiting on the held row: its orders are inserted and not committed.
    await waitFor(async () => {
      const [w] = await app
        .em()
        .execute<{ n: number }[]>(
          "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like 'update order_batch_row%'",
        );
      return w!.n > 0;
    }, 60_000);
    const [mid] = await app
      .em()
      .execute<{ succeeded: number }[]>('select succeeded from order_batch where id = ?', [batch!.id]);
    assert.equal(mid!.succeeded, CHUNK_ROWS, 'the first chunk committed, the second not yet');
    await stopChild(worker.child, 'SIGKILL');
    release();
    await holding;
    worker = await spawnRole('worker', {}, children);

    const handle = app.running.temporal.workflow.getHandle<typeof orderBatchWorkflow>(orderBatchWorkflowId(asyncId));
    assert.deepEqual(await handle.result(), { total: ROWS, succeeded: ROWS, failed: 0 });

    const [counts] = await app.em().execute<{ orders: number; refs: number; created: number; events: number }[]>(
      `select (select count(*) from delivery_order where business_id = ? and order_ref like ?)::int as orders,
         (select count(distinct order_ref) from delivery_order where business_id = ? and order_ref like ?)::int as refs,
         (select count(*) from order_batch_row where batch_id = ? and state = 'created')::int as created,
         (select count(*) from outbox_event where event_type = 'order.create_async' and reference_id = ?)::int as events`,
      [b.business.id, `${tag}-%`, b.business.id, `${tag}-%`, batch!.id, asyncId],
    );
    assert.deepEqual(counts, { orders: ROWS, refs: ROWS, created: ROWS, events: 1 }, 'each row created once');
    const [linked] = await app.em().execute<{ n: number }[]>(
      `select count(*)::int as n from order_batch_row r join delivery_order o on o.id = r.order_id
       where r.batch_id = ? and o.order_ref = ? || '-' || r.row_index`,
      [batch!.id, tag],
    );
    assert.equal(linked!.n, ROWS, "each row's order is that row's");
    const shown = await app.http.get(`/v1/client/async/${asyncId}`, { token: admin });
    assert.deepEqual([shown.body.status, shown.body.succeeded, shown.body.pending], ['done', ROWS, 0]);
    await stopChild(worker.child, 'SIGTERM');
  });
});
