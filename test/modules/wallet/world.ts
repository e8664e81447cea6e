/**
 * The wallet tests' checks of the ledger's invariants (docs/customer-services.md, "The wallet: a ledger"), read
 * straight from the tables of one business.
 */
import assert from 'node:assert/strict';
import { executeBound, type Em } from '../../../src/platform/db/orm.ts';

interface AccountSums {
  id: string;
  kind: string;
  customer_id: number | null;
  debits_posted: string;
  credits_posted: string;
  debits_pending: string;
  credits_pending: string;
  entry_debits: string;
  entry_credits: string;
  last_balance: string | null;
  held: string;
}

/**
 * Over the business: every posted transfer has two entries that balance (sum of debits = sum of credits), every
 * account's stored columns are the sums of its entries and open holds, its newest entry's balance_after is its
 * balance, and no wallet is below zero.
 */
export async function assertLedgerInvariants(em: Em, businessId: number): Promise<void> {
  const accounts = await executeBound<AccountSums>(
    em,
    `select a.id::text, a.kind, a.customer_id, a.debits_posted::text, a.credits_posted::text, a.debits_pending::text,
            a.credits_pending::text,
            coalesce(sum(case when (a.kind = 'funding') = (e.amount > 0) then abs(e.amount) end), 0)::text as entry_debits,
            coalesce(sum(case when (a.kind = 'funding') <> (e.amount > 0) then abs(e.amount) end), 0)::text as entry_credits,
            (select balance_after::text from ledger_entry where account_id = a.id order by id desc limit 1) as last_balance,
            (select coalesce(sum(amount), 0)::text from ledger_transfer
              where debit_account_id = a.id and state = 'pending') as held
     from ledger_account a left join ledger_entry e on e.account_id = a.id
     where a.business_id = $1 group by a.id order by a.id`,
    [businessId],
  );
  let debits = 0n;
  let credits = 0n;
  for (const a of accounts) {
    const what = `account ${a.id} (${a.kind})`;
    assert.equal(a.debits_posted, a.entry_debits, `${what}: debits_posted = its entries' debits`);
    assert.equal(a.credits_posted, a.entry_credits, `${what}: credits_posted = its entries' credits`);
    assert.equal(a.debits_pending, a.held, `${what}: debits_pending = its open holds`);
    const balance =
      a.kind === 'funding'
        ? BigInt(a.debits_posted) - BigInt(a.credits_posted)
        : BigInt(a.credits_posted) - BigInt(a.debits_posted);
    if (a.last_balance !== null) assert.equal(BigInt(a.last_balance), balance, `${what}: newest balance_after`);
    if (a.kind === 'wallet') {
      assert.ok(
        BigInt(a.credits_posted) - BigInt(a.debits_posted) - BigInt(a.debits_pending) >= 0n,
        `${what} below zero`,
      );
    }
    debits += BigInt(a.debits_posted);
    credits += BigInt(a.credits_posted);
  }
  assert.equal(debits, credits, 'the sum of debits equals the sum of credits');
  const [pairs] = await executeBound<{ unbalanced: string }>(
    em,
    `select count(*)::text as unbalanced from ledger_transfer t
     where t.business_id = $1 and t.state in ('posted') and t.code <> 'hold'
       and (select count(*) from ledger_entry e where e.transfer_id = t.id) <> 2`,
    [businessId],
  );
  assert.equal(pairs!.unbalanced, '0', 'every posted transfer has two entries');
}

/** How many transfers and entries the business has, to show that a refusal wrote nothing. */
export async function ledgerCounts(em: Em, businessId: number) {
  const [row] = await executeBound<{ transfers: string; entries: string; accounts: string }>(
    em,
    `select (select count(*) from ledger_transfer where business_id = $1)::text as transfers,
            (select count(*) from ledger_entry e join ledger_account a on a.id = e.account_id
              where a.business_id = $1)::text as entries,
            (select coalesce(sum(debits_posted + credits_posted + debits_pending + credits_pending), 0)
               from ledger_account where business_id = $1)::text as accounts`,
    [businessId],
  );
  return row!;
}
