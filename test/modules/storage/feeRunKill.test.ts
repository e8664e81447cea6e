// The storage fee run survives a killed worker (docs/customer-services.md, "The storage fee run"): 4,000 stored
// packages of 1,000 customers, each with 11 storage periods started, half the customers with some money in their
// wallet. The worker runs as its own OS process and is killed (SIGKILL) mid-run; a new worker finishes the run.
// Afterwards every package is charged exactly once per period, the fees sum to what moved plus what is owed, each
// wallet lost exactly what its fees were paid, and the ledger balances. Real parts: the suite's Temporal,
// PostgreSQL, a worker process of its own.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { User } from '../../../src/modules/identity/index.ts';
import {
  STORAGE_FEE_RUN_WORKFLOW,
  STORAGE_QUEUE,
  storageFeeRunWorkflowId,
} from '../../../src/modules/storage/contract.ts';
import type { storageFeeRun } from '../../../src/modules/storage/workflows.ts';
import { executeBound } from '../../../src/platform/db/orm.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { spawnRole, stopChild } from '../../helpers/roles.ts';
import { waitFor } from '../../helpers/wait.ts';
import { assertLedgerInvariants } from '../wallet/world.ts';
import { storageWorld } from './world.ts';

const CUSTOMERS = 1_000;
const PER_CUSTOMER = 4;
const PERIODS = 11;
/** A period costs 0.12 (0.10 + 20 % tax); an hour long, received 10.5 hours ago: periods 0 to 10 have started. */
const FEE = 12n;
const TOP_UP = 300n;

describe('the storage fee run survives a killed worker', () => {
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

  test(
    'a SIGKILL mid-run: each package charged once per period, fees = moved + owed',
    { timeout: 300_000 },
    async () => {
      const w = await storageWorld(app, { storageDaySeconds: 3600 });
      const em = app.em();
      const customers = Array.from({ length: CUSTOMERS }, (_, i) =>
        em.create(User, {
          businessId: w.business.id,
          email: `fee-${i}-${randomUUID().slice(0, 8)}@test.example`,
          name: `Fee customer ${i}`,
          role: 'customer',
          passwordHash: 'x',
        }),
      );
      await em.flush();
      const ids = customers.map((c) => c.id);
      const [service] = await executeBound<{ id: number }>(
        app.em(),
        `select id from storage_service where business_id = $1 and code = 'ST'`,
        [w.business.id],
      );
      await executeBound(
        app.em(),
        `with orders as (
         insert into storage_order (business_id, customer_id, service_id, service_code, warehouse_id, status, currency,
           total, tax, price_details, period, period_price, period_tax, storage_day_seconds)
         select $1, c, $2, 'ST', $3, 'confirmed', 'EUR', 0, 0, '[]', 'day', 10, 2, 3600 from unnest($4::int[]) c
         returning id, customer_id
       )
       insert into stored_package (business_id, customer_id, warehouse_id, storage_order_id, tracking_number, state,
         receivable, received_at)
       select $1, o.customer_id, $3, o.id, 'SP' || lpad((o.id * 10 + n)::text, 10, '0'), 'stored', true,
         now() - interval '10 hours 30 minutes'
       from orders o cross join generate_series(1, $5) n`,
        [w.business.id, service!.id, w.warehouse.id, ids, PER_CUSTOMER],
      );
      // Every other customer has 3.00: a part of its 5.28 of fees.
      for (const id of ids.filter((_, i) => i % 2 === 0)) await w.topUp(TOP_UP, id);

      let worker = await spawnRole('worker', {}, children);
      const handle = await app.running.temporal.workflow.start<typeof storageFeeRun>(STORAGE_FEE_RUN_WORKFLOW, {
        workflowId: storageFeeRunWorkflowId(`kill-${randomUUID()}`),
        taskQueue: STORAGE_QUEUE,
        args: [{ business_id: w.business.id }],
      });
      const charged = async () =>
        (
          await executeBound<{ n: number }>(
            app.em(),
            'select count(*)::int as n from storage_fee where business_id = $1',
            [w.business.id],
          )
        )[0]!.n;
      await waitFor(async () => (await charged()) >= 2_000, 120_000, 20);
      await stopChild(worker.child, 'SIGKILL');
      const midway = await charged();
      assert.ok(midway < CUSTOMERS * PER_CUSTOMER * PERIODS, `killed mid-run (${midway} fees charged)`);
      const { status } = await handle.describe();
      assert.equal(status.name, 'RUNNING', 'the run was not over when its worker died');
      worker = await spawnRole('worker', {}, children);

      const totals = await handle.result();
      assert.ok(totals.customers >= CUSTOMERS, JSON.stringify(totals));

      const [per] = await executeBound<{ packages: number; exact: number; advanced: number }>(
        app.em(),
        `select count(*)::int as packages,
         count(*) filter (where f.periods = $2)::int as exact,
         count(*) filter (where p.fees_charged_periods = $3)::int as advanced
       from stored_package p
       left join lateral (
         select array_agg(period_index order by period_index) as periods from storage_fee where stored_package_id = p.id
       ) f on true
       where p.business_id = $1`,
        [w.business.id, Array.from({ length: PERIODS }, (_, i) => i), PERIODS],
      );
      assert.deepEqual(per, {
        packages: CUSTOMERS * PER_CUSTOMER,
        exact: CUSTOMERS * PER_CUSTOMER,
        advanced: CUSTOMERS * PER_CUSTOMER,
      });

      const [sums] = await executeBound<{ fees: string; paid: string; owed: string; moved: string; rows: number }>(
        app.em(),
        `select count(*)::int as rows, sum(amount)::text as fees, sum(paid)::text as paid,
         sum(amount - paid)::text as owed,
         (select coalesce(sum(amount), 0) from ledger_transfer where business_id = $1 and code = 'storage_fee')::text
           as moved
       from storage_fee where business_id = $1`,
        [w.business.id],
      );
      assert.equal(sums!.rows, CUSTOMERS * PER_CUSTOMER * PERIODS);
      assert.equal(BigInt(sums!.fees), BigInt(CUSTOMERS * PER_CUSTOMER * PERIODS) * FEE);
      assert.equal(BigInt(sums!.fees), BigInt(sums!.moved) + BigInt(sums!.owed), 'fees = moved + owed');
      assert.equal(sums!.moved, sums!.paid);
      assert.equal(BigInt(sums!.moved), BigInt(CUSTOMERS / 2) * TOP_UP, 'each topped-up wallet paid all it had');

      // Per customer: its wallet lost exactly what its fees were paid, and no customer paid twice.
      const [wallets] = await executeBound<{ wrong: number }>(
        app.em(),
        `select count(*)::int as wrong from (
         select f.customer_id, sum(f.paid) as paid,
           coalesce((select credits_posted - debits_posted from ledger_account a
             where a.business_id = $1 and a.kind = 'wallet' and a.customer_id = f.customer_id), 0) as balance,
           (select count(*) from ledger_transfer t join ledger_account a on a.id = t.debit_account_id
             where t.code = 'storage_fee' and a.customer_id = f.customer_id) as transfers
         from storage_fee f where f.business_id = $1 group by f.customer_id
       ) c
       where c.balance <> (case when c.paid > 0 then $2::bigint else 0 end) - c.paid or c.transfers > 1`,
        [w.business.id, TOP_UP.toString()],
      );
      assert.equal(wallets!.wrong, 0);
      await assertLedgerInvariants(app.em(), w.business.id);
      await stopChild(worker.child, 'SIGTERM');
    },
  );
});
