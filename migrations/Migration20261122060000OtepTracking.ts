import { Migration } from '@mikro-orm/migrations';

/**
 * OTEP tracking: events reported by carriers (and corrections of them), provider ingest credentials, and
 * the link from an order status change to the tracking event that caused it.
 */
export class Migration20261122060000OtepTracking extends Migration {
  override up(): void {
    this.addSql(`
      create table tracking_event (
        id bigserial primary key,
        order_id integer not null references delivery_order(id),
        business_id integer not null references business(id),
        -- The sender's event id, or one derived from the content when it sends none: one row per key.
        event_key varchar(200) not null,
        provider_id integer references business(id),
        status_code varchar(120) not null,
        phase varchar(40) not null,
        occurred_at timestamptz not null,
        -- The offset the sender wrote occurred_at with, so the event is published as it was sent.
        occurred_offset_min smallint not null default 0,
        recorded_at timestamptz not null default now(),
        location jsonb,
        incident_reason varchar(120),
        description varchar(1000),
        otep_version varchar(20) not null,
        -- A hash of what the sender said: the same key with another hash is a correction.
        content_hash char(64) not null,
        revision integer not null default 1
      );
      create unique index tracking_event_key on tracking_event (order_id, event_key);
      create index tracking_event_timeline on tracking_event (order_id, occurred_at, id);

      alter table order_status_change add column tracking_event_id bigint references tracking_event(id);

      create table otep_credential (
        id serial primary key,
        key_id varchar(40) not null unique,
        business_id integer not null references business(id),
        created_by integer not null references app_user(id),
        name varchar(100) not null,
        secret_hash char(64) not null unique,
        created_at timestamptz not null default now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      );
      create index otep_credential_business on otep_credential (business_id, id);
    `);
  }
}
