import { Migration } from '@mikro-orm/migrations';

/**
 * A device order's recipient is told its pickup code by mail (docs/device-orders.md, Pickup code): the code is kept
 * sealed (secretBox) beside its keyed hash, for the process's notice to read back. Null for the orders that owe no
 * notice (stored before this, linked to no order, brought by a distribution, awaited by a courier or a depositor).
 */
export class Migration20261128010000DeviceOrderPickupNotice extends Migration {
  override up(): void {
    this.addSql('alter table device_order add column pickup_code_sealed text;');
  }
}
