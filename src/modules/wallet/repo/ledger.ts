/**
 * The ledger's SQL (docs/customer-services.md, "The wallet: a ledger"). Amounts are bigint minor units in the
 * database and BigInt here: every bigint column is read as text and converted, never through a JS number.
 */
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import type { PriceFamily } from '../../../platform/db/outbox.ts';

export type AccountKind = 'wallet' | 'revenue' | 'funding';

/** One account as a transfer sees it under its lock. */
export interface AccountRow {
  id: number;
  kind: AccountKind;
  customer_id: number | null;
  currency: string;
  allow_negative: boolean;
  debits_posted: bigint;
  credits_posted: bigint;
  debits_pending: bigint;
  credits_pending: bigint;
}

interface RawAccount extends Omit<
  AccountRow,
  'id' | 'debits_posted' | 'credits_posted' | 'debits_pending' | 'credits_pending'
> {
  id: string;
  debits_posted: string;
  credits_posted: string;
  debits_pending: string;
  credits_pending: string;
}

const ACCOUNT_COLUMNS = `id::text, kind, customer_id, currency, allow_negative, debits_posted::text, credits_posted::text,
  debits_pending::text, credits_pending::text`;

const account = (r: RawAccount): AccountRow => ({
  id: Number(r.id),
  kind: r.kind,
  customer_id: r.customer_id,
  currency: r.currency,
  allow_negative: r.allow_negative,
  debits_posted: BigInt(r.debits_posted),
  credits_posted: BigInt(r.credits_posted),
  debits_pending: BigInt(r.debits_pending),
  credits_pending: BigInt(r.credits_pending),
});

/** Which account: the business's own (customerId null) or a customer's wallet. */
export interface AccountKey {
  kind: AccountKind;
  customerId: number | null;
}

/**
 * Locks the named accounts of one business and currency `for update`, in id order, and answers those that exist
 * (a transfer creates the missing ones first: `createAccounts`). Id order is the same for every transfer, so two
 * transfers over the same pair wait for each other instead of deadlocking.
 */
export async function lockAccounts(
  em: Em,
  businessId: number,
  currency: string,
  keys: readonly AccountKey[],
): Promise<AccountRow[]> {
  const params: unknown[] = [businessId, currency];
  const which = keys.map((k) => {
    params.push(k.kind);
    if (k.customerId === null) return `(kind = $${params.length} and customer_id is null)`;
    params.push(k.customerId);
    return `(kind = $${params.length - 1} and customer_id = $${params.length})`;
  });
  const rows = await executeBound<RawAccount>(
    em,
    `select ${ACCOUNT_COLUMNS} from ledger_account
     where business_id = $1 and currency = $2 and (${which.join(' or ')})
     order by id for update`,
    params,
  );
  return rows.map(account);
}

/** Locks the business's accounts with these ids `for update`, in id order. */
export async function lockAccountsOf(em: Em, businessId: number, ids: readonly number[]): Promise<AccountRow[]> {
  const rows = await executeBound<RawAccount>(
    em,
    `select ${ACCOUNT_COLUMNS} from ledger_account where business_id = $1 and id = any($2::bigint[]) order by id for update`,
    [businessId, ids],
  );
  return rows.map(account);
}

/** Creates the accounts that do not exist yet (first use); wallets may not go negative, the business's may. */
export async function createAccounts(
  em: Em,
  businessId: number,
  currency: string,
  keys: readonly AccountKey[],
): Promise<void> {
  await executeBound(
    em,
    `insert into ledger_account (business_id, kind, customer_id, currency, allow_negative)
     select $1, k, nullif(c, 0), $2, k <> 'wallet' from unnest($3::text[], $4::int[]) as u(k, c)
     order by k, c
     on conflict do nothing`,
    [businessId, currency, keys.map((k) => k.kind), keys.map((k) => k.customerId ?? 0)],
  );
}

export type TransferCode = 'top_up' | 'payment' | 'refund' | 'storage_fee' | 'hold' | 'hold_post' | 'hold_void';
export type TransferState = 'posted' | 'pending' | 'voided';
export type TransferFlag = 'pending' | 'balancing' | 'post_pending' | 'void_pending';

/** A stored transfer with what a repeat compares and what a post or void needs. */
export interface StoredTransfer {
  id: number;
  key: string;
  amount: bigint;
  currency: string;
  code: TransferCode;
  state: TransferState;
  flags: TransferFlag[];
  debit_account_id: number;
  credit_account_id: number;
  pending_id: number | null;
  requested: Record<string, unknown>;
  created_at: string;
}

interface RawTransfer extends Omit<
  StoredTransfer,
  'id' | 'amount' | 'debit_account_id' | 'credit_account_id' | 'pending_id' | 'created_at'
> {
  id: string;
  amount: string;
  debit_account_id: string;
  credit_account_id: string;
  pending_id: string | null;
  created_at: Date | string;
}

const TRANSFER_COLUMNS = `id::text, key, amount::text, currency, code, state, flags, debit_account_id::text,
  credit_account_id::text, pending_id::text, requested, created_at`;

const stored = (r: RawTransfer): StoredTransfer => ({
  id: Number(r.id),
  key: r.key,
  amount: BigInt(r.amount),
  currency: r.currency,
  code: r.code,
  state: r.state,
  flags: r.flags,
  debit_account_id: Number(r.debit_account_id),
  credit_account_id: Number(r.credit_account_id),
  pending_id: r.pending_id === null ? null : Number(r.pending_id),
  requested: r.requested,
  created_at: new Date(r.created_at).toISOString(),
});

/** The business's transfer with this key; `lock` takes its row lock (a hold about to be settled). */
export async function transferByKey(
  em: Em,
  businessId: number,
  key: string,
  lock = false,
): Promise<StoredTransfer | null> {
  const rows = await executeBound<RawTransfer>(
    em,
    `select ${TRANSFER_COLUMNS} from ledger_transfer where business_id = $1 and key = $2${lock ? ' for update' : ''}`,
    [businessId, key],
  );
  return rows[0] ? stored(rows[0]) : null;
}

/** What one account's columns move by, and the entry written for it (0: none, as for a hold). */
export interface AccountDelta {
  id: number;
  debitsPosted: bigint;
  creditsPosted: bigint;
  debitsPending: bigint;
  creditsPending: bigint;
  entry: bigint;
}

export interface NewTransfer {
  businessId: number;
  key: string;
  debitAccountId: number;
  creditAccountId: number;
  amount: bigint;
  currency: string;
  code: TransferCode;
  flags: TransferFlag[];
  pendingId: number | null;
  state: TransferState;
  reference: { type: string; id: string } | null;
  memo: string | null;
  requested: Record<string, unknown>;
  deltas: AccountDelta[];
  /** The hold this transfer settles, and the state it leaves it in. */
  settles: { id: number; state: TransferState } | null;
}

/**
 * Writes a transfer in one statement: the row (`on conflict (business_id, key) do nothing`), the accounts' columns,
 * their entries with the balance after, and the settled hold's state. Answers null when the key was taken
 * meanwhile: then nothing else was written (every other part hangs on the inserted row).
 */
export async function writeTransfer(em: Em, t: NewTransfer): Promise<StoredTransfer | null> {
  const rows = await executeBound<RawTransfer>(
    em,
    `with t as (
       insert into ledger_transfer (business_id, key, debit_account_id, credit_account_id, amount, currency, code, flags,
                                    pending_id, state, reference_type, reference_id, memo, requested)
       values ($1, $2, $3, $4, $5::bigint, $6, $7, $8::text[], $9, $10, $11, $12, $13, $14::jsonb)
       on conflict (business_id, key) do nothing
       returning ${TRANSFER_COLUMNS}, id as tid
     ),
     v as (
       select * from unnest($15::bigint[], $16::bigint[], $17::bigint[], $18::bigint[], $19::bigint[], $20::bigint[])
         as v(id, dp, cp, dpe, cpe, entry)
     ),
     u as (
       update ledger_account a set
         debits_posted = a.debits_posted + v.dp, credits_posted = a.credits_posted + v.cp,
         debits_pending = a.debits_pending + v.dpe, credits_pending = a.credits_pending + v.cpe
       from v where a.id = v.id and exists (select 1 from t)
       returning a.id, a.kind, a.debits_posted, a.credits_posted, v.entry
     ),
     e as (
       insert into ledger_entry (account_id, transfer_id, amount, balance_after)
       select u.id, t.tid, u.entry,
              case when u.kind = 'funding' then u.debits_posted - u.credits_posted else u.credits_posted - u.debits_posted end
       from u cross join t where u.entry <> 0
       order by u.id
     ),
     h as (
       update ledger_transfer set state = $22 where id = $21 and business_id = $1 and exists (select 1 from t)
     )
     select ${TRANSFER_COLUMNS} from t`,
    [
      t.businessId,
      t.key,
      t.debitAccountId,
      t.creditAccountId,
      t.amount.toString(),
      t.currency,
      t.code,
      t.flags,
      t.pendingId,
      t.state,
      t.reference?.type ?? null,
      t.reference?.id ?? null,
      t.memo,
      JSON.stringify(t.requested),
      t.deltas.map((d) => d.id),
      t.deltas.map((d) => d.debitsPosted.toString()),
      t.deltas.map((d) => d.creditsPosted.toString()),
      t.deltas.map((d) => d.debitsPending.toString()),
      t.deltas.map((d) => d.creditsPending.toString()),
      t.deltas.map((d) => d.entry.toString()),
      t.settles?.id ?? null,
      t.settles?.state ?? null,
    ],
  );
  return rows[0] ? stored(rows[0]) : null;
}

/** A wallet's account of one currency, or null before its first transfer. */
export async function walletAccount(
  em: Em,
  businessId: number,
  customerId: number,
  currency: string,
): Promise<AccountRow | null> {
  const rows = await executeBound<RawAccount>(
    em,
    `select ${ACCOUNT_COLUMNS} from ledger_account
     where business_id = $1 and kind = 'wallet' and customer_id = $2 and currency = $3`,
    [businessId, customerId, currency],
  );
  return rows[0] ? account(rows[0]) : null;
}

/** Every wallet account of the customer, one per currency it ever held, by currency. */
export async function walletAccounts(em: Em, businessId: number, customerId: number): Promise<AccountRow[]> {
  const rows = await executeBound<RawAccount>(
    em,
    `select ${ACCOUNT_COLUMNS} from ledger_account
     where business_id = $1 and kind = 'wallet' and customer_id = $2 order by currency`,
    [businessId, customerId],
  );
  return rows.map(account);
}

export interface EntryRow {
  id: number;
  currency: string;
  amount: bigint;
  balance_after: bigint;
  created_at: string;
  transfer_id: number;
  key: string;
  code: TransferCode;
  reference_type: string | null;
  reference_id: string | null;
  memo: string | null;
}

/**
 * The customer's newest wallet entries across its currencies, newest first. A hold's post names no order itself:
 * it reads the reference of the hold it posts.
 */
export async function newestEntries(em: Em, accountIds: readonly number[], limit: number): Promise<EntryRow[]> {
  if (accountIds.length === 0) return [];
  const rows = await executeBound<
    Omit<EntryRow, 'id' | 'amount' | 'balance_after' | 'transfer_id' | 'created_at'> & {
      id: string;
      amount: string;
      balance_after: string;
      transfer_id: string;
      created_at: Date | string;
    }
  >(
    em,
    `select e.id::text, a.currency, e.amount::text, e.balance_after::text, e.created_at, t.id::text as transfer_id, t.key,
            t.code, coalesce(t.reference_type, h.reference_type) as reference_type,
            coalesce(t.reference_id, h.reference_id) as reference_id, t.memo
     from (select * from ledger_entry where account_id = any($1::bigint[]) order by id desc limit $2) e
     join ledger_account a on a.id = e.account_id
     join ledger_transfer t on t.id = e.transfer_id
     left join ledger_transfer h on h.id = t.pending_id
     order by e.id desc`,
    [accountIds, limit],
  );
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    amount: BigInt(r.amount),
    balance_after: BigInt(r.balance_after),
    transfer_id: Number(r.transfer_id),
    created_at: new Date(r.created_at).toISOString(),
  }));
}

/** The customer account of the business with this id, or null (another business's, another role, unknown). */
export async function customerOfBusiness(em: Em, businessId: number, customerId: number): Promise<boolean> {
  const rows = await executeBound<{ id: number }>(
    em,
    `select id from app_user where id = $1 and business_id = $2 and role = 'customer'`,
    [customerId, businessId],
  );
  return rows.length > 0;
}

/**
 * The price families the business hides from this customer account of it (customer_price_hiding_set), read once
 * per answer as the orders module reads them.
 */
export async function hiddenFamiliesOf(em: Em, businessId: number, customerId: number): Promise<PriceFamily[]> {
  const rows = await executeBound<{ families: PriceFamily[] }>(
    em,
    `select coalesce(hidden_price_families, '{}') as families from app_user
     where id = $1 and business_id = $2 and role = 'customer'`,
    [customerId, businessId],
  );
  return rows[0]?.families ?? [];
}

/**
 * The business's customer-services currency. The table is the customer-services module's and its migration runs
 * after the wallet's (the wallet imports no module that could read it), so this reads it only when it exists and
 * falls back to USD, the settings' default.
 */
export async function businessCurrency(em: Em, businessId: number): Promise<string> {
  const [table] = await executeBound<{ present: boolean }>(
    em,
    `select to_regclass('customer_service_settings') is not null as present`,
    [],
  );
  if (!table?.present) return 'USD';
  const rows = await executeBound<{ currency: string }>(
    em,
    'select currency from customer_service_settings where business_id = $1',
    [businessId],
  );
  return rows[0]?.currency.trim() || 'USD';
}
