import { Migration } from '@mikro-orm/migrations';

/**
 * Bulk and async order intake (docs/orders.md, "Bulk and async intake"). An async batch and its rows, stored before
 * its process (workflow order-batch-<async_id>) creates their orders chunk by chunk: a row is marked done in the
 * transaction that creates its order, so a retried chunk skips it. The outbox learns `skip_if_url_field`: a settings
 * row with a URL in that field does not receive the event (a batch's order.created, when its recipient has the
 * batch's postback URL).
 */
export class Migration20261201050000OrderBatches extends Migration {
  override up(): void {
    this.addSql(`
      alter table outbox_event add column skip_if_url_field varchar(64);

      create table order_batch (
        id serial primary key,
        async_id uuid not null unique,
        business_id integer not null references business(id),
        -- Null once the account is deleted: the batch and its results stay, its hooks run as no one (activities.ts).
        created_by integer references app_user(id) on delete set null,
        -- Who placed the batch, as the orders' trail records it (orders/actor.ts), and the language of its messages.
        actor jsonb not null,
        lang varchar(8) not null,
        state varchar(16) not null default 'queued' check (state in ('queued', 'running', 'done')),
        total integer not null check (total between 1 and 5000),
        succeeded integer not null default 0,
        failed integer not null default 0,
        created_at timestamptz not null default now(),
        finished_at timestamptz,
        check ((state = 'done') = (finished_at is not null))
      );
      create index order_batch_business_idx on order_batch (business_id, id desc);
      -- The sweep (schedule order-batch-sweep) finds batches still queued a minute after they were stored.
      create index order_batch_queued_idx on order_batch (id) where state = 'queued';

      create table order_batch_row (
        batch_id integer not null references order_batch(id) on delete cascade,
        row_index integer not null check (row_index >= 0),
        input jsonb not null,
        state varchar(16) not null default 'pending' check (state in ('pending', 'created', 'failed')),
        -- No foreign key: an order deleted for good later leaves the batch's result as it was.
        order_id integer,
        tracking_number varchar(32),
        -- A refused row's field errors as message keys ({field, key, params}), told in the reader's language.
        errors jsonb,
        handled_at timestamptz,
        -- When the other modules' order-created hooks (third-party rules) ran for the row's order, after its commit.
        hooked_at timestamptz,
        primary key (batch_id, row_index),
        check ((state = 'created') = (order_id is not null)),
        check ((state = 'failed') = (errors is not null))
      );
      create index order_batch_row_pending_idx on order_batch_row (batch_id, row_index) where state = 'pending';
      create index order_batch_row_unhooked_idx on order_batch_row (batch_id, row_index)
        where state = 'created' and hooked_at is null;
    `);
  }
}
