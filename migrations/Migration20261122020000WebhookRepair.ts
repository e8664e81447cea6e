import { Migration } from '@mikro-orm/migrations';

/**
 * Replays and resends open a new round of attempts on the same delivery; the log lookups they need; the facts
 * the payload transform needs (an event's price family and carrier, a customer's hidden price families).
 */
export class Migration20261122020000WebhookRepair extends Migration {
  override up(): void {
    this.addSql(`
      -- round 0 is the original schedule; each replay or resend starts round n+1 after round_base attempts.
      alter table webhook_delivery add column round integer not null default 0;
      alter table webhook_delivery add column round_base integer not null default 0;
      create index webhook_delivery_reference_idx on webhook_delivery (business_id, reference_type, reference_id);
      create index webhook_delivery_finished_idx on webhook_delivery (updated_at) where status in ('delivered', 'dead');
      alter table outbox_event add column family varchar(32);
      alter table outbox_event add column carrier_held boolean not null default false;
      alter table app_user add column hidden_price_families text[] not null default '{}';
      create index outbox_event_published_idx on outbox_event (published_at) where published_at is not null;
    `);
  }
}
