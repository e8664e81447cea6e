import { Migration } from '@mikro-orm/migrations';

/**
 * SMS Marketing (docs/opt-in-families.md, "SMS Marketing"). A campaign of a business, its audience fixed when it
 * starts (one row per number, in E.164, with what became of it), and its counters, which the campaign's process
 * writes in the same transaction as each recipient's outcome. The opt-outs: one row per business and number, kept
 * for good (no operation removes one).
 */
export class Migration20261130060000SmsMarketing extends Migration {
  override up(): void {
    this.addSql(`
      create table sms_campaign (
        id serial primary key,
        business_id integer not null references business(id),
        name varchar(100) not null,
        body text not null check (char_length(body) between 1 and 588),
        send_at timestamptz,
        per_minute integer not null check (per_minute between 1 and 6000),
        quiet_start smallint not null check (quiet_start between 0 and 1439),
        quiet_end smallint not null check (quiet_end between 0 and 1439),
        state varchar(16) not null default 'draft' check (state in ('draft', 'running', 'paused', 'done', 'cancelled')),
        total integer not null default 0,
        sent integer not null default 0,
        failed integer not null default 0,
        skipped_opted_out integer not null default 0,
        created_by integer references app_user(id),
        created_at timestamptz not null default now(),
        started_at timestamptz,
        ended_at timestamptz,
        updated_at timestamptz not null default now()
      );
      create index sms_campaign_business_idx on sms_campaign (business_id, id desc);

      create table sms_campaign_recipient (
        campaign_id integer not null references sms_campaign(id) on delete cascade,
        phone varchar(16) not null,
        status varchar(20) not null default 'pending'
          check (status in ('pending', 'sent', 'failed', 'skipped_opted_out')),
        provider_message_id varchar(64),
        handled_at timestamptz,
        primary key (campaign_id, phone)
      );

      create table sms_opt_out (
        business_id integer not null references business(id),
        phone varchar(16) not null,
        source varchar(16) not null check (source in ('staff', 'reply')),
        recorded_by integer references app_user(id),
        created_at timestamptz not null default now(),
        primary key (business_id, phone)
      );
    `);
  }
}
