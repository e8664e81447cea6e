import type { Client } from '@temporalio/client';
import type { Orm } from '../src/platform/db/orm.ts';

type Check = 'ok' | 'down';

/** Up only when PostgreSQL and Temporal answer and a worker has polled the task queue within the last minute. */
export async function healthChecks(
  orm: Orm,
  temporal: Client,
  namespace: string,
  taskQueue: string,
): Promise<Record<'postgres' | 'temporal' | 'worker', Check>> {
  const within = <T>(p: Promise<T>) =>
    Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000))]);
  const postgres = within(orm.em.fork().execute('select 1')).then(
    (): Check => 'ok',
    (): Check => 'down',
  );
  const queue = within(
    temporal.workflowService.describeTaskQueue({
      namespace,
      taskQueue: { name: taskQueue },
      taskQueueType: 1 /* WORKFLOW */,
    }),
  );
  const [pg, tq] = await Promise.all([
    postgres,
    queue.then(
      (r) => r,
      () => null,
    ),
  ]);
  const recent = Date.now() - 60_000;
  const polling =
    tq?.pollers?.some((p) => p.lastAccessTime?.seconds != null && Number(p.lastAccessTime.seconds) * 1000 > recent) ??
    false;
  return { postgres: pg, temporal: tq ? 'ok' : 'down', worker: polling ? 'ok' : 'down' };
}
