import { Migration } from '@mikro-orm/migrations';

/**
 * Checks the relay paid for on every delivery and attempt without protecting anything:
 * - `webhook_attempt.business_id` (with its foreign key and its index) copied the delivery's business; no query
 *   reads attempts but through their delivery, which is scoped to its business.
 * - `webhook_delivery.business_id`'s foreign key: the relay copies the value from the event or endpoint row it
 *   read in the same transaction, each of which was checked against `business` when it was written.
 */
export class Migration20261122090000LeanDeliveryLog extends Migration {
  override up(): void {
    this.addSql(`
      alter table webhook_attempt drop column business_id;
      alter table webhook_delivery drop constraint webhook_delivery_business_id_fkey;
    `);
  }
}
