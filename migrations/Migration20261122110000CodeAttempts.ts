import { Migration } from '@mikro-orm/migrations';

/**
 * Wrong-code counting for every code the service checks (pickup codes today), per subject and per caller, shared
 * by every API process; and device order exceptions, which a lock opens for the operator.
 */
export class Migration20261122110000CodeAttempts extends Migration {
  override up(): void {
    this.addSql(`
      create table code_attempt (
        kind varchar(32) not null,
        subject varchar(64) not null,
        failures integer not null default 0,
        window_started_at timestamptz not null default now(),
        locked_until timestamptz,
        locks integer not null default 0,
        primary key (kind, subject)
      );

      create table device_order_exception (
        id serial primary key,
        device_order_id integer not null references device_order(id),
        business_id integer not null references business(id),
        type varchar(32) not null,
        severity varchar(16) not null check (severity in ('low','medium','high')),
        status varchar(16) not null default 'open' check (status in ('open','resolved','dismissed')),
        resolution_action varchar(64),
        opened_at timestamptz not null default now(),
        closed_at timestamptz
      );
      -- One open exception of a type per device order; a second lock is written to the history only.
      create unique index device_order_exception_open_once on device_order_exception (device_order_id, type) where status = 'open';
      create index device_order_exception_business_idx on device_order_exception (business_id, id desc);
    `);
  }
}
