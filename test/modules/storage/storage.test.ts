// Storage orders over HTTP against the real stack (docs/customer-services.md, "Storage orders" and "The storage fee
// run"): the config and quote, creation with its packages, payment from the wallet (partial, balancing, refused when
// empty), receiving at /v1/wms/receiving, the fee run over compressed days (charged, owed when the wallet is short,
// collected after a top-up), cancel with refund and release, the unpaid expiry, price hiding and isolation.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  STORAGE_FEE_RUN_WORKFLOW,
  STORAGE_QUEUE,
  storageFeeRunWorkflowId,
} from '../../../src/modules/storage/contract.ts';
import { owedOf } from '../../../src/modules/storage/index.ts';
import { customersDue } from '../../../src/modules/storage/repo/fees.ts';
import type { storageFeeRun } from '../../../src/modules/storage/workflows.ts';
import { executeBound } from '../../../src/platform/db/orm.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { waitFor } from '../../helpers/wait.ts';
import { assertLedgerInvariants } from '../wallet/world.ts';
import { boxes, ok, storageWorld, type StorageWorld } from './world.ts';

const PRICE_FIELDS = [
  'currency',
  'total',
  'tax',
  'price_details',
  'paid_amount',
  'offline_amount',
  'balance_due',
  'price_per_period',
];

/** The storage order of an answer `{ result, storage_order }`. */
const so = (res: { status: number; body: any }, status = 200) => {
  const body = ok(res, status);
  assert.equal(body.result, true);
  return body.storage_order;
};

describe('storage orders', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp();
  });
  after(() => app.running.close());

  const create = (w: StorageWorld, body: Record<string, unknown> = {}, token = w.customer) =>
    app.http.post('/v1/customer/storage-orders', { service_code: 'ST', packages: boxes(3), ...body }, { token });
  const get = (w: StorageWorld, id: number, token = w.customer) =>
    app.http.get(`/v1/customer/storage-orders/${id}`, { token });
  const pay = (w: StorageWorld, id: number, body: Record<string, unknown> = {}, token = w.customer) =>
    app.http.post(`/v1/customer/storage-orders/${id}/pay`, body, { token });
  const runFees = (businessId: number) =>
    app.running.temporal.workflow.execute<typeof storageFeeRun>(STORAGE_FEE_RUN_WORKFLOW, {
      workflowId: storageFeeRunWorkflowId(randomUUID()),
      taskQueue: STORAGE_QUEUE,
      args: [{ business_id: businessId }],
    });

  test('config and quote: the services with their warehouse and terms; staff may not call them', async () => {
    const w = await storageWorld(app);
    const config = ok(await app.http.get('/v1/customer/storage-orders/config', { token: w.customer }));
    assert.equal(config.currency, 'EUR');
    assert.equal(config.price_hidden, false);
    assert.equal(config.max_packages, 100);
    assert.equal(config.unpaid_expiry_seconds, 3600);
    assert.equal(config.services.length, 1);
    const [s] = config.services;
    assert.equal(s.code, 'ST');
    assert.equal(s.warehouse.code, 'WH1');
    assert.equal(s.price_per_period, '0.50');
    assert.equal(s.handling_fee, '1.00');

    const quote = ok(
      await app.http.post(
        '/v1/customer/storage-orders/calculate-price',
        { service_code: 'ST', packages: boxes(3) },
        { token: w.customer },
      ),
    );
    assert.deepEqual(
      {
        total: quote.total,
        tax: quote.tax,
        currency: quote.currency,
        period: quote.period,
        ppp: quote.price_per_period,
      },
      { total: '3.60', tax: '0.60', currency: 'EUR', period: 'day', ppp: '0.50' },
    );
    assert.equal(quote.price_details[0].amount, '3.00');

    const unknown = await app.http.post(
      '/v1/customer/storage-orders/calculate-price',
      { service_code: 'NOPE', packages: boxes(1) },
      { token: w.customer },
    );
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.errors[0].field, 'service_code');

    for (const token of [w.admin, w.employee]) {
      const refused = await app.http.get('/v1/customer/storage-orders/config', { token });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 'FORBIDDEN');
    }
  });

  test('create, pay from the wallet, receive: pending_payment -> confirmed -> receiving -> stored', async () => {
    const w = await storageWorld(app);
    const key = randomUUID();
    const created = so(
      await create(w, { reference: 'MY-REF', expected_arrival: '2030-01-15', idempotency_key: key }),
      201,
    );
    assert.equal(created.status, 'pending_payment');
    assert.equal(created.total, '3.60');
    assert.equal(created.balance_due, '3.60');
    assert.equal(created.expected_arrival, '2030-01-15');
    assert.equal(created.packages.length, 3);
    assert.ok(created.packages.every((p: any) => /^SP\d{10}$/.test(p.tracking_number) && p.state === 'expected'));
    assert.ok(created.packages.every((p: any) => p.received === false && p.received_at === null));
    assert.equal(created.can_cancel, true);
    assert.equal(created.can_edit, true);
    assert.equal(created.workflow_id, `storage-order-${created.id}`);
    assert.ok(created.expires_at);
    const again = so(
      await create(w, { reference: 'MY-REF', expected_arrival: '2030-01-15', idempotency_key: key }),
      201,
    );
    assert.equal(again.id, created.id, 'the same key and body answer the first order');
    for (const other of [{ packages: boxes(2) }, { reference: 'OTHER' }, { expected_arrival: '2030-01-16' }]) {
      const reused = await create(w, {
        reference: 'MY-REF',
        expected_arrival: '2030-01-15',
        ...other,
        idempotency_key: key,
      });
      assert.equal(reused.status, 409, JSON.stringify(other));
      assert.equal(reused.body.code, 'IDEMPOTENCY_KEY_REUSED');
    }
    const [orders] = await executeBound<{ n: number }>(
      app.em(),
      'select count(*)::int as n from storage_order where business_id = $1',
      [w.business.id],
    );
    assert.equal(orders!.n, 1, 'nothing created by a reused key');

    // Unpaid: the warehouse refuses its packages.
    const early = await w.receive(created.packages[0].tracking_number);
    assert.equal(early.status, 409);
    assert.equal(early.body.code, 'PACKAGE_NOT_RECEIVABLE');

    const empty = await pay(w, created.id);
    assert.equal(empty.status, 409);
    assert.equal(empty.body.code, 'INSUFFICIENT_FUNDS');

    // 2.00 in the wallet: a balancing payment takes it all and leaves 1.60 due.
    await w.topUp(200n);
    const part = so(await pay(w, created.id));
    assert.equal(part.status, 'pending_payment');
    assert.equal(part.paid_amount, '2.00');
    assert.equal(part.balance_due, '1.60');
    assert.equal(await w.balance(), 0n);

    const tooMuch = await pay(w, created.id, { amount: '5.00' });
    assert.equal(tooMuch.status, 422);
    assert.equal(tooMuch.body.errors[0].field, 'amount');

    await w.topUp(1000n);
    const half = so(await pay(w, created.id, { amount: '0.60' }));
    assert.equal(half.balance_due, '1.00');
    const paid = so(await pay(w, created.id));
    assert.equal(paid.status, 'confirmed');
    assert.equal(paid.paid_amount, '3.60');
    assert.equal(paid.balance_due, '0.00');
    assert.equal(await w.balance(), 1000n - 160n);
    const twice = await pay(w, created.id);
    assert.equal(twice.status, 409);
    assert.equal(twice.body.code, 'NOTHING_DUE');
    const [transfers] = await executeBound<{ keys: string[] }>(
      app.em(),
      `select array_agg(key order by id) as keys from ledger_transfer where business_id = $1 and code = 'payment'`,
      [w.business.id],
    );
    assert.deepEqual(transfers!.keys, [
      `sto-${created.id}-pay-0`,
      `sto-${created.id}-pay-1`,
      `sto-${created.id}-pay-2`,
    ]);

    ok(await w.receive(created.packages[0].tracking_number, 'B-07'));
    const receiving = so(await get(w, created.id));
    assert.equal(receiving.status, 'receiving');
    const first = receiving.packages.find((p: any) => p.id === created.packages[0].id);
    assert.equal(first.received, true);
    assert.equal(first.state, 'stored');
    assert.equal(first.location, 'B-07');
    assert.ok(first.received_at);
    assert.equal(receiving.can_cancel, false);
    assert.equal(receiving.can_edit, false);
    const refused = await app.http.post(`/v1/customer/storage-orders/${created.id}/cancel`, {}, { token: w.customer });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'STORAGE_ORDER_NOT_CANCELLABLE');

    for (const p of created.packages.slice(1)) ok(await w.receive(p.tracking_number));
    assert.equal(so(await get(w, created.id)).status, 'stored');

    const list = ok(await app.http.get('/v1/customer/storage-orders?per_page=10', { token: w.customer }));
    assert.equal(list.total, 1);
    assert.equal(list.orders[0].id, created.id);
    const packages = ok(await app.http.get('/v1/customer/stored-packages?state=stored', { token: w.customer }));
    assert.equal(packages.total, 3);
    assert.ok(packages.packages.every((p: any) => p.age_days === 0 && p.warehouse.code === 'WH1'));
    await assertLedgerInvariants(app.em(), w.business.id);
  });

  test('a price of 0 is confirmed at creation, with no process', async () => {
    const w = await storageWorld(app, { handlingFee: '0' });
    const created = so(await create(w), 201);
    assert.equal(created.status, 'confirmed');
    assert.equal(created.total, '0.00');
    assert.equal(created.workflow_id, null);
    ok(await w.receive(created.packages[0].tracking_number));
  });

  test('the fee run charges each package per period, keeps what the wallet cannot pay owed, collects it later', async () => {
    // A storage day of 1 second: a package is charged 0.60 (0.50 + 20 %) per second started since its receipt.
    const w = await storageWorld(app, { storageDaySeconds: 1 });
    await w.topUp(360n + 100n);
    const created = so(await create(w), 201);
    so(await pay(w, created.id));
    for (const p of created.packages) ok(await w.receive(p.tracking_number));
    await new Promise((r) => setTimeout(r, 2_500));

    const before = Date.now();
    const first = await runFees(w.business.id);
    // Only this business's customers (the hourly schedule may run too: it would charge the same rows once).
    assert.ok(first.customers <= 1, JSON.stringify(first));
    const fees = async () =>
      executeBound<{ package_id: number; periods: number[]; charged: number; amount: string; paid: string }>(
        app.em(),
        `select p.id as package_id, array_agg(f.period_index order by f.period_index) as periods,
           p.fees_charged_periods as charged, sum(f.amount)::text as amount, sum(f.paid)::text as paid
         from stored_package p join storage_fee f on f.stored_package_id = p.id
         where p.storage_order_id = $1 group by p.id order by p.id`,
        [created.id],
      );
    const sums = async () => {
      const [row] = await executeBound<{ amount: string; paid: string; moved: string }>(
        app.em(),
        `select (select coalesce(sum(amount), 0) from storage_fee where business_id = $1)::text as amount,
           (select coalesce(sum(paid), 0) from storage_fee where business_id = $1)::text as paid,
           (select coalesce(sum(amount), 0) from ledger_transfer where business_id = $1 and code = 'storage_fee')::text
             as moved`,
        [w.business.id],
      );
      return { amount: BigInt(row!.amount), paid: BigInt(row!.paid), moved: BigInt(row!.moved) };
    };
    let rows = await fees();
    assert.equal(rows.length, 3);
    for (const r of rows) {
      assert.deepEqual(
        r.periods,
        Array.from({ length: r.charged }, (_, i) => i),
        'each period once, from 0',
      );
      assert.ok(r.charged >= 3, `at least 3 periods started for package ${r.package_id}`);
      assert.equal(BigInt(r.amount), 60n * BigInt(r.charged));
    }
    // The wallet had 1.00: it paid that, the rest is owed and the wallet is empty.
    let s = await sums();
    assert.equal(s.paid, 100n);
    assert.equal(s.moved, 100n);
    assert.equal(await w.balance(), 0n);
    const owed = (await owedOf(app.em(), w.business.id, w.users.customer.id)).get('EUR')!;
    assert.equal(owed, s.amount - s.paid, 'sum of fees = sum moved + owed');
    assert.ok(owed > 0n);
    // The customer's wallet answer says so: in arrears, owing what the fee rows keep owed.
    const short = ok(await app.http.get('/v1/customer/credits', { token: w.customer }));
    assert.deepEqual(
      [short.in_arrears, short.owed, short.balance, short.currency],
      [true, (Number(owed) / 100).toFixed(2), '0.00', 'EUR'],
    );

    const listed = ok(await app.http.get('/v1/customer/stored-packages', { token: w.customer }));
    const charged = listed.packages.map((p: any) => Number(p.fees_charged));
    assert.ok(
      charged.every((c: number) => c >= 1.8),
      JSON.stringify(listed.packages),
    );
    assert.ok(listed.packages.some((p: any) => Number(p.fees_owed) > 0));
    assert.ok(listed.packages.every((p: any) => p.age_days >= 2 && p.periods_charged >= 3));

    // A top-up, and the next run collects what is owed with the new periods.
    await w.topUp(100_000n);
    const second = await runFees(w.business.id);
    const elapsed = (Date.now() - before) / 1000;
    assert.ok(second.customers <= 1, JSON.stringify(second));
    s = await sums();
    assert.equal(s.paid, s.amount, 'nothing owed after the top-up');
    assert.equal(s.moved, s.paid);
    assert.equal(await w.balance(), 100_000n + 100n - s.amount);
    assert.equal((await owedOf(app.em(), w.business.id, w.users.customer.id)).get('EUR') ?? 0n, 0n);
    const settled = ok(await app.http.get('/v1/customer/credits', { token: w.customer }));
    assert.deepEqual([settled.in_arrears, settled.owed], [false, '0.00'], 'nothing owed: no longer in arrears');
    rows = await fees();
    for (const r of rows) {
      assert.deepEqual(
        r.periods,
        Array.from({ length: r.charged }, (_, i) => i),
      );
      assert.ok(r.charged <= 3 + Math.ceil(elapsed) + 2, `no period charged ahead of time (${r.charged})`);
    }
    const [keys] = await executeBound<{ keys: string[] }>(
      app.em(),
      `select array_agg(key order by id) as keys from ledger_transfer where business_id = $1 and code = 'storage_fee'`,
      [w.business.id],
    );
    assert.ok(keys!.keys.every((k) => k.startsWith(`fee-${w.users.customer.id}-`)));
    await assertLedgerInvariants(app.em(), w.business.id);
  });

  test('cancel refunds what was paid and releases the packages; the warehouse then refuses them', async () => {
    const w = await storageWorld(app);
    await w.topUp(1000n);
    const created = so(await create(w), 201);
    so(await pay(w, created.id));
    assert.equal(await w.balance(), 640n);
    const cancelled = so(
      await app.http.post(`/v1/customer/storage-orders/${created.id}/cancel`, {}, { token: w.customer }),
    );
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(cancelled.can_cancel, false);
    assert.ok(cancelled.packages.every((p: any) => p.state === 'released'));
    assert.equal(await w.balance(), 1000n, 'refunded');
    const again = await app.http.post(`/v1/customer/storage-orders/${created.id}/cancel`, {}, { token: w.customer });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'STORAGE_ORDER_NOT_CANCELLABLE');
    assert.equal(await w.balance(), 1000n, 'refunded once');
    const scan = await w.receive(created.packages[0].tracking_number);
    assert.equal(scan.status, 409);
    assert.equal(scan.body.code, 'PACKAGE_NOT_RECEIVABLE');
    const [refunds] = await executeBound<{ keys: string[] }>(
      app.em(),
      `select array_agg(key) as keys from ledger_transfer where business_id = $1 and code = 'refund'`,
      [w.business.id],
    );
    assert.deepEqual(refunds!.keys, [`sto-${created.id}-refund`]);
    await assertLedgerInvariants(app.em(), w.business.id);
  });

  test('an unpaid order expires: its packages released, a partial payment refunded', async () => {
    const w = await storageWorld(app, { unpaidExpirySeconds: 2 });
    await w.topUp(100n);
    const created = so(await create(w), 201);
    so(await pay(w, created.id));
    assert.equal(await w.balance(), 0n);
    const expired = await waitFor(async () => {
      const read = so(await get(w, created.id));
      return read.status === 'expired' ? read : null;
    }, 30_000);
    assert.ok(expired.packages.every((p: any) => p.state === 'released'));
    assert.equal(expired.expires_at, null);
    assert.equal(await w.balance(), 100n, 'the partial payment refunded');
    const late = await pay(w, created.id);
    assert.equal(late.status, 409);
    assert.equal(late.body.code, 'NOTHING_DUE');
    await assertLedgerInvariants(app.em(), w.business.id);
  });

  test('hidden storage prices: no price field anywhere, pay 403, settled offline, fees kept off the wallet', async () => {
    const w = await storageWorld(app, { storageDaySeconds: 1 });
    await w.hidePrices();
    await w.topUp(10_000n);
    const config = ok(await app.http.get('/v1/customer/storage-orders/config', { token: w.customer }));
    assert.equal(config.price_hidden, true);
    assert.equal(config.currency, undefined);
    assert.equal(config.services[0].price_per_period, undefined);
    assert.equal(config.services[0].handling_fee, undefined);
    const quote = ok(
      await app.http.post(
        '/v1/customer/storage-orders/calculate-price',
        { service_code: 'ST', packages: boxes(1) },
        { token: w.customer },
      ),
    );
    assert.equal(quote.price_hidden, true);
    for (const f of PRICE_FIELDS) assert.equal(quote[f], undefined, f);
    const created = so(await create(w), 201);
    assert.equal(created.price_hidden, true);
    for (const f of PRICE_FIELDS) assert.equal(created[f], undefined, f);
    const refused = await pay(w, created.id);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'PRICE_HIDDEN_SETTLE_OFFLINE');
    const unknown = await pay(w, created.id + 1_000_000);
    assert.equal(unknown.status, 404, 'an order that is not yours is NOT_FOUND first');

    const settled = so(
      await app.http.post(`/v1/client/storage-orders/${created.id}/settle-offline`, {}, { token: w.admin }),
    );
    assert.equal(settled.status, 'confirmed');
    assert.equal(settled.settled_offline, true);
    assert.equal(settled.offline_amount, '3.60', 'staff see the prices');
    const seen = so(await get(w, created.id));
    assert.equal(seen.settled_offline, true, 'a boolean the customer sees too');
    assert.equal(seen.offline_amount, undefined);
    const denied = await app.http.post(
      `/v1/client/storage-orders/${created.id}/settle-offline`,
      {},
      { token: w.employee },
    );
    assert.equal(denied.status, 403);
    for (const p of created.packages) ok(await w.receive(p.tracking_number));
    await new Promise((r) => setTimeout(r, 1_200));
    const run = await runFees(w.business.id);
    assert.equal(run.transfers, 0, JSON.stringify(run));
    assert.equal(await w.balance(), 10_000n, 'nothing taken from the wallet');
    const [offline] = await executeBound<{ n: number; rows: number }>(
      app.em(),
      `select count(*) filter (where settle <> 'offline')::int as n, count(*)::int as rows from storage_fee
       where business_id = $1`,
      [w.business.id],
    );
    assert.equal(offline!.n, 0);
    assert.ok(offline!.rows >= 3, 'each package charged its periods, offline');
    assert.equal((await owedOf(app.em(), w.business.id, w.users.customer.id)).size, 0, 'no arrears in the wallet');
    const listed = ok(await app.http.get('/v1/customer/stored-packages', { token: w.customer }));
    assert.ok(listed.packages.every((p: any) => p.price_hidden === true && p.fees_charged === undefined));
    const read = so(await get(w, created.id));
    for (const f of PRICE_FIELDS) assert.equal(read[f], undefined, f);

    // Shown again: the fees settled offline are charged, and owed to the business, not by the wallet.
    await executeBound(app.em(), "update app_user set hidden_price_families = '{}' where id = $1", [
      w.users.customer.id,
    ]);
    const shown = ok(await app.http.get('/v1/customer/stored-packages', { token: w.customer }));
    assert.ok(shown.packages.every((p: any) => Number(p.fees_charged) > 0 && p.fees_owed === '0.00'));
  });

  test('wallet fees owed from before the prices were hidden are not collected, and do not make the customer due', async () => {
    const w = await storageWorld(app, { storageDaySeconds: 1 });
    await w.topUp(360n);
    const created = so(await create(w), 201);
    so(await pay(w, created.id));
    for (const p of created.packages) ok(await w.receive(p.tracking_number));
    await new Promise((r) => setTimeout(r, 1_200));
    await runFees(w.business.id);
    const owed = (await owedOf(app.em(), w.business.id, w.users.customer.id)).get('EUR')!;
    assert.ok(owed > 0n, 'the empty wallet owes its fees');
    // Nothing more due: the packages left the warehouse.
    await executeBound(app.em(), "update stored_package set state = 'shipped' where storage_order_id = $1", [
      created.id,
    ]);
    const due = async () =>
      (await customersDue(app.em(), { after: 0, limit: 10, businessId: w.business.id })).map((c) => c.customer_id);
    assert.deepEqual(await due(), [w.users.customer.id], 'owed from the wallet: due');
    await w.hidePrices();
    await w.topUp(10_000n);
    assert.deepEqual(await due(), [], 'hidden: the wallet debt is not visited every run');
    await runFees(w.business.id);
    assert.equal(await w.balance(), 10_000n, 'nothing collected while hidden');
  });

  test('isolation: another customer and another business find nothing; staff may not act as the customer', async () => {
    const w = await storageWorld(app);
    const other = await storageWorld(app);
    const created = so(await create(w), 201);
    const second = await w.otherCustomer();
    for (const token of [second.token, other.customer]) {
      assert.equal((await get(w, created.id, token)).status, 404);
      const paid = await pay(w, created.id, {}, token);
      assert.equal(paid.status, 404);
      const cancel = await app.http.post(`/v1/customer/storage-orders/${created.id}/cancel`, {}, { token });
      assert.equal(cancel.status, 404);
      const list = ok(await app.http.get('/v1/customer/storage-orders', { token }));
      assert.equal(list.total, 0);
      const packages = ok(await app.http.get('/v1/customer/stored-packages', { token }));
      assert.equal(packages.total, 0);
    }
    const foreign = await app.http.post(
      `/v1/client/storage-orders/${created.id}/settle-offline`,
      {},
      { token: other.admin },
    );
    assert.equal(foreign.status, 404);
    assert.equal((await get(w, created.id, w.admin)).status, 403);
  });
});
