import { Migration } from '@mikro-orm/migrations';

/**
 * The platform admin's switches (docs/platform-admin.md, docs/opt-in-families.md): platform-wide settings (the
 * contractor-assignment module's system-wide availability; no row means the environment's value), and per business
 * the opt-in families (Order Chat, SMS Marketing, Operations AI Agent, all off until switched on), SMS Marketing's
 * migration flag and revocation, and the AI agent's daily turn cap (null: the configured default). Every family call
 * reads them through the read cache, so any change of either table, inserts included (a missing row is cached as the
 * defaults), sends NOTIFY read_cache on commit.
 */
export class Migration20261130020000PlatformSwitches extends Migration {
  override up(): void {
    this.addSql(`
      create table platform_setting (
        key varchar(100) primary key,
        value jsonb not null,
        updated_at timestamptz not null default now()
      );
      create table business_switch (
        business_id integer primary key references business(id) on delete cascade,
        order_chat boolean not null default false,
        sms_marketing boolean not null default false,
        ai_agent boolean not null default false,
        -- Set by the platform admin once the business's SMS sender is set up; SMS Marketing answers 409 until then.
        sms_marketing_migrated boolean not null default false,
        -- A revocation outlasts the family switch: switching the family on again does not lift it.
        sms_marketing_revoked_at timestamptz,
        sms_marketing_revoked_reason varchar(500),
        ai_agent_daily_turn_cap integer check (ai_agent_daily_turn_cap between 1 and 100000),
        updated_at timestamptz not null default now()
      );
    `);
    for (const table of ['platform_setting', 'business_switch']) {
      this.addSql(
        `create trigger ${table}_read_cache after insert or update or delete or truncate on ${table} for each statement execute function notify_read_cache();`,
      );
    }
  }
}
