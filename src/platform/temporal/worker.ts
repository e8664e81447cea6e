import path from 'node:path';
import {
  bundleWorkflowCode,
  DefaultLogger,
  NativeConnection,
  Runtime,
  Worker,
  type LogLevel,
} from '@temporalio/worker';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import type { Activities } from '../module.ts';
import { WORKFLOW_INTERCEPTOR_MODULES, workerMetrics } from '../telemetry/temporalMetrics.ts';
import type { Tracing } from '../telemetry/tracing.ts';

/** The bundle entry: every module's workflows (workflows/index.ts, the design card's folder). */
export const workflowsPath = path.resolve(import.meta.dirname, '../../../workflows/index.ts');

let runtimeInstalled = false;

/** Routes the Temporal SDK's own logs into the service's JSON logger (once per process, before any native connection). */
export function installRuntime(log: Logger): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const sdkLog = log.child({ component: 'temporal-sdk' });
  Runtime.install({
    logger: new DefaultLogger('WARN', (entry) => {
      const level = entry.level.toLowerCase() as Lowercase<LogLevel>;
      const fn =
        level === 'trace'
          ? 'trace'
          : level === 'debug'
            ? 'debug'
            : level === 'info'
              ? 'info'
              : level === 'warn'
                ? 'warn'
                : 'error';
      sdkLog[fn](entry.meta ?? {}, entry.message);
    }),
  });
}

/**
 * One Temporal worker per task queue this process serves, sharing the connection of this process's client. Each
 * holds every workflow and every activity (activities/index.ts), so a queue never lacks the code of a task that
 * reached it: a process started on one queue before a module moved to another still runs to its end. Which queue a
 * task goes to is the contract's choice; which queues a process serves is WORKER_QUEUES.
 */
export async function createWorkers(
  config: Config,
  connection: NativeConnection,
  queues: readonly string[],
  activities: Activities,
  log: Logger,
  tracing: Tracing | null = null,
): Promise<Worker[]> {
  // A prebuilt bundle holds the metrics interceptor but not the tracing one: with tracing on, each worker bundles its
  // own; otherwise the workflows are bundled once for every queue.
  const bundle =
    tracing !== null
      ? null
      : config.workflowBundlePath
        ? { codePath: config.workflowBundlePath }
        : await bundleWorkflowCode({
            workflowsPath,
            workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
            logger: new DefaultLogger('WARN', (entry) => log.warn(entry.meta ?? {}, entry.message)),
          });
  return Promise.all(
    queues.map((taskQueue) =>
      Worker.create({
        connection,
        namespace: config.temporalNamespace,
        taskQueue,
        // A bundle carries the workflow interceptors already (bundled with WORKFLOW_INTERCEPTOR_MODULES).
        ...(bundle
          ? { workflowBundle: bundle, interceptors: { activity: workerMetrics.activity } }
          : {
              workflowsPath,
              interceptors: { activity: workerMetrics.activity, workflowModules: WORKFLOW_INTERCEPTOR_MODULES },
            }),
        activities,
        sinks: workerMetrics.sinks,
        plugins: tracing ? [tracing.plugin] : [],
      }),
    ),
  );
}
