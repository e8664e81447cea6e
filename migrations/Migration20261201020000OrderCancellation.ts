import { Migration } from '@mikro-orm/migrations';

/**
 * Order cancellation (docs/orders.md, "Cancellation and deletion"). Every request to cancel an order is a row: decided
 * at once (cancelled, refused), or waiting for the delivery provider holding the order (awaiting_provider, at most
 * one per order) until it accepts, refuses or lets the deadline pass (timed_out). The row is the read model of the
 * workflow order-cancellation-<order id>; it goes with the order when the order is deleted for good (the audit
 * trail keeps the requests). A cancelled order's packages leave their distribution with a removal whose source is
 * `cancellation`.
 */
export class Migration20261201020000OrderCancellation extends Migration {
  override up(): void {
    this.addSql(`
      create table order_cancellation (
        id serial primary key,
        order_id integer not null references delivery_order(id) on delete cascade,
        business_id integer not null references business(id),
        status varchar(20) not null check (status in ('awaiting_provider', 'cancelled', 'refused', 'timed_out')),
        provider_id integer references business(id),
        assignment_id integer references third_party_assignment(id) on delete cascade,
        refusal_code varchar(60),
        message text,
        reason varchar(255),
        requested_by integer references app_user(id) on delete set null,
        requested_role varchar(30),
        requested_source varchar(20) not null,
        requested_ip varchar(64),
        requested_at timestamptz not null default now(),
        answer_deadline timestamptz,
        answered_by integer references app_user(id) on delete set null,
        ended_at timestamptz,
        check ((status = 'awaiting_provider') = (ended_at is null)),
        check (status <> 'awaiting_provider' or (provider_id is not null and assignment_id is not null and answer_deadline is not null))
      );
      create unique index order_cancellation_one_waiting on order_cancellation (order_id) where status = 'awaiting_provider';
      create index order_cancellation_order on order_cancellation (order_id, id desc);
      create index order_cancellation_refused on order_cancellation (business_id, ended_at desc) where status in ('refused', 'timed_out');
      create index order_cancellation_assignment on order_cancellation (assignment_id) where assignment_id is not null;

      alter table distribution_scan drop constraint distribution_scan_source_check;
      alter table distribution_scan add constraint distribution_scan_source_check
        check (source in ('scanner', 'otep', 'epcis', 'cancellation'));
    `);
  }
}
