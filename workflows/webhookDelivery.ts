import { proxyLocalActivities, sleep } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks.ts';
import type { DeliveryState, WebhookDeliveryInput } from '../src/temporal/webhookContract.ts';
import { delayBeforeAttemptMs, maxAttempts } from '../src/webhooks/schedule.ts';

/**
 * Local activities: an attempt runs inside the workflow task that wakes the workflow, so one attempt costs the
 * server one workflow task instead of a timer task, an activity task and three workflow tasks. The POST itself
 * times out after 3 s; the rest is database work.
 */
const { attemptWebhookDelivery, markWebhookDeliveryDead } = proxyLocalActivities<WebhookActivities>({
  startToCloseTimeout: '30 seconds',
  // A lease left by a crashed attempt expires after 30 s; until then the attempt is retried, not counted twice.
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds' },
});

/**
 * The retry schedule of one webhook delivery, durable across worker and server restarts. The wait before the
 * first attempt of this workflow is its start delay, set by whoever started it; the later waits are timers.
 * Each attempt is signed anew by the activity; the ids in the request never change. Ends delivered or dead.
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<DeliveryState> {
  const max = maxAttempts(input.sender);
  let made = input.attemptsMade;
  for (let first = true; made < max; first = false) {
    if (!first) await sleep(delayBeforeAttemptMs(input.sender, made + 1, input.scale));
    const result = await attemptWebhookDelivery(input.deliveryId);
    if (result.state === 'delivered' || result.state === 'dead') return result.state;
    made = Math.max(made + 1, result.attempts - (input.roundBase ?? 0));
  }
  await markWebhookDeliveryDead(input.deliveryId);
  return 'dead';
}
