import { ApplicationFailure } from '@temporalio/common';
import type { Orm } from '../src/db/orm.ts';
import { markDead } from '../src/db/webhookDeliveryRepo.ts';
import { pruneWebhookLog } from '../src/db/webhookLogRepo.ts';
import type { AttemptResult, DeliveryState, PruneResult } from '../src/temporal/webhookContract.ts';
import { attemptDelivery } from '../src/webhooks/deliver.ts';

export function createWebhookActivities(deps: { orm: Orm; publicBaseUrl: string }) {
  return {
    /** One signed attempt; a receiver's failure is a result, not an activity error (only infrastructure errors retry). */
    async attemptWebhookDelivery(deliveryId: number): Promise<AttemptResult> {
      const em = deps.orm.em.fork();
      const outcome = await attemptDelivery({ em, publicBaseUrl: deps.publicBaseUrl }, deliveryId);
      if (outcome.kind !== 'skipped') return { state: outcome.kind, attempts: outcome.attempt };
      const [row] = await em.execute<{ status: DeliveryState; attempts: number; leased: boolean }[]>(
        'select status, attempts, coalesce(locked_until > now(), false) as leased from webhook_delivery where id = ?', [deliveryId]);
      // A crashed attempt's lease: retry once it expires instead of spending the next scheduled wait.
      if (row?.leased && (row.status === 'pending' || row.status === 'retrying')) throw ApplicationFailure.retryable('another attempt of this delivery holds its lease', 'LeaseHeld');
      return { state: row?.status ?? 'dead', attempts: row?.attempts ?? 0 };
    },
    async markWebhookDeliveryDead(deliveryId: number): Promise<void> {
      await markDead(deps.orm.em.fork(), deliveryId);
    },
    /** Deletes in batches of 5,000 rows so that a large backlog never holds long locks. */
    async pruneWebhookLog(retentionDays: number): Promise<PruneResult> {
      return pruneWebhookLog(deps.orm.em.fork(), retentionDays, 5_000);
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
