import { Migration } from '@mikro-orm/migrations';

/**
 * The per-origin bound on retry POSTs under way, shared by every worker (src/modules/webhooks/originSlots.ts): one
 * row per slot of a receiving origin, leased by a worker for a minute at most. A worker that dies without giving
 * its slots back loses them when the lease ends.
 */
export class Migration20261124030000OriginSlots extends Migration {
  override up(): void {
    this.addSql(`
      create table webhook_origin_slot (
        origin text not null,
        slot int not null,
        holder uuid,
        leased_until timestamptz not null default '-infinity',
        primary key (origin, slot)
      );
    `);
  }
}
