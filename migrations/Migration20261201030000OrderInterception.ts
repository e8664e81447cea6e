import { Migration } from '@mikro-orm/migrations';

/**
 * Order interception (docs/orders.md, "Interception"): one row per request, the read model of the workflow
 * `order-interception-<order id>`, written by its steps in the transaction of each step's status change, trail row
 * and event. At most one open interception per order (the partial unique index); a request while one is open is
 * kept as its own row, rejected. `request_key` is the process's key of the request, so that a step retried after a
 * killed worker finds its row. The rows go with an order deleted for good; the audit trail keeps the steps.
 */
export class Migration20261201030000OrderInterception extends Migration {
  override up(): void {
    this.addSql(`
      create table order_interception (
        id serial primary key,
        business_id integer not null references business(id),
        order_id integer not null references delivery_order(id) on delete cascade,
        customer_id integer,
        request_key varchar(200) not null unique,
        workflow_id varchar(100) not null,
        state varchar(20) not null default 'requested'
          check (state in ('requested', 'in_effect', 'held_at_warehouse', 'outcome_executed', 'withdrawn', 'rejected', 'failed')),
        outcome varchar(20) not null check (outcome in ('return_to_sender', 'hold_at_warehouse', 'redeliver')),
        new_address jsonb,
        channel varchar(16) not null check (channel in ('back_office', 'api', 'customer')),
        requested_by integer,
        requester_role varchar(32),
        request_reason text,
        end_reason varchar(40),
        status_before smallint,
        status_after smallint,
        hold_deadline timestamptz,
        held_at timestamptz,
        held_place varchar(100),
        held_package varchar(64),
        held_source varchar(16) check (held_source in ('scan', 'carrier', 'status')),
        ended_by integer,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        ended_at timestamptz,
        check ((outcome = 'redeliver') = (new_address is not null))
      );
      create unique index order_interception_open_idx on order_interception (order_id)
        where state in ('requested', 'in_effect', 'held_at_warehouse');
      create index order_interception_order_idx on order_interception (order_id, id desc);
      create index order_interception_business_idx on order_interception (business_id, state, id desc);
    `);
  }
}
