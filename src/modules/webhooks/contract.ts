/**
 * The webhook processes: retry batches (imported by the relay and the sweep to start them, and by the workflow)
 * and the delivery log's daily prune.
 */
import type { EventSender } from '../../platform/events.ts';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { defineQuery } from '@temporalio/workflow';

export const WEBHOOK_RETRIES_WORKFLOW = 'webhookRetriesWorkflow';
/** Webhook retries and the delivery log's pruning run on a queue of their own, so a worker deployment can serve them apart. */
export const WEBHOOK_QUEUE = 'tms-webhooks';
/** Deliveries one retry workflow drives at most: one Temporal workflow per batch of failures, not per delivery. */
export const RETRY_BATCH = 100;

/**
 * `webhook-retries-<first delivery id>-<digest>`: the digest (12 hex characters of a SHA-256 of
 * `retryMembersKey`) names the deliveries and their rounds, so a start repeated after an unclear failure finds
 * the workflow already there instead of starting a twin. The digest is made by the caller: workflow code cannot
 * hash with node:crypto.
 */
export const webhookRetriesWorkflowId = (firstDeliveryId: number | string, membersDigest: string): string =>
  `webhook-retries-${firstDeliveryId}-${membersDigest}`;
export const retryMembersKey = (members: readonly { id: number | string; round: number }[]): string =>
  members.map((m) => `${m.id}.${m.round}`).join(',');

/** The deliveries a retry workflow drives: `WebhookDeliveryIds = '123'` finds a delivery's workflow in the Temporal UI. */
export const WEBHOOK_DELIVERY_IDS = defineSearchAttributeKey('WebhookDeliveryIds', SearchAttributeType.KEYWORD_LIST);

/** Each delivery's state and next attempt, as the workflow drives it. */
export const deliveriesQuery = defineQuery<RetryProgress[]>('deliveries');

/** One delivery's current round, as a retry workflow drives it. */
export interface RetryEntry {
  deliveryId: number;
  sender: EventSender;
  /** Attempts of this round already made when the workflow starts (the relay's first attempt: 1; a replay: 0). */
  attemptsMade: number;
  /** Attempts made in earlier rounds (0 for round 0). */
  roundBase: number;
  /** Epoch ms when the next attempt is due: the wait counts from the attempt before it, not from the workflow's start. */
  dueAt: number;
}

export interface WebhookRetriesInput {
  deliveries: RetryEntry[];
  /** Multiplies the schedule's waits; 1 in production, small in tests. */
  scale: number;
  /** Deliveries finished before the workflow continued as new, for its result. */
  carried?: RetriesSummary;
}

/** What the workflow's `deliveries` query answers for each delivery it drives. */
export interface RetryProgress {
  deliveryId: number;
  state: DeliveryState;
  attemptsMade: number;
  /** ISO time of the next attempt while one is planned. */
  nextAttemptAt: string | null;
}

export type DeliveryState = 'pending' | 'retrying' | 'delivered' | 'dead';
/**
 * One delivery's attempt, as the batch activity reports it. Not made and not counted: `leased`, another attempt
 * (one a crash left behind) still holds the delivery's lease; `busy`, its receiver's origin had no free slot.
 */
export interface AttemptResult {
  state: DeliveryState | 'leased' | 'busy';
  attempts: number;
  attemptedAt: number | null;
}
export interface RetriesSummary {
  delivered: number;
  dead: number;
}

export const WEBHOOK_LOG_PRUNE_WORKFLOW = 'webhookLogPruneWorkflow';
export const WEBHOOK_LOG_PRUNE_SCHEDULE = 'webhook-log-prune';
export interface PruneResult {
  deliveries: number;
  attempts: number;
  events: number;
}

/** The activities of the retry and prune workflows, as they cross into history (activities.ts implements them). */
export type WebhookActivities = {
  /**
   * One signed attempt of each delivery, each sent no earlier than its `notBefore` (epoch ms by delivery id); a
   * receiver's failure is a result, not an activity error (only infrastructure errors retry).
   */
  attemptWebhookDeliveries(
    deliveryIds: number[],
    notBefore?: Record<number, number>,
  ): Promise<Record<number, AttemptResult>>;
  markWebhookDeliveriesDead(deliveryIds: number[]): Promise<void>;
  pruneWebhookLog(retentionDays: number): Promise<PruneResult>;
};
