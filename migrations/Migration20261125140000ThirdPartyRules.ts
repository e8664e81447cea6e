import { Migration } from '@mikro-orm/migrations';

/** A business's rules that hand a new order to a delivery provider (docs/third-party-deliveries.md). */
export class Migration20261125140000ThirdPartyRules extends Migration {
  override up(): void {
    this.addSql(`
      create table third_party_rule (
        id serial primary key,
        business_id integer not null references business(id),
        provider_id integer not null references business(id),
        postal_code_prefix varchar(20),
        max_weight_grams integer check (max_weight_grams between 1 and 1000000),
        max_side_mm integer check (max_side_mm between 1 and 10000),
        handover_deadline_hours integer check (handover_deadline_hours between 1 and 336),
        created_by integer not null references app_user(id),
        created_at timestamptz not null default now(),
        ended_at timestamptz
      );
      create index third_party_rule_live on third_party_rule (business_id, id) where ended_at is null;
    `);
  }
}
