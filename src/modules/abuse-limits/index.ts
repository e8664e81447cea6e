/**
 * Abuse limits: the rate limits per client address and per credential and the sign-in slow-down are the
 * platform's (rateLimits.ts, db/attempts.ts), spent by the operation runner; this module keeps their tables
 * small. Defaults and reasons: docs/abuse-limits.md.
 */
import { defineModule } from '../../platform/module.ts';
import { createAbuseLimitActivities } from './activities.ts';
import { LIMIT_ROWS_PRUNE_SCHEDULE, LIMIT_ROWS_PRUNE_WORKFLOW, LIMIT_ROWS_PRUNE_QUEUE } from './contract.ts';

export const abuseLimits = defineModule({
  name: 'abuse-limits',
  taskQueue: LIMIT_ROWS_PRUNE_QUEUE,
  activities: ({ orm }) => createAbuseLimitActivities({ orm }),
  workflows: [LIMIT_ROWS_PRUNE_WORKFLOW],
  schedules: () => [
    {
      id: LIMIT_ROWS_PRUNE_SCHEDULE,
      workflowType: LIMIT_ROWS_PRUNE_WORKFLOW,
      args: [],
      spec: { calendars: [{ hour: '*', minute: 17 }] },
      purpose: 'Deletes rate-limit windows and wrong-code counts that nobody has touched for a day.',
    },
  ],
});
