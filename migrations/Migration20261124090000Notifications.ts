import { Migration } from '@mikro-orm/migrations';

/**
 * Recipient notifications (docs/notifications.md): one row per message the service owes someone, with its
 * attempts. The row never holds the message's text: a pickup code is read from its sealed column when sending.
 */
export class Migration20261124090000Notifications extends Migration {
  override up(): void {
    this.addSql(`
      create table notification (
        id bigserial primary key,
        business_id integer not null references business(id),
        -- The process that owes the message and which of its messages it is: an attempt again finds its row.
        key varchar(160) not null unique,
        reference_type varchar(32) not null,
        reference_id varchar(64) not null,
        channel varchar(8) not null check (channel in ('email')),
        recipient varchar(254),
        template varchar(64) not null,
        status varchar(12) not null check (status in ('pending', 'sent', 'failed', 'skipped')),
        attempts integer not null default 0,
        last_error varchar(500),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        sent_at timestamptz
      );
      create index notification_business on notification (business_id, id desc);
      create index notification_reference on notification (reference_type, reference_id, id);
    `);
  }
}
