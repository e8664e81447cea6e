import { Migration } from '@mikro-orm/migrations';

/**
 * Lockers as they are built (docs/lockers.md): a device's compartments become rows with their grid code, hardware
 * door number, display number, shelf and size, replacing the device's list of grid codes.
 * - Existing devices keep their grid codes, in list order: door and display numbers 1, 2, ..., the shelf the code's
 *   leading letters ('A' when it has none), size M. A code that only a device order names is added after them.
 * - `compartment_parcel` holds the parcel in each compartment: its primary key is the compartment, so two
 *   processes (a device order, later a partner delivery) can never both hold one. Open device orders (stored,
 *   overdue) hold theirs from the start; the old partial unique index on device_order is dropped.
 */
export class Migration20261124050000Compartments extends Migration {
  override up(): void {
    this.addSql(`
      create table compartment (
        id serial primary key,
        device_id integer not null references device(id),
        grid_code varchar(32) not null,
        compartment_number integer not null check (compartment_number between 1 and 9999),
        pickup_locker_number integer check (pickup_locker_number between 1 and 9999),
        shelf_code varchar(16) not null,
        size varchar(2) not null check (size in ('S', 'M', 'L', 'XL')),
        created_at timestamptz not null default now(),
        unique (device_id, grid_code),
        unique (device_id, compartment_number)
      );

      with codes as (
        select d.id as device_id, g.code as grid_code, g.ord as ord
        from device d cross join lateral jsonb_array_elements_text(d.grid_codes) with ordinality as g(code, ord)
        union all
        select device_id, grid_code, 1000000000 + min(id) from device_order group by device_id, grid_code
      ), firsts as (
        select device_id, grid_code, min(ord) as ord from codes group by device_id, grid_code
      ), numbered as (
        select device_id, grid_code, row_number() over (partition by device_id order by ord)::int as n from firsts
      )
      insert into compartment (device_id, grid_code, compartment_number, pickup_locker_number, shelf_code, size)
      select device_id, grid_code, n, n, coalesce(substring(grid_code from '^[A-Za-z]+'), 'A'), 'M' from numbered;

      create table compartment_parcel (
        compartment_id integer primary key references compartment(id),
        device_order_id integer unique references device_order(id),
        placed_at timestamptz not null default now(),
        check (device_order_id is not null)
      );

      alter table device_order add column compartment_id integer references compartment(id);
      update device_order o set compartment_id = c.id from compartment c where c.device_id = o.device_id and c.grid_code = o.grid_code;
      alter table device_order alter column compartment_id set not null;
      insert into compartment_parcel (compartment_id, device_order_id)
        select compartment_id, id from device_order where status in ('stored', 'overdue');
      drop index device_order_one_per_grid;
      alter table device drop column grid_codes;
    `);
  }
}
