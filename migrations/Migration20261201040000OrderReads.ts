import { Migration } from '@mikro-orm/migrations';

/**
 * The order reads (docs/orders.md, "Reads: trail, find, snapshot, exceptions"), each answered from an index:
 * - the audit trail of an order in time order, paged by (occurred_at, id), so a read of one order's page touches
 *   only that page's rows whatever the table's size;
 * - find_order by recipient phone (its digits, as people type a number in many ways) and by recipient name (a
 *   case-blind prefix), within the business;
 * - list_exceptions: the device orders' open exceptions of a business newest first, the packages with flagged
 *   scans, and the open processes of an order (device orders and distribution by order).
 */
export class Migration20261201040000OrderReads extends Migration {
  override up(): void {
    this.addSql(`
      create index order_operation_event_timeline_idx on order_operation_event (order_id, occurred_at, id);

      create index delivery_order_phone_idx on delivery_order
        (business_id, (regexp_replace(recipient->>'phone', '[^0-9]', '', 'g')))
        where recipient->>'phone' is not null;
      create index delivery_order_name_idx on delivery_order
        (business_id, (lower(recipient->>'name')) text_pattern_ops);

      create index device_order_exception_open_idx on device_order_exception (business_id, opened_at desc, id desc)
        where status = 'open';
      create index device_order_order_idx on device_order (order_id) where order_id is not null;
      create index package_distribution_flagged_idx on package_distribution (business_id, updated_at desc, id desc)
        where flagged_scans > 0;
      create index package_distribution_order_idx on package_distribution (order_id);
      create index third_party_assignment_order_idx on third_party_assignment (order_id, id);
      create index locker_delivery_parcel_reference_idx on locker_delivery_parcel (reference);
    `);
  }
}
