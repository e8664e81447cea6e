import { Migration } from '@mikro-orm/migrations';

/** Test sends aimed at one endpoint, and each driver's last reported position with its throttle clock. */
export class Migration20261122030000WebhookTestsAndLocation extends Migration {
  override up(): void {
    this.addSql(`
      -- A test event goes only to the settings row (and URL) it was sent for.
      alter table outbox_event add column target_settings_id integer references webhook_settings(id);
      alter table outbox_event add column target_url text;

      create table driver_location (
        driver_id integer primary key references app_user(id),
        business_id integer not null references business(id),
        lat double precision not null,
        lng double precision not null,
        heading double precision,
        speed double precision,
        recorded_at timestamptz not null,
        -- When the last driver.location_update was produced: the per-driver throttle reads it.
        last_event_at timestamptz,
        updated_at timestamptz not null default now()
      );
    `);
  }
}
