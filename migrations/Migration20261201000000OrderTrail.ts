import { Migration } from '@mikro-orm/migrations';

/**
 * Orders in full (docs/orders.md). The order gets a delivery instruction for the driver and a delivery time window.
 * Its audit trail: one append-only row per change, with the operation type, who (account and role), from which
 * address and through which entry, and what changed. The trail has no foreign key to the order, so it outlives a
 * permanently deleted order; its business is kept for the reads' scope. The status history written so far is
 * copied in, so every existing order has its trail from creation.
 */
export class Migration20261201000000OrderTrail extends Migration {
  override up(): void {
    this.addSql(`
      alter table delivery_order
        add column delivery_instruction text,
        add column time_window_start timestamptz,
        add column time_window_end timestamptz,
        add constraint delivery_order_time_window check (time_window_end > time_window_start);

      create table order_operation_event (
        id bigserial primary key,
        order_id integer not null,
        business_id integer not null references business(id),
        operation_type integer not null,
        before_status smallint,
        after_status smallint,
        actor_id integer,
        actor_role varchar(32),
        source varchar(16) not null,
        ip_address varchar(64),
        details jsonb not null default '{}',
        occurred_at timestamptz not null default now()
      );
      create index order_operation_event_order_idx on order_operation_event (order_id, id);

      insert into order_operation_event (order_id, business_id, operation_type, before_status, after_status, source, details, occurred_at)
      select order_id, business_id, operation_type, before_status, after_status,
        case when tracking_event_id is null then 'system' else 'carrier' end,
        jsonb_build_object('description', operation_description), occurred_at
      from order_status_change order by id;
    `);
  }
}
