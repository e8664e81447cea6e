import { Migration } from '@mikro-orm/migrations';

/**
 * Local delivery prices (docs/orders.md, Local prices and customer-placed orders). A business's price model, one row
 * per business, its figures exact decimals (numeric, never float); the depot the distances are measured from. The
 * order keeps what it was priced at when it was created: the shipping price (tax included), the tax, the currency
 * and the line items; all null for an order that was not priced (no model, or no recipient coordinates where the
 * model charges per kilometre). The amounts are numeric without a fixed scale, so each reads back exactly as it was
 * written, with its currency's decimals ("12.50", "1250" for JPY).
 */
export class Migration20261201060000DeliveryPrices extends Migration {
  override up(): void {
    this.addSql(`
      create table delivery_price_model (
        business_id integer primary key references business(id),
        currency char(3) not null,
        base_fee numeric(10,4) not null,
        per_km numeric(10,4) not null,
        per_kg numeric(10,4) not null,
        included_weight_kg numeric(9,3) not null,
        p2p_surcharge numeric(10,4) not null,
        time_window_surcharge numeric(10,4) not null,
        extra_package_surcharge numeric(10,4) not null,
        tax_rate numeric(6,3) not null check (tax_rate between 0 and 100),
        origin_lat double precision not null check (origin_lat between -90 and 90),
        origin_lng double precision not null check (origin_lng between -180 and 180),
        updated_by integer references app_user(id),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );

      alter table delivery_order
        add column shipping_price numeric check (shipping_price >= 0 and shipping_price < 1e14),
        add column tax numeric check (tax >= 0 and tax < 1e14),
        add column currency char(3),
        add column price_details jsonb,
        add constraint delivery_order_priced check (
          (shipping_price is null) = (currency is null) and (shipping_price is null) = (tax is null));
    `);
  }
}
