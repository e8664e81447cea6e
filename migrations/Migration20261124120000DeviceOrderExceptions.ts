import { Migration } from '@mikro-orm/migrations';

/**
 * Device order exceptions opened and resolved by staff and by the process (docs/device-order-exceptions.md): who
 * opened and closed each one, and the last device order of a compartment, which hears the door's reports after
 * its parcel has left.
 */
export class Migration20261124120000DeviceOrderExceptions extends Migration {
  override up(): void {
    this.addSql(`
      alter table device_order_exception
        add column opened_by integer references app_user(id),
        add column closed_by integer references app_user(id);
      create index device_order_exception_order_idx on device_order_exception (device_order_id, id);
      create index device_order_compartment_idx on device_order (compartment_id, id desc);
    `);
  }
}
