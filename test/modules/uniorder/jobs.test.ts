/**
 * Uniorder jobs of 500 through the HTTP API (docs/uniorder.md, "Jobs of 500"): a job of 30 creations across both
 * carriers and self delivery, one refused by its carrier, every item reported with its own result, the process's
 * progress query, the job read a page at a time; a rate job with an invalid item; 501 items refused naming the limit;
 * another business's job, or an id that is no UUID, is 404.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { progressQuery, uniorderJobWorkflowId } from '../../../src/modules/uniorder/contract.ts';
import { creatorAsCaller } from '../../../src/modules/uniorder/repo/jobs.ts';
import type { uniorderJob } from '../../../src/modules/uniorder/workflows.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, PASSWORD, priceModel } from '../../helpers/factories.ts';
import { labelWorld, RECIPIENT, SHIPPER, type LabelWorld } from '../labels/world.ts';

const DEPOT = { lat: 48.8566, lng: 2.3522 };
const TO = { ...RECIPIENT, address: { ...RECIPIENT.address, lat: 45.76, lng: 4.83 } };

const rateBody = (reference: string, extra: Record<string, unknown> = {}) => ({
  type: 'D',
  shipper: SHIPPER,
  recipient: TO,
  parcels: [{ weight_grams: 1200, length_mm: 300, width_mm: 200, height_mm: 100 }],
  reference,
  quote_labels: true,
  ...extra,
});

describe('uniorder jobs', () => {
  let app: TestApp;
  let w: LabelWorld;

  before(async () => {
    // Eight purchases at once on a busy machine: the default carrier deadline, so that none times out (no test here
    // is about a timeout).
    app = await startApp({ SANDBOX_TRACKING_DAY_SECONDS: '1' });
    w = await labelWorld(app);
    const set = await app.http.put('/v1/client/delivery-price-model', priceModel(DEPOT), { token: w.admin });
    assert.equal(set.status, 200, JSON.stringify(set.body));
  });
  after(() => app.running.close());

  const rateOf = (rates: any[], carrier: string) => rates.find((r) => r.carrier === carrier).rate_id as string;

  test('a job of 30 creations: every item reported with its own result, the progress query, pages', async () => {
    const items = [...Array.from({ length: 10 }, (_, i) => rateBody(`UJ-${i}`)), rateBody('SBX-REFUSE-UJ')];
    const rated = await app.http.post('/v1/uniorder/rate/batch', { items }, { token: w.admin });
    assert.equal(rated.status, 200, JSON.stringify(rated.body));
    const rates = rated.body.results.map((r: any) => r.rates);
    // 10 self, 10 sandbox_swift, 9 sandbox_parcel interleaved, and a swift rate its carrier refuses at index 29.
    const creates: Record<string, unknown>[] = [];
    for (let i = 0; i < 10; i++) {
      creates.push({ rate_id: rateOf(rates[i], 'self'), reference: `UJ-SELF-${i}` });
      creates.push({ rate_id: rateOf(rates[i], 'sandbox_swift') });
      if (i < 9) creates.push({ rate_id: rateOf(rates[i], 'sandbox_parcel') });
    }
    creates.push({ rate_id: rateOf(rates[10], 'sandbox_swift'), idempotency_key: 'uj-own-key' });
    assert.equal(creates.length, 30);

    const res = await app.http.post('/v1/uniorder/batch-async', { items: creates }, { token: w.admin });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.deepEqual(
      { ...res.body, job_id: typeof res.body.job_id },
      {
        result: true,
        job_id: 'string',
        status: 'queued',
        kind: 'create',
        total: 30,
      },
    );
    const jobId = res.body.job_id as string;
    const handle = app.running.temporal.workflow.getHandle<typeof uniorderJob>(uniorderJobWorkflowId(jobId));
    const counts = await handle.result();
    const failures = async () =>
      JSON.stringify(
        (await app.http.get(`/v1/uniorder/jobs/${jobId}`, { token: w.admin })).body.items.filter(
          (i: any) => i.status !== 'done',
        ),
      );
    assert.deepEqual(counts, { total: 30, succeeded: 29, failed: 1 }, counts.failed === 1 ? '' : await failures());
    assert.deepEqual(await handle.query(progressQuery), {
      total: 30,
      done: 29,
      failed: 1,
      running: 0,
      lanes: {
        self: { done: 10, failed: 0, running: 0 },
        sandbox_swift: { done: 10, failed: 1, running: 0 },
        sandbox_parcel: { done: 9, failed: 0, running: 0 },
      },
    });

    const read = await app.http.get(`/v1/uniorder/jobs/${jobId}?per_page=50`, { token: w.admin });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    const job = read.body;
    assert.deepEqual(
      [job.status, job.total, job.succeeded, job.failed, job.pending, job.items.length],
      ['done', 30, 29, 1, 0, 30],
    );
    assert.ok(job.finished_at);
    const orderIds = new Set<number>();
    job.items.forEach((item: any, i: number) => {
      assert.equal(item.index, i);
      if (i === 29) return;
      assert.equal(item.status, 'done', JSON.stringify(item));
      const want = creates[i]!.rate_id as string;
      assert.equal(item.result.rate_id, want);
      assert.equal(item.result.kind, want.startsWith('sr_') ? 'self_delivery' : 'label');
      if (item.result.kind === 'label') assert.equal(item.result.label.state, 'purchased');
      else assert.equal(item.result.order_ref, `UJ-SELF-${Math.floor(i / 3)}`);
      orderIds.add(item.result.order_id);
    });
    assert.equal(orderIds.size, 29, 'each item its own order');
    const refused = job.items[29];
    assert.equal(refused.status, 'failed');
    assert.equal(refused.result.code, 'LABEL_PURCHASE_FAILED');
    assert.equal(typeof refused.result.order_id, 'number');
    assert.equal(typeof refused.result.message, 'string');

    // Each label item bought with its key: `uj-<job id>-<index>`, or its own.
    const keys = await app
      .em()
      .execute<{ idempotency_key: string }[]>(
        'select idempotency_key from label_order where business_id = ? and idempotency_key like ? order by 1',
        [w.business.id, `uj-%`],
      );
    assert.equal(keys.filter((k) => k.idempotency_key.startsWith(`uj-${jobId}-`)).length, 19);
    assert.ok(keys.some((k) => k.idempotency_key === 'uj-own-key'));

    const page = await app.http.get(`/v1/uniorder/jobs/${jobId}?page=3&per_page=10`, { token: w.admin });
    assert.equal(page.status, 200);
    assert.deepEqual(
      page.body.items.map((i: any) => i.index),
      [20, 21, 22, 23, 24, 25, 26, 27, 28, 29],
    );
  });

  test('a rate job: each item rated or refused on its own; stored invalid items never run', async () => {
    const items = [rateBody('UJ-R-0'), { ...rateBody('UJ-R-1'), parcels: [] }, rateBody('UJ-R-2', { type: 'P' })];
    const res = await app.http.post('/v1/uniorder/rate/batch-async', { items }, { token: w.employee });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.kind, 'rate');
    const handle = app.running.temporal.workflow.getHandle(uniorderJobWorkflowId(res.body.job_id));
    assert.deepEqual(await handle.result(), { total: 3, succeeded: 2, failed: 1 });
    const read = await app.http.get(`/v1/uniorder/jobs/${res.body.job_id}`, { token: w.admin });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    const [first, invalid, collection] = read.body.items;
    assert.equal(first.status, 'done');
    assert.deepEqual([...new Set(first.result.rates.map((r: any) => r.carrier))].sort(), [
      'sandbox_parcel',
      'sandbox_swift',
      'self',
    ]);
    assert.equal(invalid.status, 'failed');
    assert.equal(invalid.result.code, 'VALIDATION_FAILED');
    assert.equal(invalid.errors[0].field, 'parcels');
    assert.equal(collection.status, 'done');
    assert.ok(collection.result.messages.some((m: any) => m.code === 'NOT_LABEL_SHIPPABLE'));
  });

  test("a job's items run with the rights its creator has now: none once it is no longer staff or customer", async () => {
    const res = await app.http.post(
      '/v1/uniorder/rate/batch-async',
      { items: [rateBody('UJ-ROLE')] },
      { token: w.employee },
    );
    assert.equal(res.status, 202, JSON.stringify(res.body));
    await app.running.temporal.workflow.getHandle(uniorderJobWorkflowId(res.body.job_id)).result();
    assert.equal((await creatorAsCaller(app.em(), res.body.job_id))?.role, 'employee');
    await app.em().execute("update app_user set role = 'driver' where id = ?", [w.users.employee.id]);
    try {
      assert.equal(await creatorAsCaller(app.em(), res.body.job_id), null);
    } finally {
      await app.em().execute("update app_user set role = 'employee' where id = ?", [w.users.employee.id]);
    }
  });

  test('501 items is 422 on items naming the limit; none is 422 too', async () => {
    for (const p of ['/v1/uniorder/rate/batch-async', '/v1/uniorder/batch-async']) {
      const items = Array.from({ length: 501 }, () => ({ rate_id: 'sr_aaaaaaaaaaaaaaaaaaaaaaaaaa' }));
      const res = await app.http.post(p, { items }, { token: w.admin });
      assert.equal(res.status, 422, JSON.stringify(res.body).slice(0, 500));
      assert.equal(res.body.errors[0].field, 'items');
      assert.match(res.body.errors[0].message, /at most 500 items/i);
      const none = await app.http.post(p, { items: [] }, { token: w.admin });
      assert.equal(none.status, 422);
    }
  });

  test("another business's job, an unknown id and one that is no UUID are 404", async () => {
    const res = await app.http.post(
      '/v1/uniorder/batch-async',
      { items: [{ rate_id: 'sr_aaaaaaaaaaaaaaaaaaaaaaaaaa' }] },
      { token: w.admin },
    );
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const other = await makeBusiness(app.em());
    const stranger = await app.login(other.users.admin.email, PASSWORD);
    for (const [id, token] of [
      [res.body.job_id, stranger],
      ['0b9c2d4e-7a51-4f0e-9d8c-3e2a1b6f5c40', w.admin],
      ['not-a-uuid', w.admin],
    ] as const) {
      const read = await app.http.get(`/v1/uniorder/jobs/${id}`, { token });
      assert.equal(read.status, 404, JSON.stringify(read.body));
      assert.equal(read.body.code, 'NOT_FOUND');
    }
    // A customer account reads its own jobs only.
    const mine = await app.http.get(`/v1/uniorder/jobs/${res.body.job_id}`, { token: w.customer });
    assert.equal(mine.status, 404);
  });
});
