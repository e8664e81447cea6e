import { Migration } from '@mikro-orm/migrations';

/** Businesses, users and tokens, orders, contractor assignments, devices, device orders and the outbox. */
export class Migration20261122000000Foundation extends Migration {
  override up(): void {
    this.addSql(`
      create table business (
        id serial primary key,
        code varchar(64) not null unique,
        name varchar(255) not null,
        timezone varchar(64) not null default 'UTC',
        assignment_module_enabled boolean not null default false,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );

      create table app_user (
        id serial primary key,
        business_id integer references business(id),
        email varchar(255) not null unique,
        name varchar(255) not null,
        role varchar(32) not null check (role in ('client_admin','employee','contractor','driver','customer','platform_admin')),
        password_hash varchar(255) not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        check ((role = 'platform_admin') = (business_id is null))
      );

      create table auth_token (
        id serial primary key,
        user_id integer not null references app_user(id) on delete cascade,
        token_hash char(64) not null unique,
        expires_at timestamptz not null,
        revoked_at timestamptz,
        created_at timestamptz not null default now()
      );
      create index auth_token_user_idx on auth_token (user_id);

      create table delivery_order (
        id serial primary key,
        business_id integer not null references business(id),
        type varchar(3) not null check (type in ('D','P','P2P')),
        order_ref varchar(100),
        tracking_number varchar(32) not null unique,
        status_id integer not null,
        scheduled_date date not null,
        recipient jsonb not null,
        note text,
        self_delivery boolean not null default true,
        carrier_provider_id integer references business(id),
        route_id integer,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create index delivery_order_business_idx on delivery_order (business_id, id desc);
      create index delivery_order_ref_idx on delivery_order (business_id, order_ref);

      create table broker_order_assignment (
        id serial primary key,
        business_id integer not null references business(id),
        order_id integer not null references delivery_order(id),
        broker_id integer not null references app_user(id),
        status varchar(16) not null check (status in ('active','revoked','released')),
        note varchar(500),
        assigned_by integer references app_user(id),
        assigned_at timestamptz not null default now(),
        ended_by integer references app_user(id),
        ended_at timestamptz,
        end_reason varchar(255),
        check ((status = 'active') = (ended_at is null))
      );
      -- One active assignment per order, whatever races the API runs into.
      create unique index broker_order_assignment_one_active on broker_order_assignment (order_id) where status = 'active';
      create index broker_order_assignment_list_idx on broker_order_assignment (business_id, assigned_at desc, id desc);
      create index broker_order_assignment_broker_idx on broker_order_assignment (broker_id, assigned_at desc, id desc);

      create table device (
        id serial primary key,
        business_id integer not null references business(id),
        code varchar(64) not null unique,
        name varchar(255) not null,
        device_type varchar(32) not null default 'locker',
        grid_codes jsonb not null default '[]',
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );

      create table device_order (
        id serial primary key,
        business_id integer not null references business(id),
        kind varchar(16) not null check (kind in ('delivery','return','storage')),
        status varchar(16) not null check (status in ('stored','overdue','collected','removed')),
        next_actor varchar(16) not null,
        device_id integer not null references device(id),
        grid_code varchar(32) not null,
        reference_number varchar(100) not null,
        order_id integer references delivery_order(id),
        external_order_id varchar(100),
        due_at timestamptz not null,
        overdue_at timestamptz,
        stored_at timestamptz not null default now(),
        ended_at timestamptz,
        removal_reason varchar(32),
        pickup_code_hash varchar(128) not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      -- One compartment holds one active device order.
      create unique index device_order_one_per_grid on device_order (device_id, grid_code) where status in ('stored','overdue');
      create index device_order_list_idx on device_order (business_id, id desc);

      -- The ledger of device order transitions; its ids make the events' DOE-<id> event ids.
      create table device_order_event (
        id bigserial primary key,
        device_order_id integer not null references device_order(id),
        business_id integer not null references business(id),
        event_type varchar(64) not null,
        occurred_at timestamptz not null default now()
      );
      create index device_order_event_order_idx on device_order_event (device_order_id, id);

      create table outbox_event (
        id bigserial primary key,
        business_id integer not null references business(id),
        event_id varchar(64) not null unique,
        event_type varchar(64) not null,
        reference_type varchar(32) not null,
        reference_id varchar(64) not null,
        payload jsonb not null,
        created_at timestamptz not null default now(),
        published_at timestamptz
      );
      create index outbox_event_pending_idx on outbox_event (id) where published_at is null;

      -- Wakes the outbox relay without polling.
      create function outbox_event_notify() returns trigger language plpgsql as $$
      begin
        perform pg_notify('outbox_event', new.id::text);
        return new;
      end $$;
      create trigger outbox_event_notify after insert on outbox_event for each row execute function outbox_event_notify();
    `);
  }
}
