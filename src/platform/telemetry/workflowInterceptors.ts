/**
 * Runs inside the workflow sandbox (bundled with every module's workflows): reports how each run ends through
 * the metrics sink. It only observes, so it changes no history and replays as before.
 */
import {
  ContinueAsNew,
  isCancellation,
  proxySinks,
  TemporalFailure,
  type WorkflowInterceptorsFactory,
} from '@temporalio/workflow';
import type { MetricsSinks, WorkflowOutcome } from './workflowSinks.ts';

const { tmsMetrics } = proxySinks<MetricsSinks>();

/** A TemporalFailure fails the run; any other error fails the workflow task, which Temporal retries. */
function outcomeOf(err: unknown): WorkflowOutcome {
  if (err instanceof ContinueAsNew) return 'continued_as_new';
  if (isCancellation(err)) return 'cancelled';
  return err instanceof TemporalFailure ? 'failed' : 'task_failed';
}

export const interceptors: WorkflowInterceptorsFactory = () => ({
  inbound: [
    {
      async execute(input, next) {
        try {
          const result = await next(input);
          tmsMetrics.workflowResult('completed');
          return result;
        } catch (err) {
          tmsMetrics.workflowResult(outcomeOf(err));
          throw err;
        }
      },
    },
  ],
});
