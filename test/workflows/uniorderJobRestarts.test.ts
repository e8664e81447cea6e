// A uniorder job of 500 label purchases survives a killed worker (docs/uniorder.md, "Jobs of 500"): the worker runs as
// its own OS process and is killed (SIGKILL) while purchases are with their carrier (their label orders committed
// pending, the carrier's own insert held by this test's lock); a new worker finishes the job, every item is reported,
// 500 label orders exist and the carrier holds exactly one label per order: none bought twice. Real parts: the
// suite's Temporal, PostgreSQL, the API over HTTP, a worker process of its own.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { progressQuery, uniorderJobWorkflowId } from '../../src/modules/uniorder/contract.ts';
import type { uniorderJob } from '../../src/modules/uniorder/workflows.ts';
import type { Em } from '../../src/platform/db/orm.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { spawnRole, stopChild } from '../helpers/roles.ts';
import { waitFor } from '../helpers/wait.ts';
import { labelWorld, RECIPIENT, SHIPPER } from '../modules/labels/world.ts';

const ITEMS = 500;
/**
 * The carrier waits on this test's lock while the worker dies: a carrier timeout longer than that wait. A label's
 * tracking process stays asleep (a sandbox day of a day), so the worker serves the job alone.
 */
const ENV = { LABEL_CARRIER_TIMEOUT_MS: '60000', SANDBOX_TRACKING_DAY_SECONDS: '86400' };

describe('a uniorder job survives a killed worker', () => {
  const children = new Set<ChildProcess>();
  let app: TestApp;

  before(async () => {
    // The API only: the worker runs in a child process the test kills.
    app = await startApp(ENV, { worker: false });
  });
  after(async () => {
    for (const child of children) await stopChild(child, 'SIGKILL');
    await app?.running.close();
  });

  test('a SIGKILL mid-purchase: every item reported, 500 labels, none bought twice', { timeout: 240_000 }, async () => {
    const w = await labelWorld(app);
    // 250 shipments rated by both carriers: 500 label rates, half of each carrier.
    const rateIds: string[] = [];
    for (let start = 0; start < ITEMS / 2; start += 20) {
      const items = Array.from({ length: Math.min(20, ITEMS / 2 - start) }, (_, i) => ({
        type: 'D',
        shipper: SHIPPER,
        recipient: RECIPIENT,
        parcels: [{ weight_grams: 1200 }],
        reference: `UJR-${start + i}`,
        quote_labels: true,
      }));
      const rated = await app.http.post('/v1/uniorder/rate/batch', { items }, { token: w.admin });
      assert.equal(rated.status, 200, JSON.stringify(rated.body));
      for (const r of rated.body.results)
        for (const carrier of ['sandbox_swift', 'sandbox_parcel'])
          rateIds.push(r.rates.find((x: any) => x.carrier === carrier).rate_id);
    }
    assert.equal(rateIds.length, ITEMS);

    let worker = await spawnRole('worker', ENV, children);
    const res = await app.http.post(
      '/v1/uniorder/batch-async',
      { items: rateIds.map((rate_id) => ({ rate_id })) },
      { token: w.admin },
    );
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const jobId = res.body.job_id as string;
    const handle = app.running.temporal.workflow.getHandle<typeof uniorderJob>(uniorderJobWorkflowId(jobId));
    const succeeded = async () =>
      (await app.em().execute<{ n: number }[]>('select succeeded as n from uniorder_job where id = ?', [jobId]))[0]!.n;
    await waitFor(async () => (await succeeded()) >= 100, 120_000);
    const midway = await handle.query(progressQuery);
    assert.equal(midway.total, ITEMS);
    assert.ok(midway.done >= 100 && midway.done < ITEMS, JSON.stringify(midway));
    assert.deepEqual(Object.keys(midway.lanes).sort(), ['sandbox_parcel', 'sandbox_swift']);
    assert.ok(
      Object.values(midway.lanes).every((l) => l.running <= 4),
      'at most 4 in flight per carrier',
    );

    // The carriers' inserts wait on this test's lock: the purchases in flight have their label orders committed
    // pending and their carrier call under way, which is where the worker dies.
    const holder = app.running.orm.em.fork();
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => (release = r));
    let holding: Promise<void> | undefined;
    await new Promise<void>((resolve) => {
      holding = holder.transactional(async (tx: Em) => {
        await tx.execute('lock table sandbox_shipment in exclusive mode');
        resolve();
        await released;
      });
    });
    await waitFor(async () => {
      const [waiting] = await app
        .em()
        .execute<{ n: number }[]>(
          "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like 'insert into sandbox_shipment%'",
        );
      return waiting!.n > 0;
    }, 60_000);
    const [pending] = await app
      .em()
      .execute<{ n: number }[]>(
        "select count(*)::int as n from label_order where business_id = ? and state = 'pending'",
        [w.business.id],
      );
    assert.ok(pending!.n > 0, 'purchases are with their carrier when the worker dies');
    await stopChild(worker.child, 'SIGKILL');
    release();
    await holding;
    worker = await spawnRole('worker', ENV, children);

    assert.deepEqual(await handle.result(), { total: ITEMS, succeeded: ITEMS, failed: 0 });

    const orderIds = new Set<number>();
    for (let page = 1; page <= 3; page++) {
      const read = await app.http.get(`/v1/uniorder/jobs/${jobId}?page=${page}&per_page=200`, { token: w.admin });
      assert.equal(read.status, 200, JSON.stringify(read.body).slice(0, 500));
      assert.equal(read.body.status, 'done');
      for (const item of read.body.items) {
        assert.equal(item.status, 'done', JSON.stringify(item));
        assert.equal(item.result.label.state, 'purchased');
        orderIds.add(item.result.order_id);
      }
    }
    assert.equal(orderIds.size, ITEMS, 'every item reported, each with its own order');

    const [counts] = await app.em().execute<{ orders: number; purchased: number; labels: number; doubled: number }[]>(
      `select (select count(*) from label_order where business_id = ?)::int as orders,
         (select count(*) from label_order where business_id = ? and state = 'purchased')::int as purchased,
         (select count(*) from sandbox_shipment where account_id in (${w.accounts.map((a) => Number(a.id)).join(', ')}) and state <> 'refused')::int as labels,
         (select count(*) from (
            select l.order_id from label_order l
            left join sandbox_shipment s on s.account_id = l.carrier_account_id
              and s.idempotency_key like 'lo-' || l.order_id || '.%' and s.state <> 'refused'
            where l.business_id = ? group by l.order_id having count(s.id) <> 1) d)::int as doubled`,
      [w.business.id, w.business.id, w.business.id],
    );
    assert.deepEqual(counts, { orders: ITEMS, purchased: ITEMS, labels: ITEMS, doubled: 0 }, 'one label per order');
    await stopChild(worker.child, 'SIGTERM');
  });
});
