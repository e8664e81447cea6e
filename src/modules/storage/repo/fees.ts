/**
 * The storage fee run's SQL (docs/customer-services.md, "The storage fee run"). A period is due for a package in
 * the warehouse (stored or reserved) once it has started: period i starts at received_at + i * length, and
 * `fees_charged_periods` says how many are charged. The insert selects what is due and the unique (package, period)
 * makes a repeat insert nothing; `now()` is the transaction's start, so one transaction charges one instant.
 */
import { executeBound, type Em } from '../../../platform/db/orm.ts';

/**
 * The customers with a period due or a wallet fee owed, in id order after `after`. A customer whose storage prices
 * are hidden pays nothing from the wallet (chargeCustomer collects nothing): its wallet fees from before the hiding
 * do not make it due, or every run would visit it again for nothing.
 */
export async function customersDue(
  em: Em,
  f: { after: number; limit: number; businessId: number | null },
): Promise<{ customer_id: number; business_id: number }[]> {
  return executeBound(
    em,
    `select customer_id, business_id from (
       select p.customer_id, p.business_id
       from stored_package p
       join storage_order o on o.id = p.storage_order_id
       where p.state in ('stored', 'reserved') and p.received_at is not null and p.customer_id > $1
         and ($3::int is null or p.business_id = $3)
         and p.received_at + make_interval(secs => p.fees_charged_periods::double precision
           * (case o.period when 'month' then 30 else 1 end) * o.storage_day_seconds) <= now()
       union
       select f.customer_id, f.business_id from storage_fee f
       join app_user u on u.id = f.customer_id
       where f.paid < f.amount and f.settle = 'wallet' and f.customer_id > $1 and ($3::int is null or f.business_id = $3)
         and not ('storage_services' = any(coalesce(u.hidden_price_families, '{}')))
     ) c
     order by customer_id limit $2`,
    [f.after, f.limit, f.businessId],
  );
}

/** Serialises the fee work of one customer (two runs at once charge, collect and mark one after the other). */
export async function lockCustomerFees(em: Em, customerId: number): Promise<void> {
  await executeBound(em, "select pg_advisory_xact_lock(hashtext('storage_fee'), $1)", [customerId]);
}

export interface ChargedCurrency {
  currency: string;
  fees: number;
  /** The newest fee row inserted in this currency. */
  newest: string;
}

/**
 * Inserts a fee row per package and period due of the customer, at its order's terms (period_price + period_tax,
 * the order's currency), and advances each package's `fees_charged_periods`. `settle` is the new rows' settlement.
 * Answers what was inserted per currency.
 */
export async function insertDueFees(
  em: Em,
  f: { businessId: number; customerId: number; settle: 'wallet' | 'offline' },
): Promise<ChargedCurrency[]> {
  return executeBound<ChargedCurrency>(
    em,
    `with pkg as (
       select p.id, p.received_at, p.fees_charged_periods, o.currency, o.period_price + o.period_tax as amount,
         (case o.period when 'month' then 30 else 1 end) * o.storage_day_seconds::double precision as len
       from stored_package p join storage_order o on o.id = p.storage_order_id
       where p.business_id = $1 and p.customer_id = $2 and p.state in ('stored', 'reserved') and p.received_at is not null
     ), due as (
       select pkg.id, pkg.currency, pkg.amount, gs.i, pkg.received_at + make_interval(secs => gs.i * pkg.len) as starts,
         pkg.received_at + make_interval(secs => (gs.i + 1) * pkg.len) as ends
       from pkg cross join lateral generate_series(
         pkg.fees_charged_periods, floor(extract(epoch from now() - pkg.received_at) / pkg.len)::int) gs(i)
     ), ins as (
       insert into storage_fee (business_id, customer_id, stored_package_id, period_index, period_start, period_end,
         amount, currency, settle)
       select $1, $2, due.id, due.i, due.starts, due.ends, due.amount, due.currency, $3 from due order by due.id, due.i
       on conflict (stored_package_id, period_index) do nothing
       returning id, currency
     ), advanced as (
       update stored_package p set fees_charged_periods = d.next
       from (select id, max(i) + 1 as next from due group by id) d
       where p.id = d.id and p.fees_charged_periods < d.next
     )
     select currency, count(*)::int as fees, max(id)::text as newest from ins group by currency`,
    [f.businessId, f.customerId, f.settle],
  );
}

export interface OwedCurrency {
  currency: string;
  owed: bigint;
  /** The newest wallet fee of the customer in this currency, and what its fees have been paid so far. */
  newest: string;
  paid: bigint;
}

/** What the customer owes from the wallet, per currency (fees settled offline are not the wallet's). */
export async function walletOwed(em: Em, businessId: number, customerId: number): Promise<OwedCurrency[]> {
  const rows = await executeBound<{ currency: string; owed: string; newest: string; paid: string }>(
    em,
    `select currency, sum(amount - paid)::text as owed, max(id)::text as newest, sum(paid)::text as paid
     from storage_fee where business_id = $1 and customer_id = $2 and settle = 'wallet'
     group by currency having sum(amount - paid) > 0 order by currency`,
    [businessId, customerId],
  );
  return rows.map((r) => ({ currency: r.currency, owed: BigInt(r.owed), newest: r.newest, paid: BigInt(r.paid) }));
}

/** Marks the customer's owed wallet fees of the currency paid, oldest first, up to `amount`, by this transfer. */
export async function markFeesPaid(
  em: Em,
  f: { businessId: number; customerId: number; currency: string; amount: bigint; transferId: number },
): Promise<number> {
  const rows = await executeBound<{ id: string }>(
    em,
    `with owed as (
       select id, amount - paid as owe, sum(amount - paid) over (order by id) as upto
       from storage_fee
       where business_id = $1 and customer_id = $2 and currency = $3 and settle = 'wallet' and paid < amount
     )
     update storage_fee f set paid = f.paid + least(o.owe, $4::bigint - (o.upto - o.owe)), transfer_id = $5
     from owed o where f.id = o.id and o.upto - o.owe < $4::bigint
     returning f.id::text`,
    [f.businessId, f.customerId, f.currency, f.amount.toString(), f.transferId],
  );
  return rows.length;
}

/** Owed per currency: wallet fees not fully paid (what get_account_credits shows, and `in_arrears` while > 0). */
export async function owedByCurrency(em: Em, businessId: number, customerId: number): Promise<Map<string, bigint>> {
  const rows = await executeBound<{ currency: string; owed: string }>(
    em,
    `select currency, sum(amount - paid)::text as owed from storage_fee
     where business_id = $1 and customer_id = $2 and settle = 'wallet' and paid < amount group by currency`,
    [businessId, customerId],
  );
  return new Map(rows.map((r) => [r.currency, BigInt(r.owed)]));
}
