/**
 * The SMS campaign process (docs/opt-in-families.md, "SMS Marketing"), imported by the API (to start it, pause,
 * resume and cancel it, and ask its counts) and by the workflow. Workflow id `sms-campaign-<id>`; the sms_campaign
 * row and its sms_campaign_recipient rows are the read model its activities write.
 */
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import { PROCESS_QUEUE } from '../../platform/temporal/queues.ts';

export const SMS_CAMPAIGN_WORKFLOW = 'smsCampaignWorkflow';
export const SMS_CAMPAIGN_QUEUE = PROCESS_QUEUE;
export const smsCampaignWorkflowId = (id: number): string => `sms-campaign-${id}`;

/** Quiet hours as minutes after local midnight in the business's time zone: no message leaves from start to end. */
export interface QuietHours {
  start: number;
  end: number;
}

/** Where the process stands: waiting for its send time, sending, held by quiet hours, paused, or ended. */
export type CampaignPhase = 'scheduled' | 'sending' | 'quiet_hours' | 'paused' | 'done' | 'cancelled';

/** The counts of the campaign as the query answers them (the database's once the process has ended). */
export interface CampaignCounts {
  total: number;
  sent: number;
  failed: number;
  skipped_opted_out: number;
  pending: number;
  state: CampaignPhase;
}

/** What the process carries, into a continue-as-new too. */
export interface SmsCampaignInput {
  campaignId: number;
  businessId: number;
  /** The audience's size, fixed when the campaign started. */
  total: number;
  /** IANA time zone of the business: quiet hours are its local time. */
  timezone: string;
  /** Messages a minute, already capped by SMS_CAMPAIGN_MAX_PER_MINUTE. */
  perMinute: number;
  quietHours: QuietHours;
  /** ISO 8601: nothing is sent before. Null: at once. */
  sendAt: string | null;
  /** SMS_CAMPAIGN_TIMER_SCALE: the tests' waits for the send time and the end of quiet hours, shortened. */
  timerScale: number;
  /** Batches before a continue-as-new: 500 when absent (the workflow tests make it small). */
  batchesPerRun?: number;
  /** Carried by a continue-as-new. */
  carried?: {
    /** The last number (E.164) handled: the next batch starts after it. */
    after: string;
    paused: boolean;
    /** The end (epoch ms) of the quiet period already waited out, so that a scaled wait counts as the whole. */
    waitedOut: number | null;
    counts: Omit<CampaignCounts, 'state' | 'pending'>;
  };
}

/** What one batch did, and the campaign's counts in the database after it. */
export interface BatchResult {
  /** How many recipients the batch handled (sent, failed or skipped); 0 when none was left. */
  handled: number;
  /** The last number handled, or the cursor given when none. */
  after: string;
  counts: Omit<CampaignCounts, 'state' | 'pending'>;
}

export const countsQuery = defineQuery<CampaignCounts>('counts');
/** Stops sending after the batch in flight; answers the counts once nothing more is in flight. */
export const pauseUpdate = defineUpdate<CampaignCounts, []>('pause');
export const resumeUpdate = defineUpdate<CampaignCounts, []>('resume');
/** Ends the campaign after the batch in flight: nothing more is sent. Answers the final counts. */
export const cancelUpdate = defineUpdate<CampaignCounts, []>('cancel');

/** Failure type of a pause, resume or cancel of a campaign that has ended (or is ending). */
export const CAMPAIGN_ENDED = 'CampaignEnded';

/** The campaign's activities, as they cross into history (activities.ts implements them). */
export type SmsCampaignActivities = {
  /**
   * Sends to the next `limit` recipients still pending after `after` (in number order): each is checked against the
   * business's opt-outs just before its send, and sent under the idempotency key `sms-campaign:<id>:<E.164>`, so a
   * batch retried after a killed worker sends none twice. Each recipient's outcome and the campaign's counters are
   * written in one transaction.
   */
  sendCampaignBatch(input: { campaignId: number; after: string; limit: number }): Promise<BatchResult>;
  /** Writes the campaign's state (running, paused, done or cancelled) to its row. */
  setCampaignState(input: { campaignId: number; state: 'running' | 'paused' | 'done' | 'cancelled' }): Promise<void>;
};
