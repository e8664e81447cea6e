import type { Sinks } from '@temporalio/workflow';

/** How a workflow run ended, as the workflow interceptor reports it to the worker's metrics. */
export type WorkflowOutcome = 'completed' | 'failed' | 'cancelled' | 'continued_as_new' | 'task_failed';

/** The sink workflow code reports through (workflows cannot reach the process's metrics themselves). */
export interface MetricsSinks extends Sinks {
  tmsMetrics: {
    workflowResult(outcome: WorkflowOutcome): void;
  };
}
