import { Migration } from '@mikro-orm/migrations';

/**
 * One live OHP subscription per business, URL and event set. Earlier duplicates (an outside probe left 1,801
 * live ones) are revoked, keeping the oldest of each, before the unique index that refuses new ones. Event lists
 * are stored sorted from now on, so that equal sets compare equal; old rows are sorted here.
 */
export class Migration20261122100000OhpSubscriptionLimits extends Migration {
  override up(): void {
    this.addSql(`
      update webhook_endpoint set events = array(select distinct e from unnest(events) as e order by e)
      where kind = 'ohp';
      update webhook_endpoint w set revoked_at = now(), updated_at = now()
      where w.kind = 'ohp' and w.revoked_at is null and exists (
        select 1 from webhook_endpoint o
        where o.kind = 'ohp' and o.revoked_at is null and o.business_id = w.business_id and o.url = w.url and o.events = w.events and o.id < w.id);
      create unique index webhook_endpoint_ohp_once on webhook_endpoint (business_id, url, events) where kind = 'ohp' and revoked_at is null;
    `);
  }
}
