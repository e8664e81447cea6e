/**
 * The ledger's one writer (docs/customer-services.md, "Transfers"): transfers once per key, no wallet below zero,
 * holds posted or voided once. Every function joins the caller's transaction when its `em` is in one, and opens
 * its own otherwise; a refusal writes nothing of the transfer (an account created on first use may stay, empty).
 */
import type { Em } from '../../platform/db/orm.ts';
import { errors } from '../../platform/errors.ts';
import { formatDecimal, minorDigits } from '../delivery-prices/index.ts';
import { fail } from './errorCodes.ts';
import {
  createAccounts,
  lockAccounts,
  lockAccountsOf,
  transferByKey,
  walletAccount,
  writeTransfer,
  type AccountDelta,
  type AccountKey,
  type AccountRow,
  type NewTransfer,
  type StoredTransfer,
  type TransferCode,
} from './repo/ledger.ts';

export type { TransferCode } from './repo/ledger.ts';

export type LedgerSide = { kind: 'wallet'; customerId: number } | { kind: 'revenue' } | { kind: 'funding' };

export interface TransferInput {
  businessId: number;
  /** The idempotency key, unique per business: the same request with it answers the first transfer. */
  key: string;
  currency: string;
  code: TransferCode;
  /** Minor units, > 0; for a balancing transfer the most it moves. */
  amount: bigint;
  debit: LedgerSide;
  credit: LedgerSide;
  /** Move at most `amount`: less when the debit account has less available; 0 available refuses. */
  balancing?: boolean;
  /** A hold: raises the pending columns; posted (postHold) or voided (voidHold) later. */
  pending?: boolean;
  reference?: { type: string; id: string };
  memo?: string;
}

/** A transfer as the ledger answers it: `amount` is what moved (or is held), in minor units. */
export type TransferRow = Pick<StoredTransfer, 'id' | 'key' | 'amount' | 'currency' | 'code' | 'state' | 'created_at'>;

export interface TransferResult {
  transfer: TransferRow;
  /** true when the key named an earlier transfer of the same request, which is answered again. */
  repeated: boolean;
}

export interface PostHoldInput {
  businessId: number;
  key: string;
  holdKey: string;
  /** At most the hold's amount (the default); the rest returns to the debit account's available amount. */
  amount?: bigint;
}

export interface VoidHoldInput {
  businessId: number;
  key: string;
  holdKey: string;
}

const inTransaction = <T>(em: Em, run: (em: Em) => Promise<T>): Promise<T> =>
  em.isInTransaction() ? run(em) : em.transactional(run);

const rowOf = (t: StoredTransfer): TransferRow => ({
  id: t.id,
  key: t.key,
  amount: t.amount,
  currency: t.currency,
  code: t.code,
  state: t.state,
  created_at: t.created_at,
});

/** Keys sorted, so a request compares equal to its stored jsonb whatever the order of the members. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const members = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return `{${members.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

/** The first transfer of this key, answered again when asked the same; TRANSFER_KEY_REUSED otherwise. */
function repeatOf(existing: StoredTransfer, requested: Record<string, unknown>): TransferResult {
  if (canonical(existing.requested) !== canonical(requested)) {
    throw fail('TRANSFER_KEY_REUSED', 'wallet.transfer_key_reused');
  }
  return { transfer: rowOf(existing), repeated: true };
}

const sideKey = (side: LedgerSide): AccountKey => ({
  kind: side.kind,
  customerId: side.kind === 'wallet' ? side.customerId : null,
});

const sameSide = (a: AccountKey, row: AccountRow) => a.kind === row.kind && a.customerId === row.customer_id;

/** The debit account's available amount: what its posted credits leave after posted and pending debits. */
const available = (a: AccountRow): bigint => a.credits_posted - a.debits_posted - a.debits_pending;

/** The signed entry an account gets for a posted debit or credit: + raises its normal side (funding: debit). */
const entryFor = (a: AccountRow, side: 'debit' | 'credit', amount: bigint): bigint =>
  (a.kind === 'funding') === (side === 'debit') ? amount : -amount;

function checkAmount(amount: bigint): void {
  if (typeof amount !== 'bigint' || amount <= 0n) throw errors.field('amount', 'wallet.amount_positive');
}

/**
 * The most any account column may reach, in minor units: far below the bigint columns' 2^63 - 1, so no sum the
 * ledger writes (a column, a balance_after, the wallet check's debits_posted + debits_pending) can overflow.
 */
const ACCOUNT_CEILING = 10n ** 15n;

/**
 * Refuses (422 on `amount`) a transfer that would take the debit account's debits or the credit account's credits
 * above ACCOUNT_CEILING. Posted and pending are counted together, so settling a hold later never passes it.
 */
function checkCeiling([d, c]: [AccountRow, AccountRow], amount: bigint, currency: string): void {
  if (
    d.debits_posted + d.debits_pending + amount > ACCOUNT_CEILING ||
    c.credits_posted + c.credits_pending + amount > ACCOUNT_CEILING
  ) {
    throw errors.field('amount', 'wallet.account_limit', {
      limit: formatDecimal(ACCOUNT_CEILING, minorDigits(currency)),
      currency,
    });
  }
}

/** Locks both accounts (creating them on first use) and answers them as [debit, credit]. */
async function lockPair(
  em: Em,
  businessId: number,
  currency: string,
  debit: AccountKey,
  credit: AccountKey,
): Promise<[AccountRow, AccountRow]> {
  const keys = [debit, credit];
  let rows = await lockAccounts(em, businessId, currency, keys);
  if (rows.length < 2) {
    await createAccounts(em, businessId, currency, keys);
    rows = await lockAccounts(em, businessId, currency, keys);
  }
  const d = rows.find((r) => sameSide(debit, r));
  const c = rows.find((r) => sameSide(credit, r));
  if (!d || !c) throw new Error('ledger accounts missing after their creation');
  return [d, c];
}

/**
 * Writes the transfer between the [debit, credit] accounts: `posted` moves with an entry on each (none when 0),
 * `pending` is added to their pending columns (a hold raises them, its post or void lowers them). A key taken
 * meanwhile by a concurrent request answers that one as a repeat.
 */
async function write(
  em: Em,
  [d, c]: [AccountRow, AccountRow],
  move: { posted: bigint; pending: bigint },
  t: Omit<NewTransfer, 'debitAccountId' | 'creditAccountId' | 'deltas'>,
): Promise<TransferResult> {
  const entry = (a: AccountRow, side: 'debit' | 'credit') => (move.posted ? entryFor(a, side, move.posted) : 0n);
  const deltas: AccountDelta[] = [
    {
      id: d.id,
      debitsPosted: move.posted,
      creditsPosted: 0n,
      debitsPending: move.pending,
      creditsPending: 0n,
      entry: entry(d, 'debit'),
    },
    {
      id: c.id,
      debitsPosted: 0n,
      creditsPosted: move.posted,
      debitsPending: 0n,
      creditsPending: move.pending,
      entry: entry(c, 'credit'),
    },
  ];
  const written = await writeTransfer(em, { ...t, debitAccountId: d.id, creditAccountId: c.id, deltas });
  if (written) return { transfer: rowOf(written), repeated: false };
  const existing = await transferByKey(em, t.businessId, t.key);
  if (!existing) throw new Error(`ledger transfer ${t.key} neither written nor found`);
  return repeatOf(existing, t.requested);
}

/** Moves `amount` (or holds it) from the debit account to the credit one, once per key. */
export function transfer(em: Em, input: TransferInput): Promise<TransferResult> {
  checkAmount(input.amount);
  const debit = sideKey(input.debit);
  const credit = sideKey(input.credit);
  if (debit.kind === credit.kind && debit.customerId === credit.customerId) {
    throw new Error('a ledger transfer needs two different accounts');
  }
  const requested = {
    op: 'transfer',
    currency: input.currency,
    code: input.code,
    amount: input.amount.toString(),
    debit,
    credit,
    balancing: input.balancing ?? false,
    pending: input.pending ?? false,
    reference: input.reference ?? null,
    memo: input.memo ?? null,
  };
  return inTransaction(em, async (em) => {
    const existing = await transferByKey(em, input.businessId, input.key);
    if (existing) return repeatOf(existing, requested);
    const [d, c] = await lockPair(em, input.businessId, input.currency, debit, credit);
    let amount = input.amount;
    if (!d.allow_negative && available(d) < amount) {
      if (!input.balancing || available(d) <= 0n) throw fail('INSUFFICIENT_FUNDS', 'wallet.insufficient_funds');
      amount = available(d);
    }
    checkCeiling([d, c], amount, input.currency);
    const pending = input.pending ?? false;
    return write(em, [d, c], pending ? { posted: 0n, pending: amount } : { posted: amount, pending: 0n }, {
      businessId: input.businessId,
      key: input.key,
      amount,
      currency: input.currency,
      code: input.code,
      flags: [...(pending ? (['pending'] as const) : []), ...(input.balancing ? (['balancing'] as const) : [])],
      pendingId: null,
      state: pending ? 'pending' : 'posted',
      reference: input.reference ?? null,
      memo: input.memo ?? null,
      requested,
      settles: null,
    });
  });
}

/**
 * Settles a hold: posts `amount` (at most the hold's) or voids it. The accounts are locked before the hold's row,
 * in the order every transfer takes them; a hold settled already is HOLD_NOT_PENDING, unless by this very key (a
 * concurrent settle of the same request committed while this one waited for the locks): that one is answered.
 */
function settle(
  em: Em,
  input: { businessId: number; key: string; holdKey: string; amount?: bigint },
  how: 'post' | 'void',
): Promise<TransferResult> {
  if (input.amount !== undefined) checkAmount(input.amount);
  const requested = {
    op: how,
    hold_key: input.holdKey,
    amount: input.amount === undefined ? null : input.amount.toString(),
  };
  return inTransaction(em, async (em) => {
    const existing = await transferByKey(em, input.businessId, input.key);
    if (existing) return repeatOf(existing, requested);
    const seen = await transferByKey(em, input.businessId, input.holdKey);
    if (!seen || !seen.flags.includes('pending')) throw fail('NOT_FOUND', 'wallet.hold_not_found');
    const accounts = await lockAccountsById(em, input.businessId, seen);
    const settled = await transferByKey(em, input.businessId, input.key);
    if (settled) return repeatOf(settled, requested);
    const hold = await transferByKey(em, input.businessId, input.holdKey, true);
    if (!hold || hold.state !== 'pending') throw fail('HOLD_NOT_PENDING', 'wallet.hold_not_pending');
    const amount = how === 'void' ? hold.amount : (input.amount ?? hold.amount);
    if (amount > hold.amount) throw errors.field('amount', 'wallet.post_above_hold');
    const posted = how === 'post' ? amount : 0n;
    return write(
      em,
      accounts,
      { posted, pending: -hold.amount },
      {
        businessId: input.businessId,
        key: input.key,
        amount,
        currency: hold.currency,
        code: how === 'post' ? 'hold_post' : 'hold_void',
        flags: [how === 'post' ? 'post_pending' : 'void_pending'],
        pendingId: hold.id,
        state: how === 'post' ? 'posted' : 'voided',
        reference: null,
        memo: null,
        requested,
        settles: { id: hold.id, state: how === 'post' ? 'posted' : 'voided' },
      },
    );
  });
}

/** The hold's two accounts, locked in id order, as [debit, credit]. */
async function lockAccountsById(em: Em, businessId: number, hold: StoredTransfer): Promise<[AccountRow, AccountRow]> {
  const rows = await lockAccountsOf(em, businessId, [hold.debit_account_id, hold.credit_account_id]);
  const d = rows.find((r) => r.id === hold.debit_account_id);
  const c = rows.find((r) => r.id === hold.credit_account_id);
  if (!d || !c) throw new Error(`the accounts of hold ${hold.key} are missing`);
  return [d, c];
}

/** Posts a hold: `amount` (at most the hold's) moves from pending to posted with its entries; the rest returns. */
export const postHold = (em: Em, input: PostHoldInput): Promise<TransferResult> => settle(em, input, 'post');

/** Voids a hold: all of it returns to the debit account's available amount. */
export const voidHold = (em: Em, input: VoidHoldInput): Promise<TransferResult> => settle(em, input, 'void');

/** What the customer's wallet in this currency may spend now (0 before its first transfer). */
export async function walletAvailable(
  em: Em,
  businessId: number,
  customerId: number,
  currency: string,
): Promise<bigint> {
  const row = await walletAccount(em, businessId, customerId, currency);
  return row ? available(row) : 0n;
}
