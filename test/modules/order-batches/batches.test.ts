// Bulk and async order intake over real HTTP (docs/orders.md, "Bulk and async intake"): a bulk call of good and bad
// rows creates the good ones and reports the bad ones by index and field; an async batch answers its asyncId at once,
// creates its rows in its process, answers its status and rows page by page, and ends with one order.create_async at
// a real receiver (checked against AsyncAPI) while order.created of its orders is skipped for that receiver; another
// business's batch is 404; the body limit is raised for the async path only; the MCP tools need confirm: true.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { WorkflowNotFoundError } from '@temporalio/client';
import { ORDER_BATCH_SWEEP_SCHEDULE, orderBatchWorkflowId } from '../../../src/modules/order-batches/contract.ts';
import { insertBatch } from '../../../src/modules/order-batches/repo.ts';
import type { orderBatchWorkflow } from '../../../src/modules/order-batches/workflows.ts';
import type { OrderActor } from '../../../src/modules/orders/index.ts';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { eventDefinition } from '../../helpers/events.ts';
import { makeBusiness, makeProvider, orderArguments, PASSWORD, priceModel } from '../../helpers/factories.ts';
import { startReceiver } from '../../helpers/receiver.ts';
import { waitFor } from '../../helpers/wait.ts';
import { callTool } from '../../helpers/mcp.ts';

const ajv = new Ajv({ strict: false });
formats.default(ajv);

const SECRET = 'order-batches-test-secret-0123456789';

/** A price model that charges per km: each row with coordinates asks the road router once. */
const PRICE_MODEL = priceModel({ lat: 51.5072, lng: -0.1276 });
const pricedRow = (ref: string) => {
  const row = orderArguments(ref);
  return { ...row, recipient: { ...row.recipient, address: { ...row.recipient.address, lat: 51.5, lng: -0.14 } } };
};

describe('bulk and async order intake', () => {
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let admin: string;
  let employee: string;
  let otherAdmin: string;
  /** A token of a business whose receiver has order_create_webhook_url but no postback URL. */
  let plainAdmin: string;

  /**
   * A stand-in road router that, for each route it is asked, looks whether the batch of `routerWatches` is locked
   * (a chunk's transaction holds it): a batch's rows are priced before their chunk's transaction, never under it.
   */
  let router: http.Server;
  let routerWatches = 0;
  /** How long the stand-in router takes to answer each route. */
  let routerDelayMs = 0;
  const routerSawBatch: ('locked' | 'free')[] = [];

  before(async () => {
    router = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        void app.running.orm.em
          .fork()
          .transactional((tx) =>
            tx.execute<{ id: number }[]>('select id from order_batch where business_id = ? for update skip locked', [
              routerWatches,
            ]),
          )
          .then(async (free) => {
            routerSawBatch.push(free.length > 0 ? 'free' : 'locked');
            if (routerDelayMs > 0) await new Promise((r) => setTimeout(r, routerDelayMs));
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(
              JSON.stringify({
                code: 'Ok',
                routes: [{ distance: 20_000.4, duration: 1500.2, weight: 1500.2 }],
                waypoints: [],
              }),
            );
          });
      });
    });
    await new Promise<void>((resolve) => router.listen(0, '127.0.0.1', resolve));
    app = await startApp({
      ROUTER_URL: `http://127.0.0.1:${(router.address() as AddressInfo).port}`,
      ROUTER_ALLOW_PRIVATE: '1',
    });
    receiver = await startReceiver();
    b = await makeBusiness(app.em());
    admin = await app.login(b.users.admin.email, PASSWORD);
    employee = await app.login(b.users.employee.email, PASSWORD);
    const other = await makeBusiness(app.em());
    otherAdmin = await app.login(other.users.admin.email, PASSWORD);
    const put = await app.http.put(
      '/v1/webhook-settings',
      {
        webhook_sign_secret: SECRET,
        order_create_webhook_url: `${receiver.url}/created`,
        order_create_async_postback_url: `${receiver.url}/postback`,
      },
      { token: admin },
    );
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const plain = await makeBusiness(app.em());
    plainAdmin = await app.login(plain.users.admin.email, PASSWORD);
    const plainPut = await app.http.put(
      '/v1/webhook-settings',
      { webhook_sign_secret: SECRET, order_create_webhook_url: `${receiver.url}/plain-created` },
      { token: plainAdmin },
    );
    assert.equal(plainPut.status, 200, JSON.stringify(plainPut.body));
  });
  after(async () => {
    await app.running.close();
    await receiver.close();
    await new Promise((r) => router.close(r));
  });

  const received = (path: string) => receiver.received.filter((r) => r.url === path).map((r) => JSON.parse(r.body));
  const ordersByRef = (refs: string[]) =>
    app
      .em()
      .execute<{ id: number; order_ref: string; business_id: number }[]>(
        'select id, order_ref, business_id from delivery_order where order_ref in (?) order by id',
        [refs],
      );

  test('bulk: good rows are created, bad rows answer their index and field errors', async () => {
    const tag = `bulk-${Date.now()}`;
    const rows = [
      orderArguments(`${tag}-0`),
      { ...orderArguments(`${tag}-1`), scheduled_date: '2026-13-01' },
      { ...orderArguments(`${tag}-2`), surprise: true },
      {
        ...orderArguments(`${tag}-3`),
        packages: [{ weight_grams: 1200 }, { weight_grams: 800, carrier_reference: 'CR-1' }],
      },
      { ...orderArguments(`${tag}-4`), recipient: { name: 'No Address' } },
    ];
    const res = await app.http.post('/v1/client/batchOrderCreate', { orders: rows }, { token: employee });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([res.body.total, res.body.succeeded, res.body.failed], [5, 2, 3]);
    const results = res.body.results as any[];
    assert.deepEqual(
      results.map((r) => [r.index, r.result]),
      [
        [0, true],
        [1, false],
        [2, false],
        [3, true],
        [4, false],
      ],
    );
    assert.deepEqual(
      results[1].errors.map((e: { field: string }) => e.field),
      ['scheduled_date'],
    );
    assert.deepEqual(
      results[2].errors.map((e: { field: string }) => e.field),
      ['surprise'],
    );
    assert.ok(
      results[4].errors.some((e: { field: string }) => e.field === 'recipient.address'),
      JSON.stringify(results[4].errors),
    );
    assert.equal(results[3].packages.length, 2);
    assert.equal(results[3].packages[0].package_number, results[3].tracking_number);

    const created = await ordersByRef(rows.map((r) => r.order_ref));
    assert.deepEqual(
      created.map((o) => o.order_ref),
      [`${tag}-0`, `${tag}-3`],
    );
    assert.deepEqual(
      created.map((o) => o.id),
      [results[0].order_id, results[3].order_id],
    );
    // Each order is as client_order_create makes it: packages, first history row, trail row 1001, order.created.
    for (const o of created) {
      const [facts] = await app.em().execute<{ packages: number; history: number; trail: number; events: number }[]>(
        `select (select count(*) from order_package where order_id = ?)::int as packages,
           (select count(*) from order_status_change where order_id = ? and operation_type = 1001)::int as history,
           (select count(*) from order_operation_event where order_id = ? and operation_type = 1001 and source = 'api')::int as trail,
           (select count(*) from outbox_event where event_id = ?)::int as events`,
        [o.id, o.id, o.id, `ORC-${o.id}`],
      );
      assert.deepEqual(facts, { packages: o.id === results[3].order_id ? 2 : 1, history: 1, trail: 1, events: 1 });
    }
    // A bulk call is no batch import: its orders' order.created reach order_create_webhook_url.
    const events = await waitFor(async () => {
      const got = received('/created').filter((e) => created.some((o) => o.id === e.data.order.id));
      return got.length === 2 ? got : null;
    });
    const validate = ajv.compile(eventDefinition('order.created')!.payload);
    for (const e of events) assert.ok(validate(e), ajv.errorsText(validate.errors));
  });

  test('bulk: more than 100 rows, none, or a row that is no object is the whole call refused', async () => {
    const many = Array.from({ length: 101 }, (_, i) => orderArguments(`too-many-${i}`));
    const over = await app.http.post('/v1/client/batchOrderCreate', { orders: many }, { token: admin });
    assert.equal(over.status, 422);
    assert.equal(over.body.errors[0].field, 'orders');
    const none = await app.http.post('/v1/client/batchOrderCreate', { orders: [] }, { token: admin });
    assert.equal(none.status, 422);
    const scalar = await app.http.post('/v1/client/batchOrderCreate', { orders: [5] }, { token: admin });
    assert.equal(scalar.status, 422);
    assert.equal((await ordersByRef(many.map((r) => r.order_ref))).length, 0);
  });

  test('bulk over GraphQL: the same per-row answer', async () => {
    const tag = `gql-${Date.now()}`;
    const res = await app.http.graphql(
      `mutation($orders: [ClientBatchOrderCreateOrdersItemInput!]!) { clientBatchOrderCreate(orders: $orders) { total succeeded failed results { index result order_id errors { field message } } } }`,
      { orders: [orderArguments(`${tag}-0`), { ...orderArguments(`${tag}-1`), scheduled_date: '2026-02-30' }] },
      { token: admin },
    );
    // The row is typed as client_order_create's body: a date that type-checks and is no date is that row's result.
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(!res.body.errors, JSON.stringify(res.body.errors));
    const out = res.body.data.clientBatchOrderCreate;
    assert.deepEqual([out.total, out.succeeded, out.failed], [2, 1, 1]);
    assert.equal(out.results[1].errors[0].field, 'scheduled_date');
  });

  test('async: asyncId at once, rows created by the process, one postback, no order.created for the receiver', async () => {
    const tag = `async-${Date.now()}`;
    const rows = Array.from({ length: 7 }, (_, i) =>
      i === 2
        ? { ...orderArguments(`${tag}-${i}`), type: 'X' }
        : i === 5
          ? { ...orderArguments(`${tag}-${i}`), order_ref: 'x'.repeat(101) }
          : orderArguments(`${tag}-${i}`),
    );
    const res = await app.http.post('/v1/client/batchOrderCreateAsync', { orders: rows }, { token: admin });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.deepEqual([res.body.status, res.body.total], ['queued', 7]);
    const asyncId = res.body.asyncId as string;

    const postback: any = await waitFor(async () =>
      received('/postback').find((e) => e.event === 'order.create_async' && e.data.async_id === asyncId),
    );
    const validate = ajv.compile(eventDefinition('order.create_async')!.payload) as ((d: unknown) => boolean) & {
      errors?: null;
    };
    const valid = validate(postback);
    assert.ok(valid, `order.create_async matches its schema: ${ajv.errorsText(validate.errors)}`);
    assert.equal(postback.event_id, `OCA-${asyncId}`);
    assert.deepEqual([postback.data.total, postback.data.succeeded, postback.data.failed], [7, 5, 2]);
    assert.deepEqual(
      postback.data.results.map((r: { index: number; result: boolean }) => [r.index, r.result]),
      [0, 1, 2, 3, 4, 5, 6].map((i) => [i, i !== 2 && i !== 5]),
    );
    assert.equal(postback.data.results[2].errors[0].field, 'type');
    assert.equal(postback.data.results[5].errors[0].field, 'order_ref');

    const created = await ordersByRef(rows.map((r) => r.order_ref));
    assert.equal(created.length, 5);
    assert.deepEqual(
      created.map((o) => o.id).sort(),
      postback.data.results
        .filter((r: { result: boolean }) => r.result)
        .map((r: { order: { id: number } }) => r.order.id)
        .sort(),
    );

    // The batch's order.created went nowhere for this receiver, which has the postback URL; a single create's does.
    const single = await app.http.post('/v1/client/orderCreate', orderArguments(`${tag}-single`), { token: admin });
    assert.equal(single.status, 200);
    await waitFor(async () => received('/created').some((e) => e.data.order.id === single.body.order_id));
    assert.deepEqual(
      received('/created').filter((e) => created.some((o) => o.id === e.data.order.id)),
      [],
      'no order.created for the batch orders',
    );
    const [written] = await app
      .em()
      .execute<{ n: number }[]>(
        "select count(*)::int as n from outbox_event where event_type = 'order.created' and skip_if_url_field = 'order_create_async_postback_url' and reference_id in (?)",
        [created.map((o) => String(o.id))],
      );
    assert.equal(written!.n, 5, 'the events exist, marked for the receivers without the postback URL');

    // Status and rows, page by page.
    const status = await app.http.get(`/v1/client/async/${asyncId}?per_page=3&page=2`, { token: employee });
    assert.equal(status.status, 200, JSON.stringify(status.body));
    assert.deepEqual(
      [status.body.status, status.body.total, status.body.succeeded, status.body.failed, status.body.pending],
      ['done', 7, 5, 2, 0],
    );
    assert.ok(status.body.finished_at);
    assert.deepEqual(
      status.body.rows.map((r: { index: number; status: string }) => [r.index, r.status]),
      [
        [3, 'created'],
        [4, 'created'],
        [5, 'failed'],
      ],
    );
    assert.equal(status.body.rows[0].order.order_ref, `${tag}-3`);
    assert.equal(status.body.rows[2].errors[0].field, 'order_ref');
    assert.equal(status.body.rows[2].order, null);

    // Another business's batch, an unknown id, an id that is no UUID: 404.
    for (const [id, token] of [
      [asyncId, otherAdmin],
      ['0b9c2d4e-7a51-4f0e-9d8c-3e2a1b6f5c40', admin],
      ['2000000000', admin],
    ] as const) {
      const r = await app.http.get(`/v1/client/async/${id}`, { token });
      assert.equal(r.status, 404, `${id}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.code, 'NOT_FOUND');
    }
  });

  test("async: a business without the postback URL gets its batch's order.created", async () => {
    const tag = `plain-${Date.now()}`;
    const res = await app.http.post(
      '/v1/client/batchOrderCreateAsync',
      { orders: [orderArguments(`${tag}-0`), orderArguments(`${tag}-1`)] },
      { token: plainAdmin },
    );
    assert.equal(res.status, 202);
    const created = await waitFor(async () => {
      const o = await ordersByRef([`${tag}-0`, `${tag}-1`]);
      return o.length === 2 ? o : null;
    });
    await waitFor(async () => {
      const got = received('/plain-created').filter((e) => created.some((o) => o.id === e.data.order.id));
      return got.length === 2;
    });
    await waitFor(async () => {
      const r = await app.http.get(`/v1/client/async/${res.body.asyncId}`, { token: plainAdmin });
      return r.body.status === 'done';
    });
    const read = await app.http.graphql(
      'query($id: String!) { clientAsyncBatch(id: $id, per_page: 1) { status total succeeded rows { index status order { order_ref } } } }',
      { id: res.body.asyncId },
      { token: plainAdmin },
    );
    assert.ok(!read.body.errors, JSON.stringify(read.body.errors));
    assert.deepEqual(read.body.data.clientAsyncBatch, {
      status: 'done',
      total: 2,
      succeeded: 2,
      rows: [{ index: 0, status: 'created', order: { order_ref: `${tag}-0` } }],
    });
  });

  test("async: the business's third-party rules hand the batch's matching orders to their provider", async () => {
    const biz = await makeBusiness(app.em());
    const token = await app.login(biz.users.admin.email, PASSWORD);
    const p = await makeProvider(app.em(), 'delivery_provider');
    const providerToken = await app.login(p.user.email, PASSWORD);
    const hook = await app.http.put(
      '/v1/provider/webhook-settings',
      { url: `${receiver.url}/provider` },
      { token: providerToken },
    );
    assert.equal(hook.status, 200, JSON.stringify(hook.body));
    const rule = await app.http.post(
      '/v1/third-party-rules',
      { provider_code: p.business.code, postal_code_prefix: '75' },
      { token },
    );
    assert.equal(rule.status, 201, JSON.stringify(rule.body));
    const tag = `rules-${Date.now()}`;
    const inParis = (ref: string) => {
      const row = orderArguments(ref);
      return { ...row, recipient: { ...row.recipient, address: { ...row.recipient.address, postal_code: '75011' } } };
    };
    const res = await app.http.post(
      '/v1/client/batchOrderCreateAsync',
      { orders: [inParis(`${tag}-0`), orderArguments(`${tag}-1`)] },
      { token },
    );
    assert.equal(res.status, 202);
    await waitFor(async () => {
      const r = await app.http.get(`/v1/client/async/${res.body.asyncId}`, { token });
      return r.body.status === 'done';
    });
    const held = await app
      .em()
      .execute<{ order_ref: string; carrier_provider_id: number | null }[]>(
        'select order_ref, carrier_provider_id from delivery_order where order_ref in (?) order by order_ref',
        [[`${tag}-0`, `${tag}-1`]],
      );
    assert.deepEqual(
      held.map((o) => [o.order_ref, o.carrier_provider_id]),
      [
        [`${tag}-0`, p.business.id],
        [`${tag}-1`, null],
      ],
    );
  });

  test('async: a batch left queued (its call died before its process started) is started by the sweep', async () => {
    // What a call that died between storing the batch and starting its process leaves: the rows, queued, no process.
    const tag = `swept-${Date.now()}`;
    const store = (rows: unknown[]) =>
      app.running.orm.em.fork().transactional(async (tx) => {
        const asyncId = crypto.randomUUID();
        const actor: OrderActor = { userId: b.users.admin.id, role: 'client_admin', source: 'api', ip: '127.0.0.1' };
        const id = await insertBatch(
          tx,
          { asyncId, businessId: b.business.id, createdBy: b.users.admin.id, actor, lang: 'en' },
          rows,
        );
        return { id, asyncId };
      });
    const left = await store([orderArguments(`${tag}-0`), orderArguments(`${tag}-1`)]);
    await app.em().execute("update order_batch set created_at = now() - interval '2 minutes' where id = ?", [left.id]);
    // A batch stored a moment ago is its own call's to start: the sweep leaves it alone.
    const fresh = await store([orderArguments(`${tag}-fresh`)]);

    await app.running.temporal.schedule.getHandle(ORDER_BATCH_SWEEP_SCHEDULE).trigger();
    // The schedule also runs every minute: a trigger that meets a running sweep is skipped, and the next one takes it.
    const handle = await waitFor(
      async () => {
        const h = app.running.temporal.workflow.getHandle<typeof orderBatchWorkflow>(
          orderBatchWorkflowId(left.asyncId),
        );
        return (await h.describe().then(
          () => true,
          () => false,
        ))
          ? h
          : null;
      },
      150_000,
      500,
    );
    assert.deepEqual(await handle.result(), { total: 2, succeeded: 2, failed: 0 });
    const shown = await app.http.get(`/v1/client/async/${left.asyncId}`, { token: admin });
    assert.deepEqual([shown.body.status, shown.body.succeeded], ['done', 2]);
    assert.equal((await ordersByRef([`${tag}-0`, `${tag}-1`])).length, 2);

    await assert.rejects(
      app.running.temporal.workflow.getHandle(orderBatchWorkflowId(fresh.asyncId)).describe(),
      WorkflowNotFoundError,
    );
    // Started by its call at last (as the API would), the sweep's start meeting it is no second run.
    await app.em().execute("update order_batch set created_at = now() - interval '2 minutes' where id = ?", [fresh.id]);
    await app.running.temporal.schedule.getHandle(ORDER_BATCH_SWEEP_SCHEDULE).trigger();
    const freshHandle = app.running.temporal.workflow.getHandle<typeof orderBatchWorkflow>(
      orderBatchWorkflowId(fresh.asyncId),
    );
    await waitFor(
      () =>
        freshHandle.describe().then(
          () => true,
          () => false,
        ),
      150_000,
      500,
    );
    assert.deepEqual(await freshHandle.result(), { total: 1, succeeded: 1, failed: 0 });
    assert.equal((await ordersByRef([`${tag}-fresh`])).length, 1, 'created once');
  });

  test('async: rows are priced before their chunk locks the batch (the road router is never asked under the lock)', async () => {
    const priced = await makeBusiness(app.em());
    const pricedAdmin = await app.login(priced.users.admin.email, PASSWORD);
    const model = await app.http.put('/v1/client/delivery-price-model', PRICE_MODEL, { token: pricedAdmin });
    assert.equal(model.status, 200, JSON.stringify(model.body));
    routerWatches = priced.business.id;
    routerSawBatch.length = 0;
    const tag = `priced-${Date.now()}`;
    const rows = Array.from({ length: 4 }, (_, i) => pricedRow(`${tag}-${i}`));
    const res = await app.http.post('/v1/client/batchOrderCreateAsync', { orders: rows }, { token: pricedAdmin });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const done = await waitFor(async () => {
      const r = await app.http.get(`/v1/client/async/${res.body.asyncId}`, { token: pricedAdmin });
      return r.body.status === 'done' ? r.body : null;
    }, 60_000);
    assert.deepEqual([done.succeeded, done.failed], [4, 0]);
    assert.deepEqual(routerSawBatch, ['free', 'free', 'free', 'free'], 'each row priced by road, none under the lock');
    const [unpriced] = await app
      .em()
      .execute<{ n: number }[]>(
        'select count(*)::int as n from delivery_order where business_id = ? and shipping_price is null',
        [priced.business.id],
      );
    assert.equal(unpriced!.n, 0, 'every order carries its road-priced price');
  });

  test(
    'async: a chunk that prices for longer than its heartbeat timeout (20 s) heartbeats per row and runs once',
    { timeout: 180_000 },
    async () => {
      const slow = await makeBusiness(app.em());
      const slowAdmin = await app.login(slow.users.admin.email, PASSWORD);
      assert.equal(
        (await app.http.put('/v1/client/delivery-price-model', PRICE_MODEL, { token: slowAdmin })).status,
        200,
      );
      // 30 rows, one second of road routing each: about 30 s of pricing in one chunk.
      routerDelayMs = 1_000;
      try {
        const tag = `slow-${Date.now()}`;
        const rows = Array.from({ length: 30 }, (_, i) => pricedRow(`${tag}-${i}`));
        const res = await app.http.post('/v1/client/batchOrderCreateAsync', { orders: rows }, { token: slowAdmin });
        assert.equal(res.status, 202, JSON.stringify(res.body));
        const handle = app.running.temporal.workflow.getHandle<typeof orderBatchWorkflow>(
          orderBatchWorkflowId(res.body.asyncId),
        );
        assert.deepEqual(await handle.result(), { total: 30, succeeded: 30, failed: 0 });
        const { events } = await handle.fetchHistory();
        const attempts = (events ?? []).flatMap((e, i, all) => {
          const started = e.activityTaskStartedEventAttributes;
          if (!started) return [];
          const scheduled = all.find(
            (s) => s.eventId?.toString() === started.scheduledEventId?.toString(),
          )?.activityTaskScheduledEventAttributes;
          return scheduled?.activityType?.name === 'createBatchChunk' ? [started.attempt] : [];
        });
        assert.ok(attempts.length >= 2, 'the chunk and the empty last look');
        assert.deepEqual(new Set(attempts), new Set([1]), 'no chunk timed out and ran again');
      } finally {
        routerDelayMs = 0;
      }
    },
  );

  test('async: a row the database keeps refusing fails alone once its chunk has failed as a whole', async () => {
    // This file's own database: a trigger refuses one order_ref, as a fault no validation foresees.
    await app.em().execute(`
      create or replace function refuse_boom() returns trigger language plpgsql as $$
      begin
        if new.order_ref like '%-boom' then raise exception 'refused for the test'; end if;
        return new;
      end $$;
      create trigger refuse_boom before insert on delivery_order for each row execute function refuse_boom();`);
    try {
      const tag = `boom-${Date.now()}`;
      const res = await app.http.post(
        '/v1/client/batchOrderCreateAsync',
        { orders: [orderArguments(`${tag}-0`), orderArguments(`${tag}-boom`), orderArguments(`${tag}-2`)] },
        { token: admin },
      );
      assert.equal(res.status, 202);
      const done = await waitFor(async () => {
        const r = await app.http.get(`/v1/client/async/${res.body.asyncId}`, { token: admin });
        return r.body.status === 'done' ? r.body : null;
      }, 60_000);
      assert.deepEqual([done.succeeded, done.failed], [2, 1]);
      assert.deepEqual(
        done.rows.map((r: { status: string }) => r.status),
        ['created', 'failed', 'created'],
      );
      assert.equal(done.rows[1].errors[0].field, '(row)');
      assert.equal((await ordersByRef([`${tag}-0`, `${tag}-boom`, `${tag}-2`])).length, 2);
    } finally {
      await app.em().execute('drop trigger refuse_boom on delivery_order; drop function refuse_boom();');
    }
  });

  test('async: the body may pass 1 MiB on its own path only; more than 5,000 rows is refused', async () => {
    const tag = `big-${Date.now()}`;
    const rows = Array.from({ length: 1200 }, (_, i) => ({ ...orderArguments(`${tag}-${i}`), note: 'n'.repeat(900) }));
    assert.ok(JSON.stringify({ orders: rows }).length > 1024 * 1024);
    const bulk = await app.http.post('/v1/client/batchOrderCreate', { orders: rows.slice(0, 100) }, { token: admin });
    assert.equal(bulk.status, 200, 'the same rows, 100 of them, fit the bulk call');
    const tooBig = await app.http.post('/v1/client/orderCreate', { orders: rows }, { token: admin });
    assert.equal(tooBig.status, 413);
    const res = await app.http.post('/v1/client/batchOrderCreateAsync', { orders: rows }, { token: admin });
    assert.equal(res.status, 202, JSON.stringify(res.body).slice(0, 300));
    const done = await waitFor(async () => {
      const r = await app.http.get(`/v1/client/async/${res.body.asyncId}?per_page=1`, { token: admin });
      return r.body.status === 'done' ? r.body : null;
    }, 120_000);
    assert.deepEqual([done.total, done.succeeded, done.failed], [1200, 1200, 0]);

    const over = Array.from({ length: 5001 }, () => ({}));
    const refused = await app.http.post('/v1/client/batchOrderCreateAsync', { orders: over }, { token: admin });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.errors[0].field, 'orders');
  });

  test('MCP: both bulk tools need confirm: true; the read does not', async () => {
    const call = (name: string, args: Record<string, unknown>) => callTool(app.url, admin, name, args);
    const tag = `mcp-${Date.now()}`;
    for (const name of ['bulk_create_orders', 'bulk_create_orders_async']) {
      const unconfirmed = await call(name, { orders: [orderArguments(`${tag}-${name}`)] });
      assert.deepEqual([unconfirmed.isError, unconfirmed.body.code], [true, 'CONFIRMATION_REQUIRED'], name);
    }
    assert.equal((await ordersByRef([`${tag}-bulk_create_orders`])).length, 0);
    const bulk = await call('bulk_create_orders', {
      orders: [orderArguments(`${tag}-ok`), { ...orderArguments(`${tag}-bad`), type: 'Q' }],
      confirm: true,
    });
    assert.equal(bulk.isError, false, JSON.stringify(bulk.body));
    assert.deepEqual([bulk.body.succeeded, bulk.body.failed], [1, 1]);
    const queued = await call('bulk_create_orders_async', { orders: [orderArguments(`${tag}-a`)], confirm: true });
    assert.equal(queued.isError, false, JSON.stringify(queued.body));
    const read = await call('get_async_batch_result', { id: queued.body.asyncId });
    assert.equal(read.isError, false, JSON.stringify(read.body));
    assert.equal(read.body.asyncId, queued.body.asyncId);
  });
});
