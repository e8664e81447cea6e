import { Migration } from '@mikro-orm/migrations';

/**
 * Every status an order has taken, in order: the source of order.status_change event ids and of the OTEP
 * events synthesized for our own orders. The creation is the first row (before_status null).
 */
export class Migration20261122050000OrderStatusHistory extends Migration {
  override up(): void {
    this.addSql(`
      create table order_status_change (
        id bigserial primary key,
        order_id integer not null references delivery_order(id),
        business_id integer not null references business(id),
        before_status integer,
        after_status integer not null,
        operation_type integer not null,
        operation_description text not null default '',
        occurred_at timestamptz not null default now()
      );
      create index order_status_change_order_idx on order_status_change (order_id, id);

      -- Orders created before this table existed get their creation row, so every order has a history.
      insert into order_status_change (order_id, business_id, before_status, after_status, operation_type, operation_description, occurred_at)
      select id, business_id, null, status_id, 1001, 'order created', created_at from delivery_order;
    `);
  }
}
