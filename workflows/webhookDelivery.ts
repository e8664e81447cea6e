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
    if (made > 0) await sleep(delayBeforeAttemptMs(input.sender, made + 1, input.scale));
    const result = await attemptWebhookDelivery(input.deliveryId);
    if (result.state === 'delivered' || result.state === 'dead') return result.state;
    made = Math.max(made + 1, result.attempts - (input.roundBase ?? 0));
  }
  await markWebhookDeliveryDead(input.deliveryId);
  return 'dead';
}
