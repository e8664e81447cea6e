import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client, type ScheduleOptionsAction } from '@temporalio/client';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { WEBHOOK_LOG_PRUNE_SCHEDULE, WEBHOOK_LOG_PRUNE_WORKFLOW } from '../../modules/webhooks/contract.ts';

/**
 * The service's recurring jobs, as Temporal Schedules so that operators see, pause and trigger them in the UI.
 * Created when a worker starts; an existing schedule gets the current action (its arguments follow the config).
 */
export async function ensureSchedules(client: Client, config: Config, log: Logger): Promise<void> {
  const action: ScheduleOptionsAction = {
    type: 'startWorkflow',
    workflowType: WEBHOOK_LOG_PRUNE_WORKFLOW,
    workflowId: WEBHOOK_LOG_PRUNE_SCHEDULE,
    taskQueue: config.taskQueue,
    args: [config.webhookLogRetentionDays],
  };
  try {
    await client.schedule.create({
      scheduleId: WEBHOOK_LOG_PRUNE_SCHEDULE,
      spec: { calendars: [{ hour: 3, minute: 30 }] },
      action,
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
      memo: { purpose: 'Deletes webhook deliveries, attempts and published outbox events older than the retention.' },
    });
    log.info({ scheduleId: WEBHOOK_LOG_PRUNE_SCHEDULE }, 'schedule created');
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await client.schedule.getHandle(WEBHOOK_LOG_PRUNE_SCHEDULE).update((prev) => ({ ...prev, action: { ...prev.action, ...action } as typeof prev.action }));
  }
}
