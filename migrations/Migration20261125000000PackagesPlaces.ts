import { Migration } from '@mikro-orm/migrations';

/**
 * Carrier distribution, part 1 (docs/distribution.md): an order's packages, each with its own number (the first
 * one's is the order's tracking number, given to every order that exists now); the places a business receives,
 * stores and hands out parcels at; and the carriers that hold a supplier account with it.
 */
export class Migration20261125000000PackagesPlaces extends Migration {
  override up(): void {
    this.addSql(`
      create table order_package (
        id serial primary key,
        order_id integer not null references delivery_order(id),
        business_id integer not null references business(id),
        position smallint not null check (position between 1 and 50),
        package_number varchar(40) not null unique,
        weight_grams integer check (weight_grams between 1 and 1000000),
        length_mm integer check (length_mm between 1 and 10000),
        width_mm integer check (width_mm between 1 and 10000),
        height_mm integer check (height_mm between 1 and 10000),
        carrier_reference varchar(100),
        created_at timestamptz not null default now(),
        unique (order_id, position)
      );
      insert into order_package (order_id, business_id, position, package_number, created_at)
        select id, business_id, 1, tracking_number, created_at from delivery_order;

      create table place (
        id serial primary key,
        business_id integer not null references business(id),
        kind varchar(20) not null check (kind in ('warehouse', 'locker', 'store')),
        code varchar(40) not null,
        name varchar(200) not null,
        address jsonb,
        device_id integer references device(id),
        identifier varchar(200) not null unique,
        created_at timestamptz not null default now(),
        unique (business_id, code),
        check ((kind = 'locker') = (device_id is not null))
      );

      create table carrier_supplier_account (
        id serial primary key,
        business_id integer not null references business(id),
        carrier_id integer not null references business(id),
        member_number varchar(40) not null,
        created_by integer not null references app_user(id),
        created_at timestamptz not null default now(),
        ended_at timestamptz
      );
      create unique index carrier_supplier_account_active on carrier_supplier_account (business_id, carrier_id) where ended_at is null;
      create unique index carrier_supplier_account_member on carrier_supplier_account (business_id, member_number) where ended_at is null;
    `);
  }
}
