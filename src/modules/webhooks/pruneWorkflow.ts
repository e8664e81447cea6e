import { proxyActivities } from '@temporalio/workflow';
import type { WebhookActivities } from './activities.ts';
import type { PruneResult } from './contract.ts';

const { pruneWebhookLog } = proxyActivities<WebhookActivities>({ startToCloseTimeout: '30 minutes', retry: { maximumAttempts: 5 } });

/** Run daily by the schedule `webhook-log-prune`: the delivery log keeps what is younger than the retention. */
export async function webhookLogPruneWorkflow(retentionDays: number): Promise<PruneResult> {
  return pruneWebhookLog(retentionDays);
}
