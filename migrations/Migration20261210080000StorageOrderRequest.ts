import { Migration } from '@mikro-orm/migrations';

/**
 * What a storage order's creation asked for (docs/customer-services.md, "Storage orders"): `request_hash` is a
 * SHA-256 of the create_storage_order body (service, packages, reference, expected arrival; not the key), so that a
 * repeat with the same idempotency key and another body is refused (409 IDEMPOTENCY_KEY_REUSED) instead of
 * answering the first order. Orders made before have none: a repeat of their key answers them as before.
 */
export class Migration20261210080000StorageOrderRequest extends Migration {
  override up(): void {
    this.addSql(`alter table storage_order add column request_hash text;`);
  }
}
