import {
  ScheduleAlreadyRunning,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleOptionsAction,
  type ScheduleSpec,
} from '@temporalio/client';
import type { Logger } from '../logger.ts';

/** A recurring job a module declares: one workflow started on a calendar, never two runs at once. */
export interface ScheduleDefinition {
  id: string;
  workflowType: string;
  args: unknown[];
  spec: ScheduleSpec;
  /** Shown in the Temporal UI's memo. */
  purpose: string;
}

/**
 * The service's recurring jobs, as Temporal Schedules so that operators see, pause and trigger them in the UI.
 * Created when a worker starts; an existing schedule gets the current action (its arguments follow the config).
 */
export async function ensureSchedules(
  client: Client,
  taskQueue: string,
  schedules: readonly ScheduleDefinition[],
  log: Logger,
): Promise<void> {
  for (const s of schedules) {
    const action: ScheduleOptionsAction = {
      type: 'startWorkflow',
      workflowType: s.workflowType,
      workflowId: s.id,
      taskQueue,
      args: s.args,
    };
    try {
      await client.schedule.create({
        scheduleId: s.id,
        spec: s.spec,
        action,
        policies: { overlap: ScheduleOverlapPolicy.SKIP },
        memo: { purpose: s.purpose },
      });
      log.info({ scheduleId: s.id }, 'schedule created');
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      await client.schedule
        .getHandle(s.id)
        .update((prev) => ({ ...prev, action: { ...prev.action, ...action } as typeof prev.action }));
    }
  }
}
