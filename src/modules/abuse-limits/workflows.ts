import { proxyActivities } from '@temporalio/workflow';
import type { AbuseLimitActivities, LimitRowsPruned } from './contract.ts';

const { pruneLimitRows } = proxyActivities<AbuseLimitActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 5 },
});

/** Run hourly by the schedule `limit-rows-prune`: counts nobody has touched for a day are forgotten. */
export async function limitRowsPruneWorkflow(): Promise<LimitRowsPruned> {
  return pruneLimitRows();
}
