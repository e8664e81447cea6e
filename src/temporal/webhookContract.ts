import type { DeliverySender } from '../webhooks/schedule.ts';

export const WEBHOOK_DELIVERY_WORKFLOW = 'webhookDeliveryWorkflow';
/** Round 0 is the original schedule; each replay or resend is a new round with its own workflow. */
export const webhookDeliveryWorkflowId = (deliveryId: number, round = 0) => `webhook-delivery-${deliveryId}${round ? `-r${round}` : ''}`;

export interface WebhookDeliveryInput {
  deliveryId: number;
  sender: DeliverySender;
  /** Attempts of this round already made when the workflow starts (the relay's first attempt: 1; a replay: 0). */
  attemptsMade: number;
  /** Attempts made in earlier rounds; absent for round 0. */
  roundBase?: number;
  /** Multiplies the schedule's waits; 1 in production, small in tests. */
  scale: number;
}

export type DeliveryState = 'pending' | 'retrying' | 'delivered' | 'dead';
export interface AttemptResult { state: DeliveryState; attempts: number }

export const WEBHOOK_LOG_PRUNE_WORKFLOW = 'webhookLogPruneWorkflow';
export const WEBHOOK_LOG_PRUNE_SCHEDULE = 'webhook-log-prune';
export interface PruneResult { deliveries: number; attempts: number; events: number }
