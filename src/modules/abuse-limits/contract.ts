import { PROCESS_QUEUE } from '../../platform/temporal/queues.ts';
/** The hourly clean-up of rate-limit windows and wrong-code counts. Imported by the worker and by the workflow. */
export const LIMIT_ROWS_PRUNE_WORKFLOW = 'limitRowsPruneWorkflow';
/** The task queue its workflow and activities run on. */
export const LIMIT_ROWS_PRUNE_QUEUE = PROCESS_QUEUE;
export const LIMIT_ROWS_PRUNE_SCHEDULE = 'limit-rows-prune';

export interface LimitRowsPruned {
  windows: number;
  attempts: number;
}

export type AbuseLimitActivities = {
  pruneLimitRows(): Promise<LimitRowsPruned>;
};
