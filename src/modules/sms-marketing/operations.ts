/**
 * SMS Marketing's operations (docs/opt-in-families.md, "SMS Marketing"): campaigns to the phone numbers of the
 * business's order recipients, and the opt-outs kept for good. Each calls the family's guard first (403 for an
 * account that is not the business's staff, 409 while the family is off, revoked or not migrated), then works on
 * the caller's business only; a campaign of another business is NOT_FOUND. State changes run in one transaction each.
 */
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { z } from 'zod';
import {
  offsetOf,
  pageExample,
  pageOf,
  pageOutput,
  pageParams,
  pathId,
  timeParam,
} from '../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../platform/catalog/types.ts';
import { fail as failPlatform } from '../../platform/errorCodes.ts';
import { errors } from '../../platform/errors.ts';
import { BUSINESS_ID } from '../../platform/temporal/searchKeys.ts';
import { PROCESS_GONE, refusedAs } from '../../platform/temporal/refusals.ts';
import { TypedSearchAttributes } from '@temporalio/common';
import { FAMILY_FAILURES, requireFamily } from '../platform-admin/index.ts';
import { toE164 } from '../sms/index.ts';
import {
  CAMPAIGN_ENDED,
  cancelUpdate,
  countsQuery,
  pauseUpdate,
  resumeUpdate,
  SMS_CAMPAIGN_QUEUE,
  SMS_CAMPAIGN_WORKFLOW,
  smsCampaignWorkflowId,
  type CampaignCounts,
  type SmsCampaignInput,
} from './contract.ts';
import {
  DEFAULT_QUIET_HOURS,
  MAX_TEXT_LENGTH,
  MIN_QUIET_MINUTES,
  minutesOf,
  OPT_OUT_INSTRUCTION,
  quietLength,
} from './domain.ts';
import { fail } from './errorCodes.ts';
import * as repo from './repo.ts';
import { CampaignView, campaignView, OptOutView, optOutView } from './views.ts';
import type { smsCampaignWorkflow } from './workflows.ts';

const TAG = 'SMS Marketing';
/** "Non-business accounts get 403": the business's staff only (the guard holds it too). */
const STAFF = ['client_admin', 'employee'] as const;
const WHO =
  "For the business's client admins and employees; every other account gets FORBIDDEN. While the platform admin has SMS Marketing off for the caller's business, has revoked it, or has not marked it migrated, every call answers 409 FEATURE_DISABLED with `feature_enabled: false`, before anything else is checked.";
const NOT_FOUND = { NOT_FOUND: 'No such campaign in the business' } as const;
const STATE = { INVALID_TRANSITION: "The campaign's state does not allow this (its message says which)" } as const;

const answer = z.object({ result: z.literal(true), campaign: CampaignView });
type Answer = z.input<typeof answer>;

const clock = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/)
  .meta({ description: 'HH:MM, 24-hour' });

const EXAMPLE_CAMPAIGN = {
  id: 14,
  name: 'December opening hours',
  text: 'Demo Parcels: our depot is open until 20:00 every day in December.',
  message: `Demo Parcels: our depot is open until 20:00 every day in December.\n\n${OPT_OUT_INSTRUCTION}`,
  state: 'running' as const,
  phase: 'sending' as const,
  send_at: null,
  per_minute: 60,
  quiet_hours: { start: '21:00', end: '08:00' },
  counts: { total: 1250, sent: 480, failed: 2, skipped_opted_out: 17, pending: 751 },
  created_at: '2026-11-30T08:40:00.000Z',
  started_at: '2026-11-30T09:00:00.000Z',
  ended_at: null,
};

async function campaignOr404(ctx: BusinessContext, id: number) {
  const row = await repo.campaignOf(ctx.em, ctx.caller.businessId, id);
  if (!row) throw errors.notFound();
  return row;
}

const handleOf = (ctx: BusinessContext, id: number) =>
  ctx.temporal.workflow.getHandle<typeof smsCampaignWorkflow>(smsCampaignWorkflowId(id));

/** How long a read waits for the process's answer before it answers the row's counts (no worker running). */
const QUERY_WAIT_MS = 3_000;

/** The process's counts, or null once it has ended or when no worker answers in time (the row's counts then). */
async function liveCounts(ctx: BusinessContext, row: repo.CampaignRow): Promise<CampaignCounts | null> {
  if (row.state !== 'running' && row.state !== 'paused') return null;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), QUERY_WAIT_MS);
  });
  try {
    return await Promise.race([
      handleOf(ctx, row.id)
        .query(countsQuery)
        .catch(() => null),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function present(ctx: BusinessContext, id: number): Promise<Answer> {
  const row = await campaignOr404(ctx, id);
  return { result: true as const, campaign: campaignView(row, await liveCounts(ctx, row)) };
}

/** The refusal of a step the campaign's state does not allow now. */
function refuseState(state: repo.CampaignState) {
  if (state === 'draft') return failPlatform('INVALID_TRANSITION', 'sms_marketing.not_started');
  if (state === 'done' || state === 'cancelled') return failPlatform('INVALID_TRANSITION', 'sms_marketing.ended');
  return failPlatform('INVALID_TRANSITION', 'sms_marketing.already_started');
}

export const campaignCreate = defineOperation({
  name: 'sms_campaign_create',
  summary: "Write a campaign to the business's customers' phone numbers; nothing is sent until it is started.",
  description: `A draft: \`name\`, \`text\` (at most ${MAX_TEXT_LENGTH} characters: every message ends with a blank line and "${OPT_OUT_INSTRUCTION}", and the whole fits four SMS segments), when to send (\`send_at\`, at once when absent), how fast (\`per_minute\`, 60 by default, capped by the service's SMS_CAMPAIGN_MAX_PER_MINUTE) and the quiet hours in the business's time zone (21:00 to 08:00 by default; they may be moved but must last at least ${MIN_QUIET_MINUTES / 60} hours). Start it with sms_campaign_start. Refuses a send time in the past or over a year ahead, and shorter quiet hours (VALIDATION_FAILED). ${WHO}`,
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'POST', path: '/v1/sms-marketing/campaigns', status: 201 },
  graphql: { name: 'smsCampaignCreate', kind: 'mutation' },
  failures: FAMILY_FAILURES,
  input: z
    .object({
      name: z
        .string()
        .trim()
        .min(1)
        .max(100)
        .meta({ examples: ['December opening hours'] }),
      text: z
        .string()
        .trim()
        .min(1)
        .max(MAX_TEXT_LENGTH)
        .meta({ examples: [EXAMPLE_CAMPAIGN.text] }),
      send_at: timeParam().optional().describe('Nothing is sent before; at once when absent'),
      per_minute: z.number().int().min(1).max(6000).default(60).describe('Messages a minute'),
      quiet_hours: z
        .object({ start: clock, end: clock })
        .strict()
        .optional()
        .describe("No message leaves from start to end, in the business's time zone; 21:00 to 08:00 by default"),
    })
    .strict(),
  output: answer,
  examples: {
    input: { name: EXAMPLE_CAMPAIGN.name, text: EXAMPLE_CAMPAIGN.text, per_minute: 60 },
    output: {
      result: true,
      campaign: {
        ...EXAMPLE_CAMPAIGN,
        state: 'draft',
        phase: null,
        started_at: null,
        counts: { total: 0, sent: 0, failed: 0, skipped_opted_out: 0, pending: 0 },
      },
    },
  },
  async handler(input, ctx) {
    await requireFamily(ctx, 'sms_marketing');
    const quiet = input.quiet_hours
      ? { start: minutesOf(input.quiet_hours.start), end: minutesOf(input.quiet_hours.end) }
      : DEFAULT_QUIET_HOURS;
    const problems: { field: string; key: 'sms_marketing.quiet_hours_too_short' | 'sms_marketing.send_at_range' }[] =
      [];
    if (quietLength(quiet) < MIN_QUIET_MINUTES)
      problems.push({ field: 'quiet_hours', key: 'sms_marketing.quiet_hours_too_short' });
    const sendAt = input.send_at ? new Date(input.send_at) : null;
    if (sendAt && (sendAt.getTime() <= Date.now() || sendAt.getTime() > Date.now() + 366 * 86_400_000))
      problems.push({ field: 'send_at', key: 'sms_marketing.send_at_range' });
    if (problems.length)
      throw errors.validation(problems.map((p) => ({ ...p, params: { hours: MIN_QUIET_MINUTES / 60 } })));
    const row = await repo.insertCampaign(ctx.em, {
      businessId: ctx.caller.businessId,
      name: input.name,
      body: input.text,
      sendAt,
      perMinute: Math.min(input.per_minute, ctx.config.smsCampaignMaxPerMinute),
      quietStart: quiet.start,
      quietEnd: quiet.end,
      createdBy: ctx.caller.id,
    });
    return { result: true as const, campaign: campaignView(row, null) };
  },
});

export const campaignList = defineOperation({
  name: 'sms_campaign_list',
  summary: "The business's campaigns, newest first, with their counts as the database holds them.",
  description: `50 a page by default (\`page\`, \`per_page\` up to 200) with the \`total\`. The counts of a running campaign here are those its process has written so far; sms_campaign_get asks the process itself. ${WHO}`,
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'GET', path: '/v1/sms-marketing/campaigns' },
  graphql: { name: 'smsCampaigns', kind: 'query' },
  failures: FAMILY_FAILURES,
  input: z.object(pageParams).strict(),
  output: pageOutput('campaigns', CampaignView),
  examples: pageExample('campaigns', [{ ...EXAMPLE_CAMPAIGN, phase: null }]),
  async handler(input, ctx) {
    await requireFamily(ctx, 'sms_marketing');
    const { total, rows } = await repo.listCampaigns(ctx.em, ctx.caller.businessId, input.per_page, offsetOf(input));
    return pageOf(
      input,
      'campaigns',
      total,
      rows.map((r) => campaignView(r, null)),
    );
  },
});

export const campaignGet = defineOperation({
  name: 'sms_campaign_get',
  summary: 'One campaign, with its counts: from its process while it runs, from the database once it has ended.',
  description: `\`counts\` says how many of the audience were sent, failed, skipped because the number opted out, and are pending; \`phase\` what the process is doing (waiting for \`send_at\`, sending, held by quiet hours, paused). ${WHO}`,
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'GET', path: '/v1/sms-marketing/campaigns/{id}' },
  graphql: { name: 'smsCampaign', kind: 'query' },
  failures: { ...FAMILY_FAILURES, ...NOT_FOUND },
  input: z.object({ id: pathId }).strict(),
  output: answer,
  examples: { input: { id: 14 }, output: { result: true, campaign: EXAMPLE_CAMPAIGN } },
  async handler(input, ctx) {
    await requireFamily(ctx, 'sms_marketing');
    return present(ctx, input.id);
  },
});

/** The region to read a recipient's national number in: its address's country, when it is a country code. */
const regionOf = (country: string | null) => (country && /^[A-Z]{2}$/.test(country) ? country : 'ZZ');

/** The business's audience: its order recipients' numbers in E.164, each once, in order; unreadable ones left out. */
async function audience(ctx: BusinessContext): Promise<string[]> {
  const numbers = new Set<string>();
  for (const r of await repo.audienceOf(ctx.em, ctx.caller.businessId)) {
    let e164: string | null = null;
    try {
      e164 = toE164(r.phone, regionOf(r.country));
    } catch {
      e164 = null;
    }
    if (e164) numbers.add(e164);
  }
  return [...numbers].sort();
}

/** The business's time zone, UTC when it names none the runtime knows. */
function timezoneOr(tz: string): string {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: tz });
    return tz;
  } catch {
    return 'UTC';
  }
}

export const campaignStart = defineOperation({
  name: 'sms_campaign_start',
  summary: "Start a draft campaign: its audience is fixed now and its process sends at the campaign's rate.",
  description: `The audience is every distinct phone number of the business's order recipients, read in the country of the recipient's address and kept in E.164; numbers that are no valid phone number are left out. Each number gets the message once, ever (the SMS ledger keeps one message per campaign and number, even across a worker's crash); a number on the business's opt-out list when its turn comes is skipped. Nothing leaves before \`send_at\` nor during quiet hours. Refuses a campaign already started or cancelled (INVALID_TRANSITION), and answers SMS_PROVIDER_MISSING while the service has no SMS provider. ${WHO}`,
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'POST', path: '/v1/sms-marketing/campaigns/{id}/start' },
  graphql: { name: 'smsCampaignStart', kind: 'mutation' },
  failures: { ...FAMILY_FAILURES, ...NOT_FOUND, ...STATE, SMS_PROVIDER_MISSING: true },
  input: z.object({ id: pathId }).strict(),
  output: answer,
  examples: { input: { id: 14 }, output: { result: true, campaign: EXAMPLE_CAMPAIGN } },
  async handler(input, ctx) {
    await requireFamily(ctx, 'sms_marketing');
    const businessId = ctx.caller.businessId;
    const first = await campaignOr404(ctx, input.id);
    if (first.state !== 'draft') throw refuseState(first.state);
    if (!ctx.config.sms) throw fail('SMS_PROVIDER_MISSING', 'sms_marketing.no_provider');
    const phones = await audience(ctx);
    const timezone = timezoneOr(await repo.businessTimezone(ctx.em, businessId));
    // The row is locked before the process starts, so that its first batch waits for this commit (it reads the row
    // with a share lock) and finds the audience written; a start that fails rolls the transaction back.
    await ctx.em.transactional(async (tx) => {
      const row = await repo.campaignOf(tx, businessId, input.id, true);
      if (row?.state !== 'draft') throw refuseState(row?.state ?? 'done');
      await repo.startCampaign(tx, row.id, phones);
      const process: SmsCampaignInput = {
        campaignId: row.id,
        businessId,
        total: phones.length,
        timezone,
        perMinute: Math.min(row.per_minute, ctx.config.smsCampaignMaxPerMinute),
        quietHours: { start: row.quiet_start, end: row.quiet_end },
        sendAt: row.send_at ? new Date(row.send_at).toISOString() : null,
        timerScale: ctx.config.smsCampaignTimerScale,
      };
      const start = () =>
        ctx.temporal.workflow.start<typeof smsCampaignWorkflow>(SMS_CAMPAIGN_WORKFLOW, {
          workflowId: smsCampaignWorkflowId(row.id),
          taskQueue: SMS_CAMPAIGN_QUEUE,
          args: [process],
          typedSearchAttributes: new TypedSearchAttributes([{ key: BUSINESS_ID, value: businessId }]),
          // The draft row, locked, is what allows one start: a process already under this id while the row is still a
          // draft is the orphan of a start whose commit failed. It found no audience and sent nothing (its first
          // batch waits for this row), so it is ended and replaced rather than leaving the campaign unstartable.
          workflowIdConflictPolicy: 'FAIL',
          workflowIdReusePolicy: 'ALLOW_DUPLICATE',
        });
      await start().catch(async (err: unknown) => {
        if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
        await ctx.temporal.workflow
          .getHandle(smsCampaignWorkflowId(row.id))
          .terminate('the start that made this process did not commit');
        await start();
      });
    });
    return present(ctx, input.id);
  },
});

/** Sends a pause, resume or cancel to the campaign's process; answers the campaign as it then stands. */
async function control(
  ctx: BusinessContext,
  id: number,
  update: typeof pauseUpdate | typeof resumeUpdate | typeof cancelUpdate,
): Promise<Answer> {
  const row = await campaignOr404(ctx, id);
  if (row.state !== 'running' && row.state !== 'paused') throw refuseState(row.state);
  const ended = () => failPlatform('INVALID_TRANSITION', 'sms_marketing.ended');
  const counts = await refusedAs(handleOf(ctx, id).executeUpdate(update), {
    [CAMPAIGN_ENDED]: ended,
    [PROCESS_GONE]: ended,
  });
  const after = await campaignOr404(ctx, id);
  return { result: true as const, campaign: campaignView(after, counts) };
}

const CONTROL = { ...FAMILY_FAILURES, ...NOT_FOUND, ...STATE } as const;

export const campaignPause = defineOperation({
  name: 'sms_campaign_pause',
  summary: 'Pause a running campaign: the batch in flight finishes, and nothing more is sent until it is resumed.',
  description: `Answers once nothing is in flight, with the counts then. Pausing a paused campaign changes nothing. Refuses a draft and an ended campaign (INVALID_TRANSITION). ${WHO}`,
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'POST', path: '/v1/sms-marketing/campaigns/{id}/pause' },
  graphql: { name: 'smsCampaignPause', kind: 'mutation' },
  failures: CONTROL,
  input: z.object({ id: pathId }).strict(),
  output: answer,
  examples: {
    input: { id: 14 },
    output: { result: true, campaign: { ...EXAMPLE_CAMPAIGN, state: 'paused', phase: 'paused' } },
  },
  async handler(input, ctx) {
    await requireFamily(ctx, 'sms_marketing');
    return control(ctx, input.id, pauseUpdate);
  },
});

export const campaignResume = defineOperation({
  name: 'sms_campaign_resume',
  summary: 'Resume a paused campaign where it stopped; quiet hours still hold it.',
  description: `Resuming a campaign that is not paused changes nothing. Refuses a draft and an ended campaign (INVALID_TRANSITION). ${WHO}`,
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'POST', path: '/v1/sms-marketing/campaigns/{id}/resume' },
  graphql: { name: 'smsCampaignResume', kind: 'mutation' },
  failures: CONTROL,
  input: z.object({ id: pathId }).strict(),
  output: answer,
  examples: { input: { id: 14 }, output: { result: true, campaign: EXAMPLE_CAMPAIGN } },
  async handler(input, ctx) {
    await requireFamily(ctx, 'sms_marketing');
    return control(ctx, input.id, resumeUpdate);
  },
});

export const campaignCancel = defineOperation({
  name: 'sms_campaign_cancel',
  summary: 'Cancel a campaign for good: the batch in flight finishes, and the rest of the audience gets nothing.',
  description: `A draft is cancelled at once; a running or paused campaign answers once its process has ended, with its final counts (the numbers not reached stay \`pending\`). Refuses a campaign that has ended (INVALID_TRANSITION). ${WHO}`,
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'POST', path: '/v1/sms-marketing/campaigns/{id}/cancel' },
  graphql: { name: 'smsCampaignCancel', kind: 'mutation' },
  failures: CONTROL,
  input: z.object({ id: pathId }).strict(),
  output: answer,
  examples: {
    input: { id: 14 },
    output: {
      result: true,
      campaign: { ...EXAMPLE_CAMPAIGN, state: 'cancelled', phase: 'cancelled', ended_at: '2026-11-30T09:12:00.000Z' },
    },
  },
  async handler(input, ctx) {
    await requireFamily(ctx, 'sms_marketing');
    const row = await campaignOr404(ctx, input.id);
    if (row.state === 'draft') {
      const cancelled = await ctx.em.transactional(async (tx) => {
        const locked = await repo.campaignOf(tx, ctx.caller.businessId, input.id, true);
        if (locked?.state !== 'draft') return false;
        await repo.cancelDraft(tx, input.id);
        return true;
      });
      if (cancelled) return present(ctx, input.id);
    }
    return control(ctx, input.id, cancelUpdate);
  },
});

export const optOutRecord = defineOperation({
  name: 'sms_opt_out_record',
  summary: 'Record that a phone number wants no more campaign messages from the business; kept for good.',
  description: `For a STOP the customer sent another way (a call, an email, a reply the provider did not pass on). \`phone\` in E.164 (+420601123456), or written nationally with \`region\` (its ISO 3166 country code, such as CZ). Every campaign of the business, running ones included, skips the number from its next message on. An opt-out cannot be removed: no operation lifts one. Recording a number again answers the first record (\`created: false\`). A number that is no valid phone number is VALIDATION_FAILED. ${WHO}`,
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'POST', path: '/v1/sms-marketing/opt-outs' },
  graphql: { name: 'smsOptOutRecord', kind: 'mutation' },
  failures: FAMILY_FAILURES,
  input: z
    .object({
      phone: z
        .string()
        .trim()
        .min(3)
        .max(40)
        .meta({ examples: ['+420601123456'] }),
      region: z
        .string()
        .regex(/^[A-Za-z]{2}$/)
        .optional()
        .describe('The country to read a national number in (ISO 3166 alpha-2)'),
    })
    .strict(),
  output: z.object({ result: z.literal(true), created: z.boolean(), opt_out: OptOutView }),
  examples: {
    input: { phone: '+420601123456' },
    output: {
      result: true,
      created: true,
      opt_out: { phone: '+420601123456', source: 'staff', created_at: '2026-11-30T10:02:00.000Z' },
    },
  },
  async handler(input, ctx) {
    await requireFamily(ctx, 'sms_marketing');
    let phone: string | null = null;
    try {
      phone = toE164(input.phone, (input.region ?? 'ZZ').toUpperCase());
    } catch {
      phone = null;
    }
    if (!phone) throw errors.field('phone', 'sms_marketing.invalid_phone');
    const { row, created } = await repo.insertOptOut(ctx.em, {
      businessId: ctx.caller.businessId,
      phone,
      source: 'staff',
      recordedBy: ctx.caller.id,
    });
    return { result: true as const, created, opt_out: optOutView(row) };
  },
});

export const optOutList = defineOperation({
  name: 'sms_opt_out_list',
  summary: "The business's opted-out phone numbers, newest first.",
  description: `Every number no campaign of the business sends to, with where the opt-out came from (recorded by the staff, or a STOP reply) and when. 50 a page by default (\`page\`, \`per_page\` up to 200) with the \`total\`. ${WHO}`,
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'GET', path: '/v1/sms-marketing/opt-outs' },
  graphql: { name: 'smsOptOuts', kind: 'query' },
  failures: FAMILY_FAILURES,
  input: z.object(pageParams).strict(),
  output: pageOutput('opt_outs', OptOutView),
  async handler(input, ctx) {
    await requireFamily(ctx, 'sms_marketing');
    const { total, rows } = await repo.listOptOuts(ctx.em, ctx.caller.businessId, input.per_page, offsetOf(input));
    return pageOf(input, 'opt_outs', total, rows.map(optOutView));
  },
});

export const SMS_MARKETING_OPERATIONS = [
  campaignCreate,
  campaignList,
  campaignGet,
  campaignStart,
  campaignPause,
  campaignResume,
  campaignCancel,
  optOutRecord,
  optOutList,
];
