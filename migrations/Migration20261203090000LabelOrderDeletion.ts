import { Migration } from '@mikro-orm/migrations';

/**
 * A label order deleted for good (delete_order: a voided or finished order) takes its label, documents and rate with
 * it: a rate that bought the order must not become buyable again, so it goes too rather than losing its order.
 */
export class Migration20261203090000LabelOrderDeletion extends Migration {
  override up(): void {
    this.addSql(`
      alter table label_order drop constraint label_order_order_id_fkey,
        add constraint label_order_order_id_fkey foreign key (order_id) references delivery_order(id) on delete cascade;
      alter table label_document drop constraint label_document_order_id_fkey,
        add constraint label_document_order_id_fkey foreign key (order_id) references delivery_order(id) on delete cascade;
      alter table label_rate drop constraint label_rate_used_by_order_id_fkey,
        add constraint label_rate_used_by_order_id_fkey foreign key (used_by_order_id) references delivery_order(id)
          on delete cascade;
      alter table self_rate drop constraint self_rate_used_by_order_id_fkey,
        add constraint self_rate_used_by_order_id_fkey foreign key (used_by_order_id) references delivery_order(id)
          on delete cascade;
    `);
  }
}
