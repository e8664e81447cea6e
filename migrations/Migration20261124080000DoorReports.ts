import { Migration } from '@mikro-orm/migrations';

/**
 * Door reports of lockers (docs/lockers.md): each compartment keeps the last state its locker reported and when the
 * locker says it happened, so a report that arrives after a newer one changes nothing.
 */
export class Migration20261124080000DoorReports extends Migration {
  override up(): void {
    this.addSql(`
      alter table compartment
        add column door_state varchar(8) check (door_state in ('opened', 'closed')),
        add column door_reported_at timestamptz;
    `);
  }
}
