import path from 'node:path';
import { DefaultLogger, NativeConnection, Runtime, Worker, type LogLevel } from '@temporalio/worker';
import type { Config } from '../config.ts';
import type { Orm } from '../db/orm.ts';
import type { Logger } from '../logger.ts';
import { createDeviceOrderActivities } from '../../modules/device-orders/activities.ts';
import { createWebhookActivities } from '../../modules/webhooks/activities.ts';

export const workflowsPath = path.resolve(import.meta.dirname, '../../modules/workflows.ts');

let runtimeInstalled = false;

/** Routes the Temporal SDK's own logs into the service's JSON logger (once per process). */
function installRuntime(log: Logger): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const sdkLog = log.child({ component: 'temporal-sdk' });
  Runtime.install({
    logger: new DefaultLogger('WARN', (entry) => {
      const level = entry.level.toLowerCase() as Lowercase<LogLevel>;
      const fn = level === 'trace' ? 'trace' : level === 'debug' ? 'debug' : level === 'info' ? 'info' : level === 'warn' ? 'warn' : 'error';
      sdkLog[fn](entry.meta ?? {}, entry.message);
    }),
  });
}

export async function createWorker(config: Config, address: string, orm: Orm, log: Logger): Promise<Worker> {
  installRuntime(log);
  const connection = await NativeConnection.connect({ address });
  return Worker.create({
    connection,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
    ...(config.workflowBundlePath ? { workflowBundle: { codePath: config.workflowBundlePath } } : { workflowsPath }),
    activities: { ...createDeviceOrderActivities({ orm }), ...createWebhookActivities({ orm, publicBaseUrl: config.publicBaseUrl, allowPrivateTargets: config.webhookAllowPrivateTargets }) },
  });
}
