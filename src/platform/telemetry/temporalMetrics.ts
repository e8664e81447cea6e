import path from 'node:path';
import type { WorkflowClientInterceptor } from '@temporalio/client';
import { CancelledFailure, WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { ActivityInboundCallsInterceptor, InjectedSinks, WorkerInterceptors } from '@temporalio/worker';
import { activityResults, workflowResults, workflowStarts } from './metrics.ts';
import type { MetricsSinks } from './workflowSinks.ts';

/** Counts the workflow starts a client asks for (the API's device orders, the relay's retry workflows). */
export function countingClientInterceptor(): WorkflowClientInterceptor {
  const counted = async <T>(workflowType: string, start: () => Promise<T>): Promise<T> => {
    try {
      const out = await start();
      workflowStarts.inc({ workflow_type: workflowType, result: 'started' });
      return out;
    } catch (err) {
      workflowStarts.inc({
        workflow_type: workflowType,
        result: err instanceof WorkflowExecutionAlreadyStartedError ? 'already_started' : 'error',
      });
      throw err;
    }
  };
  return {
    startWithDetails: (input, next) => counted(input.workflowType, () => next(input)),
    signalWithStart: (input, next) => counted(input.workflowType, () => next(input)),
  };
}

/** Counts activity attempts by outcome. */
const activityCounter: WorkerInterceptors['activity'] = [
  (ctx) => ({
    inbound: {
      async execute(input, next) {
        const activity_type = ctx.info.activityType;
        try {
          const out = await next(input);
          activityResults.inc({ activity_type, outcome: 'completed' });
          return out;
        } catch (err) {
          activityResults.inc({ activity_type, outcome: err instanceof CancelledFailure ? 'cancelled' : 'failed' });
          throw err;
        }
      },
    } satisfies ActivityInboundCallsInterceptor,
  }),
];

/** The worker's side of workflowSinks.ts: a finished run counted (not again on replay). */
const metricsSinks: InjectedSinks<MetricsSinks> = {
  tmsMetrics: {
    workflowResult: {
      fn: (info, outcome) => workflowResults.inc({ workflow_type: info.workflowType, outcome }),
      callDuringReplay: false,
    },
  },
};

/** Module paths of the workflow interceptors, for the worker and for a prebuilt bundle (scripts/stack.ts). */
export const WORKFLOW_INTERCEPTOR_MODULES = [path.resolve(import.meta.dirname, 'workflowInterceptors.ts')];

export const workerMetrics = { activity: activityCounter, sinks: metricsSinks };
