/**
 * Section 16 of `npm run bench`, its storage part (docs/customer-services.md, "Tests, scenarios and bench"): the
 * storage fee run over STORAGE_PACKAGES stored packages (100,000 by default, BENCH_STORAGE_PACKAGES, in hundreds),
 * 100 for each of STORAGE_PACKAGES / 100 customers, every package received half a storage day ago: one period due each. Half the
 * customers hold money in their wallet, so that half the transactions make a transfer and mark fees paid, and half
 * keep their fees owed. The run is the workflow `storageFeeRun` as the schedule starts it, on the bench's worker:
 * pages of 200 customers, one transaction per customer (the due rows inserted, fees_charged_periods advanced, the
 * balancing transfer, the fees marked paid). Its baseline, in the same process and database, is one bare set-based
 * insert of the same fee rows (same columns, same unique index) into a copy of the table, with no ledger, no
 * per-customer transactions and no workflow. Both are reported in packages per second.
 */
import type { Client } from '@temporalio/client';
import { executeBound, type Em } from '../src/platform/db/orm.ts';
import { STORAGE_FEE_RUN_WORKFLOW, STORAGE_QUEUE, storageFeeRunWorkflowId } from '../src/modules/storage/contract.ts';
import type { storageFeeRun } from '../src/modules/storage/workflows.ts';
import { transfer } from '../src/modules/wallet/index.ts';
import { makeBusiness } from '../test/helpers/factories.ts';

export const STORAGE_PACKAGES = Number(process.env.BENCH_STORAGE_PACKAGES ?? 100_000);
const PER_CUSTOMER = 100;

export interface StorageFeesRun {
  packages: number;
  customers: number;
  fees: number;
  transfers: number;
  /** The fee run, packages charged per second. */
  perSecond: number;
  /** The bare insert of the same rows, packages per second. */
  barePerSecond: number;
}

export async function storageFeesBench(em: Em, temporal: Client): Promise<StorageFeesRun> {
  const b = await makeBusiness(em);
  const businessId = b.business.id;
  const customers = Math.max(1, Math.round(STORAGE_PACKAGES / PER_CUSTOMER));
  const [warehouse] = await executeBound<{ id: number }>(
    em,
    `insert into warehouse (business_id, code, name, address, timezone)
     values ($1, 'BENCH', 'Bench warehouse', '{"line1":"1 rue A","city":"Paris","postal_code":"75001","country":"FR"}',
       'Europe/Paris') returning id`,
    [businessId],
  );
  const [service] = await executeBound<{ id: number }>(
    em,
    `insert into storage_service (business_id, code, name, warehouse_id, period, price_per_period, handling_fee, tax_rate)
     values ($1, 'BENCH', 'Bench storage', $2, 'day', 0.10, 0, 20) returning id`,
    [businessId, warehouse!.id],
  );
  const ids = (
    await executeBound<{ id: number }>(
      em,
      `insert into app_user (business_id, email, name, role, password_hash)
       select $1, 'bench-storage-' || n || '-' || $2 || '@test.example', 'Storage ' || n, 'customer', 'x'
       from generate_series(1, $3::int) n order by n returning id`,
      [businessId, b.tag, customers],
    )
  ).map((r) => r.id);
  // One order per customer, 100 packages each, received 12 hours ago: period 0 is due for every one.
  await executeBound(
    em,
    `with orders as (
       insert into storage_order (business_id, customer_id, service_id, service_code, warehouse_id, status, currency,
         total, tax, price_details, period, period_price, period_tax, storage_day_seconds)
       select $1, c, $2, 'BENCH', $3, 'confirmed', 'USD', 0, 0, '[]', 'day', 10, 2, 86400 from unnest($4::int[]) c
       returning id, customer_id
     )
     insert into stored_package (business_id, customer_id, warehouse_id, storage_order_id, tracking_number, state,
       receivable, received_at)
     select $1, o.customer_id, $3, o.id, 'SP' || lpad((o.id::bigint * 1000 + n)::text, 10, '0'), 'stored', true,
       now() - interval '12 hours'
     from orders o cross join generate_series(1, $5::int) n`,
    [businessId, service!.id, warehouse!.id, ids, PER_CUSTOMER],
  );
  const [{ n: packages }] = (await executeBound<{ n: number }>(
    em,
    'select count(*)::int as n from stored_package where business_id = $1',
    [businessId],
  )) as [{ n: number }];
  // Every other customer can pay half its fees.
  for (const [i, customerId] of ids.entries())
    if (i % 2 === 0)
      await transfer(em.fork(), {
        businessId,
        key: `bench-storage-top-${i}`,
        currency: 'USD',
        code: 'top_up',
        amount: BigInt(PER_CUSTOMER * 6),
        debit: { kind: 'funding' },
        credit: { kind: 'wallet', customerId },
      });
  for (const table of ['stored_package', 'storage_order', 'storage_fee'])
    await executeBound(em, `analyze ${table}`, []);

  // The baseline: the same rows in one statement, into a copy of the table with its unique index (a table of its
  // own, not a temporary one: each statement may take another connection of the pool).
  await executeBound(
    em,
    'create table storage_fee_bench (like storage_fee including defaults including identity including indexes)',
    [],
  );
  const bareStart = performance.now();
  await executeBound(
    em,
    `insert into storage_fee_bench (business_id, customer_id, stored_package_id, period_index, period_start, period_end,
       amount, currency, settle)
     select p.business_id, p.customer_id, p.id, gs.i, p.received_at + make_interval(secs => gs.i * 86400.0),
       p.received_at + make_interval(secs => (gs.i + 1) * 86400.0), o.period_price + o.period_tax, o.currency, 'wallet'
     from stored_package p join storage_order o on o.id = p.storage_order_id
     cross join lateral generate_series(p.fees_charged_periods,
       floor(extract(epoch from now() - p.received_at) / 86400.0)::int) gs(i)
     where p.business_id = $1 and p.state in ('stored', 'reserved')
     on conflict (stored_package_id, period_index) do nothing`,
    [businessId],
  );
  const bareSeconds = (performance.now() - bareStart) / 1000;
  await executeBound(em, 'drop table storage_fee_bench', []);

  const start = performance.now();
  const totals = await temporal.workflow.execute<typeof storageFeeRun>(STORAGE_FEE_RUN_WORKFLOW, {
    workflowId: storageFeeRunWorkflowId(`bench-${b.tag}`),
    taskQueue: STORAGE_QUEUE,
    args: [{ business_id: businessId }],
  });
  const seconds = (performance.now() - start) / 1000;
  if (totals.fees !== packages) throw new Error(`the fee run charged ${totals.fees} periods of ${packages} packages`);
  return {
    packages,
    customers: totals.customers,
    fees: totals.fees,
    transfers: totals.transfers,
    perSecond: packages / seconds,
    barePerSecond: packages / bareSeconds,
  };
}
