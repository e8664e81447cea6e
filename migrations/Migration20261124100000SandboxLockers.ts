import { Migration } from '@mikro-orm/migrations';

/**
 * Sandbox lockers (docs/locker-deliveries.md, Sandbox): a simulated device whose partner deliveries are test
 * deliveries (livemode false) played by the simulator instead of a locker's own reports.
 */
export class Migration20261124100000SandboxLockers extends Migration {
  override up(): void {
    this.addSql('alter table device add column sandbox boolean not null default false;');
  }
}
