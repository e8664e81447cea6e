/** What SMS Marketing answers: a campaign with its counts, and an opt-out. Shapes as zod schemas. */
import { z } from 'zod';
import type { CampaignCounts, CampaignPhase } from './contract.ts';
import { hhmm, messageOf } from './domain.ts';
import type { CampaignRow, OptOutRow } from './repo.ts';

const iso = z.string().meta({ description: 'ISO 8601, UTC' });

export const CampaignView = z.object({
  id: z.number().int(),
  name: z.string(),
  text: z.string().meta({ description: "The campaign's own text" }),
  message: z
    .string()
    .meta({ description: 'What each recipient receives: the text, a blank line and the opt-out instruction' }),
  state: z
    .enum(['draft', 'running', 'paused', 'done', 'cancelled'])
    .meta({ description: 'draft until started; running or paused while its process lasts; then done or cancelled' }),
  phase: z.enum(['scheduled', 'sending', 'quiet_hours', 'paused', 'done', 'cancelled']).nullable().meta({
    description:
      "While it runs, what its process is doing: waiting for `send_at`, sending, held by quiet hours, paused; null for a draft, an ended campaign, or when its process did not answer within 3 s (the counts are then the database's)",
  }),
  send_at: iso.nullable(),
  per_minute: z.number().int().meta({ description: 'Messages a minute, at most SMS_CAMPAIGN_MAX_PER_MINUTE' }),
  quiet_hours: z
    .object({ start: z.string(), end: z.string() })
    .meta({ description: "HH:MM in the business's time zone: nothing is sent from start to end" }),
  counts: z.object({
    total: z.number().int().meta({ description: 'The audience, fixed when the campaign started' }),
    sent: z.number().int(),
    failed: z.number().int(),
    skipped_opted_out: z.number().int(),
    pending: z.number().int(),
  }),
  created_at: iso,
  started_at: iso.nullable(),
  ended_at: iso.nullable(),
});
export type CampaignView = z.infer<typeof CampaignView>;

const isoOf = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The campaign as its row says, with the counts and phase of its process when it answered. */
export function campaignView(row: CampaignRow, live: CampaignCounts | null): CampaignView {
  const counts = live ?? {
    total: row.total,
    sent: row.sent,
    failed: row.failed,
    skipped_opted_out: row.skipped_opted_out,
    pending: Math.max(row.total - row.sent - row.failed - row.skipped_opted_out, 0),
  };
  return {
    id: row.id,
    name: row.name,
    text: row.body,
    message: messageOf(row.body),
    state: row.state,
    phase: (live?.state ?? null) as CampaignPhase | null,
    send_at: isoOf(row.send_at),
    per_minute: row.per_minute,
    quiet_hours: { start: hhmm(row.quiet_start), end: hhmm(row.quiet_end) },
    counts: {
      total: counts.total,
      sent: counts.sent,
      failed: counts.failed,
      skipped_opted_out: counts.skipped_opted_out,
      pending: counts.pending,
    },
    created_at: isoOf(row.created_at)!,
    started_at: isoOf(row.started_at),
    ended_at: isoOf(row.ended_at),
  };
}

export const OptOutView = z.object({
  phone: z.string().meta({ description: 'E.164' }),
  source: z.enum(['staff', 'reply']).meta({ description: 'Recorded by the staff, or from a STOP reply' }),
  created_at: iso,
});
export type OptOutView = z.infer<typeof OptOutView>;

export const optOutView = (row: OptOutRow): OptOutView => ({
  phone: row.phone,
  source: row.source,
  created_at: isoOf(row.created_at)!,
});
