import { Migration } from '@mikro-orm/migrations';

/**
 * Drivers (docs/routes.md, Drivers).
 *
 * - duty_changes counts the driver's duty changes: driver.on_duty_changed carries the event id DOD-<driver>.<n>.
 * - Every driver account made before driver records existed gets an active record in its business, so that it signs
 *   in, is planned and is offered orders as before.
 */
export class Migration20261202010000Drivers extends Migration {
  override up(): void {
    this.addSql(`
      alter table driver_profile add column duty_changes integer not null default 0;

      insert into driver_profile (user_id, business_id, status)
      select u.id, u.business_id, 'active' from app_user u
       where u.role = 'driver' and u.business_id is not null
      on conflict (user_id) do nothing;
    `);
  }
}
