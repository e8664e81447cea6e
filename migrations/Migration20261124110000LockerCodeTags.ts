import { Migration } from '@mikro-orm/migrations';

/**
 * Locker codes become tags (docs/locker-deliveries.md, Codes): a keyed hash of device and code, found by an index
 * lookup instead of hashed against every open delivery of the device. Codes stored before this, with a salt, are no
 * longer found: they were written only by the day-old unreleased partner delivery code, on development data.
 */
export class Migration20261124110000LockerCodeTags extends Migration {
  override up(): void {
    this.addSql(`
      create index locker_delivery_delivery_code on locker_delivery (device_id, delivery_code_hash) where status in ('awaiting_deposit', 'depositing', 'delivered');
      create index locker_delivery_pickup_code on locker_delivery (device_id, pickup_code_hash) where status in ('awaiting_deposit', 'depositing', 'delivered');
    `);
  }
}
