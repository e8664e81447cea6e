import path from 'node:path';
import { DefaultLogger, NativeConnection, Runtime, Worker, type LogLevel } from '@temporalio/worker';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import type { ModuleDescriptor, WorkerDeps } from '../module.ts';
import { WORKFLOW_INTERCEPTOR_MODULES, workerMetrics } from '../telemetry/temporalMetrics.ts';
import type { Tracing } from '../telemetry/tracing.ts';

/** The bundle entry: every module's workflows (src/modules/workflows.ts). */
export const workflowsPath = path.resolve(import.meta.dirname, '../../modules/workflows.ts');

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

/** One worker for every module: its activities are the union of the modules' activity factories. It shares the connection of this process's client. */
export async function createWorker(
  config: Config,
  connection: NativeConnection,
  modules: readonly ModuleDescriptor[],
  deps: WorkerDeps,
  log: Logger,
  tracing: Tracing | null = null,
): Promise<Worker> {
  // A prebuilt bundle holds the metrics interceptor but not the tracing one: with tracing on, the worker bundles its own.
  const prebuilt = config.workflowBundlePath && !tracing;
  return Worker.create({
    connection,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
    ...(prebuilt ? { workflowBundle: { codePath: config.workflowBundlePath! } } : { workflowsPath }),
    activities: Object.assign({}, ...modules.map((m) => m.activities?.(deps) ?? {})),
    interceptors: { activity: workerMetrics.activity, workflowModules: WORKFLOW_INTERCEPTOR_MODULES },
    sinks: workerMetrics.sinks,
    plugins: tracing ? [tracing.plugin] : [],
  });
}
