import { Migration } from '@mikro-orm/migrations';

/**
 * The wallet's ledger (docs/customer-services.md, "The wallet: a ledger"), double entry in minor units.
 *
 * - ledger_account: one per (business, kind, customer, currency), created on first use. The four balance columns
 *   are bigint minor units; an account without allow_negative may never have debits (posted and pending) above its
 *   posted credits: the transfer code refuses first, the CHECK is the last guard (TigerBeetle's
 *   debits_must_not_exceed_credits).
 * - ledger_transfer: never updated except a hold's state, never deleted; (business_id, key) unique makes a
 *   transfer happen once per idempotency key; `requested` is the request as asked, to compare repeats.
 * - ledger_entry: one row per account a posted amount moves, signed on the account's normal side, with the balance
 *   after it; an account's statement is its entries, newest first.
 */
export class Migration20261210010000Wallet extends Migration {
  override up(): void {
    this.addSql(`
      create table ledger_account (
        id bigserial primary key,
        business_id integer not null references business(id),
        customer_id integer references app_user(id),
        kind text not null check (kind in ('wallet', 'revenue', 'funding')),
        currency char(3) not null,
        allow_negative boolean not null,
        debits_posted bigint not null default 0 check (debits_posted >= 0),
        credits_posted bigint not null default 0 check (credits_posted >= 0),
        debits_pending bigint not null default 0 check (debits_pending >= 0),
        credits_pending bigint not null default 0 check (credits_pending >= 0),
        created_at timestamptz not null default now(),
        unique nulls not distinct (business_id, kind, customer_id, currency),
        check ((kind = 'wallet') = (customer_id is not null)),
        constraint ledger_account_debits_must_not_exceed_credits
          check (allow_negative or debits_posted + debits_pending <= credits_posted)
      );
      create index ledger_account_customer on ledger_account (business_id, customer_id) where customer_id is not null;

      create table ledger_transfer (
        id bigserial primary key,
        business_id integer not null references business(id),
        key text not null,
        debit_account_id bigint not null references ledger_account(id),
        credit_account_id bigint not null references ledger_account(id),
        amount bigint not null check (amount > 0),
        currency char(3) not null,
        code text not null check (code in ('top_up', 'payment', 'refund', 'storage_fee', 'hold', 'hold_post', 'hold_void')),
        flags text[] not null default '{}',
        pending_id bigint references ledger_transfer(id),
        state text check (state in ('pending', 'posted', 'voided')),
        reference_type text,
        reference_id text,
        memo text,
        requested jsonb not null,
        created_at timestamptz not null default now(),
        unique (business_id, key),
        check (debit_account_id <> credit_account_id)
      );
      create index ledger_transfer_pending on ledger_transfer (pending_id) where pending_id is not null;
      create index ledger_transfer_reference on ledger_transfer (business_id, reference_type, reference_id)
        where reference_type is not null;

      create table ledger_entry (
        id bigserial primary key,
        account_id bigint not null references ledger_account(id),
        transfer_id bigint not null references ledger_transfer(id),
        amount bigint not null check (amount <> 0),
        balance_after bigint not null,
        created_at timestamptz not null default now()
      );
      create index ledger_entry_account_newest on ledger_entry (account_id, id desc);
      create index ledger_entry_transfer on ledger_entry (transfer_id);
    `);
  }
}
