/** The hourly clean-up of rate-limit windows and wrong-code counts. Imported by the worker and by the workflow. */
export const LIMIT_ROWS_PRUNE_WORKFLOW = 'limitRowsPruneWorkflow';
export const LIMIT_ROWS_PRUNE_SCHEDULE = 'limit-rows-prune';

export interface LimitRowsPruned {
  windows: number;
  attempts: number;
}

export type AbuseLimitActivities = {
  pruneLimitRows(): Promise<LimitRowsPruned>;
};
