import { Migration } from '@mikro-orm/migrations';

/**
 * Carrier distribution, part 2 (docs/distribution.md): each package's distribution, the read model of its
 * workflow `distribution-<package number>`, and every scan that reached it, applied or flagged.
 */
export class Migration20261125100000PackageDistribution extends Migration {
  override up(): void {
    this.addSql(`
      create table package_distribution (
        id serial primary key,
        package_id integer not null unique references order_package(id),
        business_id integer not null references business(id),
        order_id integer not null references delivery_order(id),
        status varchar(20) not null check (status in ('created', 'in_transit', 'delivered', 'shelved', 'removed')),
        warehouse_id integer not null references place(id),
        destination_id integer references place(id),
        loaded_at timestamptz,
        delivered_at timestamptz,
        shelved_at timestamptz,
        removed_at timestamptz,
        removal_reason varchar(20) check (removal_reason in ('removed', 'cancelled')),
        grid_id integer references compartment(id),
        grid_code varchar(32),
        shelf_code varchar(40),
        device_order_id integer references device_order(id),
        pickup_code_sealed text,
        last_step_at timestamptz not null,
        flagged_scans integer not null default 0,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create index package_distribution_list on package_distribution (business_id, warehouse_id, status);

      create table distribution_scan (
        id bigserial primary key,
        business_id integer not null references business(id),
        package_id integer not null references order_package(id),
        scan_key varchar(100) not null,
        source varchar(20) not null check (source in ('scanner', 'otep', 'epcis')),
        action varchar(20) not null check (action in ('received', 'loaded', 'delivered', 'shelved', 'removed')),
        place_id integer not null references place(id),
        destination_id integer references place(id),
        grid_code varchar(32),
        shelf_code varchar(40),
        scanned_at timestamptz not null,
        recorded_at timestamptz not null default now(),
        outcome varchar(20) not null check (outcome in ('applied', 'flagged')),
        flag varchar(40),
        status_after varchar(20),
        actor_id integer references app_user(id),
        unique (package_id, scan_key),
        check ((outcome = 'flagged') = (flag is not null))
      );
      create index distribution_scan_flagged on distribution_scan (business_id, id) where outcome = 'flagged';
    `);
  }
}
