import { Migration } from '@mikro-orm/migrations';

/**
 * Carriers' tracking events belong to a package (docs/distribution.md): each package has its own timeline, and a
 * carrier's event ids are unique per package. Events written before packages existed belong to their order's
 * first package, whose number is the order's tracking number they were sent for.
 */
export class Migration20261125110000TrackingPerPackage extends Migration {
  override up(): void {
    this.addSql(`
      alter table tracking_event add column package_id integer references order_package(id);
      update tracking_event t set package_id = pk.id from order_package pk where pk.order_id = t.order_id and pk.position = 1;
      alter table tracking_event alter column package_id set not null;
      drop index tracking_event_key;
      create unique index tracking_event_key on tracking_event (package_id, event_key);
      create index tracking_event_package_timeline on tracking_event (package_id, occurred_at, id);
    `);
  }
}
