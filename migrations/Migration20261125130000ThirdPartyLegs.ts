import { Migration } from '@mikro-orm/migrations';

/**
 * The orders a third-party provider placed with its carrier for an assignment (legs; one per package when that
 * carrier has no multi-piece shipments), and which delivered packages an assignment last reported
 * (docs/third-party-deliveries.md).
 */
export class Migration20261125130000ThirdPartyLegs extends Migration {
  override up(): void {
    this.addSql(`
      create table third_party_leg (
        id serial primary key,
        assignment_id integer not null references third_party_assignment(id),
        carrier_order_number varchar(100) not null,
        created_at timestamptz not null default now(),
        unique (assignment_id, carrier_order_number)
      );
      create table third_party_leg_package (
        leg_id integer not null references third_party_leg(id),
        assignment_id integer not null references third_party_assignment(id),
        package_id integer not null references order_package(id),
        primary key (leg_id, package_id),
        -- A package travels on one leg of an assignment.
        unique (assignment_id, package_id)
      );
      alter table third_party_assignment add column delivered_packages integer not null default 0;
    `);
  }
}
