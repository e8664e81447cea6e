import { proxyActivities, sleep } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks.ts';
import type { DeliveryState, WebhookDeliveryInput } from '../src/temporal/webhookContract.ts';
import { delayBeforeAttemptMs, maxAttempts } from '../src/webhooks/schedule.ts';

const { attemptWebhookDelivery, markWebhookDeliveryDead } = proxyActivities<WebhookActivities>({
  // The POST itself times out after 3 s; the rest is database work.
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * The retry schedule of one webhook delivery, durable across worker and server restarts. Each attempt is
 * signed anew by the activity; the ids in the request never change. Ends delivered or dead-lettered.
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<DeliveryState> {
  const max = maxAttempts(input.sender);
  let made = input.attemptsMade;
  while (made < max) {
    if (made > 0) {
      const wait = delayBeforeAttemptMs(input.sender, made + 1, input.scale);
      // The relay's attempt happened before this workflow started: its wait has already begun.
      const elapsed = made === input.attemptsMade && input.lastAttemptAt !== undefined ? Date.now() - input.lastAttemptAt : 0;
      if (wait - elapsed > 0) await sleep(wait - elapsed);
    }
    const result = await attemptWebhookDelivery(input.deliveryId);
    if (result.state === 'delivered' || result.state === 'dead') return result.state;
    made = Math.max(made + 1, result.attempts - (input.roundBase ?? 0));
  }
  await markWebhookDeliveryDead(input.deliveryId);
  return 'dead';
}
