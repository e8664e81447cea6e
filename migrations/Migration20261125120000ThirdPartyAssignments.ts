import { Migration } from '@mikro-orm/migrations';

/**
 * Third-party delivery assignments (docs/third-party-deliveries.md): an order handed to a delivery provider, the
 * read model of its workflow `third-party-delivery-<id>`, and each package the warehouse handed over.
 */
export class Migration20261125120000ThirdPartyAssignments extends Migration {
  override up(): void {
    this.addSql(`
      create table third_party_assignment (
        id serial primary key,
        number varchar(20) not null unique,
        business_id integer not null references business(id),
        order_id integer not null references delivery_order(id),
        provider_id integer not null references business(id),
        status varchar(20) not null check (status in ('assigned', 'handed_over', 'partial_delivered', 'delivered', 'cancelled')),
        source varchar(10) not null check (source in ('manual', 'rule')),
        handover_deadline timestamptz not null,
        handed_over_at timestamptz,
        cancel_reason varchar(40) check (cancel_reason in ('cancelled', 'fallback_to_self_delivery', 'reassigned')),
        ended_at timestamptz,
        created_by integer references app_user(id),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        check ((status = 'cancelled') = (cancel_reason is not null))
      );
      -- One live assignment per order.
      create unique index third_party_assignment_live on third_party_assignment (order_id) where status in ('assigned', 'handed_over', 'partial_delivered');
      create index third_party_assignment_provider on third_party_assignment (provider_id, id);

      create table third_party_handover (
        assignment_id integer not null references third_party_assignment(id),
        package_id integer not null references order_package(id),
        scanned_at timestamptz not null,
        actor_id integer references app_user(id),
        recorded_at timestamptz not null default now(),
        primary key (assignment_id, package_id)
      );
    `);
  }
}
