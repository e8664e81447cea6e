import { Migration } from '@mikro-orm/migrations';

/**
 * The tracking of labels (docs/labels.md, "Tracking of sandbox labels").
 *
 * - order_package_carrier_reference: public tracking and the OTEP reads find a carried parcel by its carrier's
 *   tracking number too (a label's `carrier_reference`), without reading every package.
 * - label_order_untracked: the minutely sweep finds bought labels whose tracking process never started.
 */
export class Migration20261203040000LabelTracking extends Migration {
  override up(): void {
    this.addSql(`
      create index order_package_carrier_reference on order_package (carrier_reference)
        where carrier_reference is not null;
      create index label_order_untracked on label_order (purchased_at)
        where tracking_started_at is null and state in ('purchased', 'submitted', 'manifested');
    `);
  }
}
