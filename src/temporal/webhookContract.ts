import type { DeliverySender } from '../webhooks/schedule.ts';

export const WEBHOOK_DELIVERY_WORKFLOW = 'webhookDeliveryWorkflow';
export const webhookDeliveryWorkflowId = (deliveryId: number) => `webhook-delivery-${deliveryId}`;

export interface WebhookDeliveryInput {
  deliveryId: number;
  sender: DeliverySender;
  /** Attempts already made when the workflow starts (the relay's first attempt, usually 1). */
  attemptsMade: number;
  /** Multiplies the schedule's waits; 1 in production, small in tests. */
  scale: number;
}

export type DeliveryState = 'pending' | 'retrying' | 'delivered' | 'dead';
export interface AttemptResult { state: DeliveryState; attempts: number }
