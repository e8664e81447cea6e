import { Context } from '@temporalio/activity';
import type { Orm } from '../../platform/db/orm.ts';
import { markDead } from './repo/deliveries.ts';
import { pruneWebhookLog } from './repo/log.ts';
import type { AttemptResult, PruneResult, WebhookActivities } from './contract.ts';
import { attemptDeliveries, type SendOptions } from './deliver.ts';
import type { OriginSlots } from './originSlots.ts';

export function createWebhookActivities(
  deps: { orm: Orm; slots: OriginSlots; leaseMarginSec: number } & SendOptions,
): WebhookActivities {
  return {
    /** One signed attempt of each delivery; a receiver's failure is a result, not an activity error (only infrastructure errors retry). */
    /** `notBefore` (epoch ms by delivery id): a delivery is sent no earlier than that. */
    async attemptWebhookDeliveries(
      deliveryIds: number[],
      notBefore: Record<number, number> = {},
    ): Promise<Record<number, AttemptResult>> {
      // Heartbeats tell the server this worker lives: a dead one's batch is handed on after the heartbeat timeout.
      const ctx = Context.current();
      const beat = setInterval(() => ctx.heartbeat(), 3_000);
      try {
        return await attemptDeliveries(
          {
            em: deps.orm.em.fork(),
            slots: deps.slots,
            publicBaseUrl: deps.publicBaseUrl,
            allowPrivateTargets: deps.allowPrivateTargets,
            leaseMarginSec: deps.leaseMarginSec,
          },
          deliveryIds,
          notBefore,
        );
      } finally {
        clearInterval(beat);
      }
    },
    async markWebhookDeliveriesDead(deliveryIds: number[]): Promise<void> {
      await markDead(deps.orm.em.fork(), deliveryIds);
    },
    /** Deletes in batches of 5,000 rows so that a large backlog never holds long locks. */
    async pruneWebhookLog(retentionDays: number): Promise<PruneResult> {
      return pruneWebhookLog(deps.orm.em.fork(), retentionDays, 5_000);
    },
  };
}
