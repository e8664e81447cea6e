import { Migration } from '@mikro-orm/migrations';

/**
 * Retry workflows drive up to 100 deliveries each: a delivery records which workflow drives its current round
 * (null: none yet, which is what the relay's sweep looks for) instead of only whether one was started.
 * Open deliveries are left without one, so the sweep hands them to the new workflows; finished ones keep the
 * name of the per-delivery workflow that drove them.
 */
export class Migration20261122070000WebhookRetryBatches extends Migration {
  override up(): void {
    this.addSql(`
      alter table webhook_delivery add column retry_workflow_id varchar(100);
      update webhook_delivery set retry_workflow_id = 'webhook-delivery-' || id || case when round > 0 then '-r' || round else '' end
        where retry_workflow_started and status in ('delivered', 'dead');
      drop index webhook_delivery_open_idx;
      alter table webhook_delivery drop column retry_workflow_started;
      create index webhook_delivery_open_idx on webhook_delivery (updated_at) where status in ('pending','retrying') and retry_workflow_id is null;
    `);
  }
}
