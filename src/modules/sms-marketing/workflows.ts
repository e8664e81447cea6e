import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import {
  CAMPAIGN_ENDED,
  cancelUpdate,
  countsQuery,
  pauseUpdate,
  resumeUpdate,
  type CampaignCounts,
  type CampaignPhase,
  type SmsCampaignActivities,
  type SmsCampaignInput,
} from './contract.ts';
import { batchPauseMs, batchSize, quietUntil } from './domain.ts';

/**
 * A batch retried after a killed worker sends none of its messages twice: each goes out under its own idempotency
 * key, and a recipient already handled is not pending any more. A message the provider keeps failing is marked
 * failed by the activity itself after a few attempts, so retries here are for the worker and the database.
 */
const { sendCampaignBatch, setCampaignState } = proxyActivities<SmsCampaignActivities>({
  // A batch heartbeats after each message (a provider's answer takes at most 10 s), so a killed worker's batch is
  // taken up again within half a minute.
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** Batches before a continue-as-new, so that a large audience keeps the history short. */
const BATCHES_PER_RUN = 500;

/**
 * An SMS campaign (docs/opt-in-families.md, "SMS Marketing"): waits for its send time, then sends to its audience
 * in batches at its rate, holding while the business's quiet hours last, until every recipient is handled or it is
 * cancelled. Pause, resume and cancel are updates that answer once nothing is in flight; `counts` is a query.
 */
export async function smsCampaignWorkflow(input: SmsCampaignInput): Promise<CampaignCounts> {
  const carried = input.carried;
  let after = carried?.after ?? '';
  let paused = carried?.paused ?? false;
  let waitedOut = carried?.waitedOut ?? null;
  let counts = carried?.counts ?? { total: input.total, sent: 0, failed: 0, skipped_opted_out: 0 };
  /** Until the send time has come (a first run with `sendAt`). */
  let scheduled = !!input.sendAt && !carried;
  let phase: CampaignPhase = paused ? 'paused' : scheduled ? 'scheduled' : 'sending';
  let cancelled = false;
  /** Set once the last state write has begun: nothing more is accepted. */
  let ending = false;
  let ended = false;
  let busy = false;
  // One state write at a time, in the order the updates came: the row never says paused after a later resume.
  let writes: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = writes.then(fn);
    writes = run.catch(() => undefined);
    return run;
  };

  const snapshot = (): CampaignCounts => ({
    ...counts,
    pending: Math.max(counts.total - counts.sent - counts.failed - counts.skipped_opted_out, 0),
    state: phase,
  });
  const refuseEnded = () => {
    if (cancelled || ending)
      throw ApplicationFailure.create({
        type: CAMPAIGN_ENDED,
        message: `campaign ${input.campaignId} has ended`,
        nonRetryable: true,
      });
  };

  setHandler(countsQuery, snapshot);
  setHandler(
    pauseUpdate,
    () =>
      exclusive(async () => {
        if (!paused) {
          paused = true;
          await condition(() => !busy);
          if (!cancelled && !ending) {
            phase = 'paused';
            await setCampaignState({ campaignId: input.campaignId, state: 'paused' });
          }
        }
        return snapshot();
      }),
    { validator: refuseEnded },
  );
  setHandler(
    resumeUpdate,
    () =>
      exclusive(async () => {
        if (paused && !cancelled && !ending) {
          paused = false;
          phase = scheduled ? 'scheduled' : 'sending';
          await setCampaignState({ campaignId: input.campaignId, state: 'running' });
        }
        return snapshot();
      }),
    { validator: refuseEnded },
  );
  setHandler(
    cancelUpdate,
    async () => {
      cancelled = true;
      await condition(() => ended);
      return snapshot();
    },
    { validator: refuseEnded },
  );

  const scaled = (ms: number) => Math.max(1, Math.ceil(ms * input.timerScale));

  if (scheduled && input.sendAt) {
    const wait = Date.parse(input.sendAt) - Date.now();
    if (wait > 0) await condition(() => cancelled, scaled(wait));
  }
  scheduled = false;

  let batches = 0;
  while (!cancelled) {
    if (paused) {
      phase = 'paused';
      await condition(() => !paused || cancelled);
      continue;
    }
    const quietEnd = quietUntil(Date.now(), input.timezone, input.quietHours);
    if (quietEnd !== null && quietEnd !== waitedOut) {
      phase = 'quiet_hours';
      if (!(await condition(() => paused || cancelled, scaled(quietEnd - Date.now())))) waitedOut = quietEnd;
      continue;
    }
    phase = 'sending';
    const limit = batchSize(input.perMinute);
    busy = true;
    const batch = await sendCampaignBatch({ campaignId: input.campaignId, after, limit }).finally(() => {
      busy = false;
    });
    counts = batch.counts;
    after = batch.after;
    if (batch.handled === 0) break;
    // The rate: the time the batch is worth at the campaign's messages a minute, cut short by a pause or a cancel.
    await condition(() => paused || cancelled, batchPauseMs(batch.handled, input.perMinute));
    if (++batches >= (input.batchesPerRun ?? BATCHES_PER_RUN) || workflowInfo().continueAsNewSuggested) {
      // A cancel's handler waits for the end of this run, so it is not waited for: the run ends instead.
      await condition(() => cancelled || allHandlersFinished());
      if (!cancelled)
        await continueAsNew<typeof smsCampaignWorkflow>({
          ...input,
          carried: { after, paused, waitedOut, counts },
        });
    }
  }

  const final = cancelled ? 'cancelled' : 'done';
  ending = true;
  await exclusive(() => setCampaignState({ campaignId: input.campaignId, state: final }));
  phase = final;
  ended = true;
  await condition(allHandlersFinished);
  return snapshot();
}
