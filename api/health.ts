import type { Client } from '@temporalio/client';
import type { Orm } from '../src/platform/db/orm.ts';

type Check = 'ok' | 'down';

/** Up only when PostgreSQL and Temporal answer and a worker has polled every task queue within the last minute. */
export async function healthChecks(
  orm: Orm,
  temporal: Client,
  namespace: string,
  taskQueues: readonly string[],
): Promise<Record<'postgres' | 'temporal' | 'worker', Check>> {
  const within = <T>(p: Promise<T>) =>
    Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000))]);
  const postgres = within(orm.em.fork().execute('select 1')).then(
    (): Check => 'ok',
    (): Check => 'down',
  );
  const queues = Promise.all(
    taskQueues.map((name) =>
      within(
        temporal.workflowService.describeTaskQueue({
          namespace,
          taskQueue: { name },
          taskQueueType: 1 /* WORKFLOW */,
        }),
      ),
    ),
  );
  const [pg, described] = await Promise.all([
    postgres,
    queues.then(
      (r) => r,
      () => null,
    ),
  ]);
  const recent = Date.now() - 60_000;
  const polled = (tq: NonNullable<typeof described>[number]) =>
    tq.pollers?.some((p) => p.lastAccessTime?.seconds != null && Number(p.lastAccessTime.seconds) * 1000 > recent) ??
    false;
  const polling = described !== null && described.every(polled);
  return { postgres: pg, temporal: described ? 'ok' : 'down', worker: polling ? 'ok' : 'down' };
}
