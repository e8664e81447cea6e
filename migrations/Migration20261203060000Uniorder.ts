import { Migration } from '@mikro-orm/migrations';

/**
 * Uniorder's self delivery rates (docs/uniorder.md, "Rates spanning both kinds").
 *
 * - self_rate: a local delivery quoted by the business's price model, bought once by its id (sr_...) within its
 *   life; `input` is the order input as rated, the price is kept so the order is placed at it (never re-priced).
 *   `used_by_order_id` unique makes it single use; (business_id, idempotency_key) names the creation that used it,
 *   so a repeated creation with the same key finds its order.
 */
export class Migration20261203060000Uniorder extends Migration {
  override up(): void {
    this.addSql(`
      create table self_rate (
        id text primary key,
        business_id integer not null references business(id),
        caller_id integer not null references app_user(id),
        input jsonb not null,
        currency char(3) not null,
        shipping_price numeric not null,
        tax numeric not null,
        price_details jsonb not null,
        expires_at timestamptz not null,
        used_by_order_id integer unique references delivery_order(id),
        idempotency_key text,
        created_at timestamptz not null default now(),
        unique (business_id, idempotency_key)
      );
      create index self_rate_unused on self_rate (expires_at) where used_by_order_id is null;
    `);
  }
}
