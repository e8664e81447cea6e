import { continueAsNew, patched, proxyActivities, setHandler, sleep, workflowInfo } from '@temporalio/workflow';
import {
  deliveriesQuery,
  type PruneResult,
  type RetriesSummary,
  type RetryEntry,
  type RetryProgress,
  type WebhookRetriesInput,
  type WebhookActivities,
} from './contract.ts';
import { delayBeforeAttemptMs, maxAttempts } from './domain.ts';

const { attemptWebhookDeliveries, markWebhookDeliveriesDead } = proxyActivities<WebhookActivities>({
  // Up to 100 POSTs of at most 3 s each, 32 at a time, and two statements; a worker that dies is noticed by
  // its missing heartbeat long before that.
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '15 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** When an attempt could not be made (nothing counted), the next try: a crashed attempt's lease lasts 3 s plus WEBHOOK_LEASE_MARGIN_SEC (30 by default); a busy origin frees slots within seconds. */
const LEASE_RECHECK_MS = 5_000;
const BUSY_RECHECK_MS = 1_000;
/**
 * Deliveries falling due this soon after the one that woke the workflow go in the same activity, which waits for
 * each one's due time before sending it: one round instead of a timer, a workflow task and an activity for every
 * few milliseconds of a batch's spread. Workflows started before this change keep their way (the patch marker).
 */
const GATHER_MS = 1_000;
const GATHER_PATCH = 'webhook-retries-gather-due-soon';

interface Open extends RetryEntry {
  made: number;
}

/**
 * The retry schedules of up to 100 webhook deliveries, durable across worker and server restarts. Each delivery
 * keeps its own schedule; those due together are attempted by one activity, each signed anew, the ids in the
 * request never changing. The workflow's start delay is the first wait. Ends when every delivery is delivered
 * or dead; the `deliveries` query shows each one's state and next attempt in the Temporal UI.
 */
export async function webhookRetriesWorkflow(input: WebhookRetriesInput): Promise<RetriesSummary> {
  const open = new Map<number, Open>(input.deliveries.map((e) => [e.deliveryId, { ...e, made: e.attemptsMade }]));
  const done = new Map<number, RetryProgress>();
  setHandler(deliveriesQuery, () => [
    ...[...open.values()].map((e) => ({
      deliveryId: e.deliveryId,
      state: 'retrying' as const,
      attemptsMade: e.made,
      nextAttemptAt: new Date(e.dueAt).toISOString(),
    })),
    ...done.values(),
  ]);
  const finish = (e: Open, state: 'delivered' | 'dead') => {
    open.delete(e.deliveryId);
    done.set(e.deliveryId, { deliveryId: e.deliveryId, state, attemptsMade: e.made, nextAttemptAt: null });
  };

  while (open.size > 0) {
    // A receiver busy for a long time makes many short rounds: the history starts afresh before it grows too long.
    if (workflowInfo().continueAsNewSuggested) {
      const carried = summaryOf(input.carried, [...done.values()]);
      return continueAsNew<typeof webhookRetriesWorkflow>({
        ...input,
        deliveries: [...open.values()].map(({ made, ...e }) => ({ ...e, attemptsMade: made })),
        carried,
      });
    }
    const now = Date.now();
    if (![...open.values()].some((e) => e.dueAt <= now)) {
      await sleep(Math.min(...[...open.values()].map((e) => e.dueAt)) - now);
      continue;
    }
    const gather = patched(GATHER_PATCH);
    const due = [...open.values()]
      .filter((e) => e.dueAt <= now + (gather ? GATHER_MS : 0))
      .sort((a, b) => a.dueAt - b.dueAt);
    const results = gather
      ? await attemptWebhookDeliveries(
          due.map((e) => e.deliveryId),
          Object.fromEntries(due.map((e) => [e.deliveryId, e.dueAt])),
        )
      : await attemptWebhookDeliveries(due.map((e) => e.deliveryId));
    const exhausted: Open[] = [];
    for (const e of due) {
      const r = results[e.deliveryId]!;
      if (r.state === 'leased' || r.state === 'busy') {
        e.dueAt = Date.now() + (r.state === 'leased' ? LEASE_RECHECK_MS : BUSY_RECHECK_MS);
        continue;
      }
      const state = r.state === 'delivered' || r.state === 'dead' ? r.state : null;
      // An open delivery counts as attempted even when no attempt could be made, so that the schedule always ends.
      e.made = Math.max(r.attemptedAt !== null || !state ? e.made + 1 : e.made, r.attempts - e.roundBase);
      if (state) finish(e, state);
      else if (e.made >= maxAttempts(e.sender)) exhausted.push(e);
      else e.dueAt = (r.attemptedAt ?? Date.now()) + delayBeforeAttemptMs(e.sender, e.made + 1, input.scale);
    }
    if (exhausted.length > 0) {
      await markWebhookDeliveriesDead(exhausted.map((e) => e.deliveryId));
      for (const e of exhausted) finish(e, 'dead');
    }
  }
  return summaryOf(input.carried, [...done.values()]);
}

function summaryOf(carried: RetriesSummary | undefined, done: RetryProgress[]): RetriesSummary {
  const count = (state: 'delivered' | 'dead') => (carried?.[state] ?? 0) + done.filter((d) => d.state === state).length;
  return { delivered: count('delivered'), dead: count('dead') };
}

const { pruneWebhookLog } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '30 minutes',
  retry: { maximumAttempts: 5 },
});

/** Run daily by the schedule `webhook-log-prune`: the delivery log keeps what is younger than the retention. */
export async function webhookLogPruneWorkflow(retentionDays: number): Promise<PruneResult> {
  return pruneWebhookLog(retentionDays);
}
