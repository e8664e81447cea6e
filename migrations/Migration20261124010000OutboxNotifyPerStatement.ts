import { Migration } from '@mikro-orm/migrations';

/**
 * The relay only needs to know that events are waiting, not which: it claims whatever is pending. A notification
 * per row with its id as payload made a 500-event ingest queue 500 distinct notifications, which PostgreSQL checks
 * for duplicates at commit and the relay then reads one by one. One per statement, always the same payload, is one
 * per transaction after PostgreSQL folds equal notifications.
 */
export class Migration20261124010000OutboxNotifyPerStatement extends Migration {
  override up(): void {
    this.addSql(`
      drop trigger outbox_event_notify on outbox_event;
      create or replace function outbox_event_notify() returns trigger language plpgsql as $$
      begin
        perform pg_notify('outbox_event', '');
        return null;
      end $$;
      create trigger outbox_event_notify after insert on outbox_event for each statement execute function outbox_event_notify();
    `);
  }
}
