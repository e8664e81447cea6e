import { Migration } from '@mikro-orm/migrations';

/**
 * Partner locker deliveries (docs/locker-deliveries.md):
 * - `locker_partner`: which provider may deliver into which business's lockers.
 * - `locker_settings`: a business's timers for deliveries into its lockers; a delivery copies them at create.
 * - `locker_delivery` and its parcels, each parcel holding one compartment through `compartment_parcel`
 *   (which now names a device order or a parcel, exactly one).
 * - `locker_delivery_event`: the ledger whose ids make the events' PLE-<id>.
 */
export class Migration20261124070000LockerDeliveries extends Migration {
  override up(): void {
    this.addSql(`
      create table locker_partner (
        business_id integer not null references business(id),
        provider_id integer not null references business(id),
        created_at timestamptz not null default now(),
        primary key (business_id, provider_id)
      );

      create table locker_settings (
        business_id integer primary key references business(id),
        delivery_code_ttl_hours integer not null default 72 check (delivery_code_ttl_hours between 1 and 720),
        deposit_timeout_minutes integer not null default 15 check (deposit_timeout_minutes between 1 and 1440),
        pickup_ttl_hours integer not null default 72 check (pickup_ttl_hours between 1 and 720),
        correction_window_minutes integer not null default 10 check (correction_window_minutes between 0 and 1440),
        code_rotation_hours integer not null default 0 check (code_rotation_hours between 0 and 720),
        updated_at timestamptz not null default now()
      );

      create table locker_delivery (
        id serial primary key,
        business_id integer not null references business(id),
        provider_id integer not null references business(id),
        device_id integer not null references device(id),
        status varchar(24) not null check (status in ('awaiting_deposit', 'depositing', 'delivered', 'picked_up', 'failed', 'expired', 'cancelled')),
        open_mode varchar(16) not null check (open_mode in ('screen_code', 'remote_open')),
        livemode boolean not null default true,
        recipient jsonb not null,
        delivery_code_hash varchar(128),
        pickup_code_hash varchar(128) not null,
        pickup_code_sealed text not null,
        pickup_code_rotated boolean not null default false,
        confirmed_by varchar(24),
        delivery_code_expires_at timestamptz not null,
        -- The business's settings when it was created, in seconds.
        deposit_timeout_seconds double precision not null,
        pickup_ttl_seconds double precision not null,
        correction_window_seconds double precision not null,
        code_rotation_seconds double precision not null,
        delivered_at timestamptz,
        ended_at timestamptz,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create index locker_delivery_provider on locker_delivery (provider_id, id desc);
      create index locker_delivery_business on locker_delivery (business_id, id desc);
      -- The screen looks a typed code up among the device's open deliveries (each hash is salted).
      create index locker_delivery_open on locker_delivery (device_id) where status in ('awaiting_deposit', 'depositing', 'delivered');

      create table locker_delivery_parcel (
        id serial primary key,
        delivery_id integer not null references locker_delivery(id),
        reference varchar(100) not null,
        size varchar(2) not null check (size in ('S', 'M', 'L', 'XL')),
        compartment_id integer not null references compartment(id),
        failure_code varchar(32),
        unique (delivery_id, reference)
      );

      alter table compartment_parcel add column locker_parcel_id integer unique references locker_delivery_parcel(id);
      alter table compartment_parcel drop constraint compartment_parcel_device_order_id_check;
      alter table compartment_parcel add constraint compartment_parcel_one_occupant check (num_nonnulls(device_order_id, locker_parcel_id) = 1);

      create table locker_delivery_event (
        id bigserial primary key,
        delivery_id integer not null references locker_delivery(id),
        event_type varchar(64) not null,
        occurred_at timestamptz not null default now()
      );
      create index locker_delivery_event_delivery on locker_delivery_event (delivery_id, id);
    `);
  }
}
