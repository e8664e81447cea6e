import { Migration } from '@mikro-orm/migrations';

/** Webhook settings per merchant and per customer, one delivery per (event, endpoint), and the attempt log. */
export class Migration20261122010000Webhooks extends Migration {
  override up(): void {
    this.addSql(`
      -- The customer an event concerns, so a customer-level override can receive it.
      alter table outbox_event add column customer_id integer references app_user(id);

      create table webhook_settings (
        id serial primary key,
        business_id integer not null references business(id),
        customer_id integer references app_user(id),
        sign_secret varchar(255),
        urls jsonb not null default '{}',
        url_formats jsonb not null default '{}',
        device_order_events text,
        order_lifecycle_events text,
        driver_location_min_interval_sec integer not null default 60,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create unique index webhook_settings_scope on webhook_settings (business_id, coalesce(customer_id, 0));

      create table webhook_delivery (
        id bigserial primary key,
        business_id integer not null references business(id),
        outbox_event_id bigint not null references outbox_event(id),
        settings_id integer not null references webhook_settings(id),
        sender varchar(32) not null,
        url text not null,
        format varchar(16) not null check (format in ('native','ce_binary','ce_structured')),
        standard_webhooks boolean not null default false,
        -- X-Webhook-Event-Id: fixed when the delivery is created, the same on every retry.
        delivery_key uuid not null default gen_random_uuid(),
        event_id varchar(64) not null,
        event_type varchar(64) not null,
        reference_type varchar(32) not null,
        reference_id varchar(64) not null,
        status varchar(16) not null default 'pending' check (status in ('pending','retrying','delivered','dead')),
        attempts integer not null default 0,
        max_attempts integer not null,
        locked_until timestamptz,
        retry_workflow_started boolean not null default false,
        last_status integer,
        last_error text,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        delivered_at timestamptz,
        unique (outbox_event_id, settings_id, url)
      );
      create index webhook_delivery_list_idx on webhook_delivery (business_id, id desc);
      create index webhook_delivery_open_idx on webhook_delivery (updated_at) where status in ('pending','retrying') and not retry_workflow_started;

      -- The delivery log: one row per attempt; secrets and bodies never stored, only the body's digest.
      create table webhook_attempt (
        id bigserial primary key,
        delivery_id bigint not null references webhook_delivery(id) on delete cascade,
        business_id integer not null references business(id),
        attempt integer not null,
        url text not null,
        request_headers jsonb not null,
        body_sha256 varchar(64) not null,
        body_bytes integer not null,
        response_status integer,
        latency_ms integer not null,
        error text,
        attempted_at timestamptz not null default now(),
        unique (delivery_id, attempt)
      );
      create index webhook_attempt_list_idx on webhook_attempt (business_id, id desc);
      create index webhook_attempt_age_idx on webhook_attempt (attempted_at);
    `);
  }
}
