/**
 * The end-of-day schedule of a business (docs/labels.md, "Schedule"): the Temporal schedule `label-eod-<business id>`
 * that starts `labelEndOfDay` at a time of day on chosen weekdays, in the business's timezone. The schedule is made,
 * changed or removed first (by its id, so a repeated call changes nothing more), then `label_settings` is stored.
 */
import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type Client,
  type DayOfWeek,
  type ScheduleOptionsAction,
  type ScheduleSpec,
} from '@temporalio/client';
import { z } from 'zod';
import { errors, type FieldError } from '../../../platform/errors.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { eachOnce } from '../../../platform/catalog/schemas.ts';
import { PROCESS_QUEUE } from '../../../platform/temporal/queues.ts';
import { LABEL_END_OF_DAY_WORKFLOW, labelEndOfDayId, type LabelEndOfDayInput } from '../contract.ts';
import { endOfDayBusiness, endOfDaySettings, storeEndOfDaySettings, type EndOfDaySettings } from '../repo/manifests.ts';

const TAG = 'Labels';

/** ISO weekday (1 Monday .. 7 Sunday) to Temporal's day names. */
const DAYS: Record<number, DayOfWeek> = {
  1: 'MONDAY',
  2: 'TUESDAY',
  3: 'WEDNESDAY',
  4: 'THURSDAY',
  5: 'FRIDAY',
  6: 'SATURDAY',
  7: 'SUNDAY',
};

/** When the schedule runs: one calendar entry at the time on the weekdays, in the business's timezone. */
export function endOfDaySpec(time: string, weekdays: readonly number[], timezone: string): ScheduleSpec {
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return { calendars: [{ hour, minute, dayOfWeek: weekdays.map((d) => DAYS[d]!) }], timezone };
}

/**
 * Makes the business's end-of-day schedule, or gives the existing one this spec: overlapping runs are skipped (the
 * run holds the business's end-of-day lock anyway) and a run missed by less than an hour is still taken.
 */
async function upsertSchedule(temporal: Client, businessId: number, spec: ScheduleSpec): Promise<void> {
  const id = labelEndOfDayId(businessId);
  const input: LabelEndOfDayInput = { businessId };
  const action: ScheduleOptionsAction = {
    type: 'startWorkflow',
    workflowType: LABEL_END_OF_DAY_WORKFLOW,
    workflowId: id,
    taskQueue: PROCESS_QUEUE,
    args: [input],
  };
  const policies = { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 hour' } as const;
  try {
    await temporal.schedule.create({
      scheduleId: id,
      spec,
      action,
      policies,
      memo: { purpose: `The end of day of business ${businessId}: its open labels on manifests.` },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await temporal.schedule.getHandle(id).update((prev) => ({
      ...prev,
      spec,
      action: { ...prev.action, ...action } as typeof prev.action,
      policies: { ...prev.policies, ...policies },
      state: { ...prev.state, paused: false },
    }));
  }
}

async function removeSchedule(temporal: Client, businessId: number): Promise<void> {
  try {
    await temporal.schedule.getHandle(labelEndOfDayId(businessId)).delete();
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
}

/** When the schedule runs next; null when it is off (or gone). */
async function nextRunOf(temporal: Client, businessId: number, enabled: boolean): Promise<string | null> {
  if (!enabled) return null;
  try {
    const d = await temporal.schedule.getHandle(labelEndOfDayId(businessId)).describe();
    return d.info.nextActionTimes[0]?.toISOString() ?? null;
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
    return null;
  }
}

const time = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/)
  .meta({ description: 'HH:MM, 24-hour, in the business’s timezone' });
const weekdays = eachOnce(z.array(z.number().int().min(1).max(7)).min(1).max(7), 'labels.duplicate_weekday').meta({
  description: 'ISO weekdays: 1 Monday to 7 Sunday',
});

export const ScheduleAnswer = z.object({
  result: z.literal(true),
  enabled: z.boolean(),
  time: time.nullable().describe('HH:MM in the business’s timezone; null when never set'),
  weekdays: z.array(z.number().int()).describe('ISO weekdays, 1 Monday to 7 Sunday, ascending'),
  timezone: z.string().describe('The business’s timezone, which the time is read in'),
  schedule_id: z.string().describe('The Temporal schedule, label-eod-<business id>'),
  next_run_at: z.string().nullable().describe('When the end of day runs next; null when it is off'),
});
export type ScheduleAnswer = z.input<typeof ScheduleAnswer>;

async function answer(
  temporal: Client,
  businessId: number,
  timezone: string,
  s: EndOfDaySettings,
): Promise<ScheduleAnswer> {
  return {
    result: true as const,
    enabled: s.enabled,
    time: s.time,
    weekdays: s.weekdays,
    timezone,
    schedule_id: labelEndOfDayId(businessId),
    next_run_at: await nextRunOf(temporal, businessId, s.enabled),
  };
}

const OFF: EndOfDaySettings = { enabled: false, time: null, weekdays: [] };

export const labelEndOfDaySchedule = defineOperation({
  name: 'labelservice_end_of_day_schedule',
  summary: 'When the end of day runs by itself: a time on chosen weekdays, in the business’s timezone.',
  description:
    'Answers the business’s end-of-day schedule: whether it is on, the time (HH:MM) and the ISO weekdays it runs on in the business’s timezone, and when it runs next. A business that never set it answers `enabled: false`. Each run does what labelservice_end_of_day does, for every carrier, and its manifests are read with labelservice_manifest.',
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'GET', path: '/v1/labelservice/endofday/schedule' },
  graphql: { name: 'labelEndOfDaySchedule', kind: 'query' },
  input: z.object({}).strict(),
  output: ScheduleAnswer,
  async handler(_input, ctx) {
    const businessId = ctx.caller.businessId;
    const [business, stored] = await Promise.all([
      endOfDayBusiness(ctx.em, businessId),
      endOfDaySettings(ctx.em, businessId),
    ]);
    return answer(ctx.temporal, businessId, business.timezone, stored ?? OFF);
  },
});

export const labelEndOfDayScheduleSet = defineOperation({
  name: 'labelservice_end_of_day_schedule_set',
  summary: 'Switch the scheduled end of day on or off, and set when it runs.',
  description:
    'With `enabled: true` the end of day runs by itself at `time` (HH:MM) on each of `weekdays` (ISO: 1 Monday to 7 Sunday), in the business’s timezone as it is now (set the schedule again after changing the timezone): every open label of the business goes on a manifest, as labelservice_end_of_day does for every carrier. Runs never overlap, and a run missed by less than an hour (the service was down) is still made. `time` and `weekdays` may be left out to keep those stored; switching on without them stored is VALIDATION_FAILED on each. With `enabled: false` it runs no more (the time and weekdays are kept). Setting the same schedule again changes nothing.',
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'PUT', path: '/v1/labelservice/endofday/schedule' },
  graphql: { name: 'labelEndOfDayScheduleSet', kind: 'mutation' },
  input: z
    .object({
      enabled: z.boolean().describe('Whether the end of day runs by itself'),
      time: time.optional().describe('HH:MM, 24-hour, in the business’s timezone; the stored time when absent'),
      weekdays: weekdays.optional().describe('ISO weekdays, 1 Monday to 7 Sunday; the stored ones when absent'),
    })
    .strict(),
  output: ScheduleAnswer,
  async handler(input, ctx) {
    const businessId = ctx.caller.businessId;
    const [business, stored] = await Promise.all([
      endOfDayBusiness(ctx.em, businessId),
      endOfDaySettings(ctx.em, businessId),
    ]);
    const next: EndOfDaySettings = {
      enabled: input.enabled,
      time: input.time ?? stored?.time ?? null,
      weekdays: [...(input.weekdays ?? stored?.weekdays ?? [])].sort((a, b) => a - b),
    };
    if (next.enabled) {
      const missing: FieldError[] = [
        ...(next.time === null ? [{ field: 'time', key: 'labels.schedule_needs_time' as const }] : []),
        ...(next.weekdays.length === 0 ? [{ field: 'weekdays', key: 'labels.schedule_needs_weekdays' as const }] : []),
      ];
      if (missing.length > 0) throw errors.validation(missing);
      await upsertSchedule(ctx.temporal, businessId, endOfDaySpec(next.time!, next.weekdays, business.timezone));
    } else {
      await removeSchedule(ctx.temporal, businessId);
    }
    await storeEndOfDaySettings(ctx.em, businessId, next);
    return answer(ctx.temporal, businessId, business.timezone, next);
  },
});
