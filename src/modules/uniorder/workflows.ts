import { proxyActivities, setHandler } from '@temporalio/workflow';
import {
  LANE_CONCURRENCY,
  progressQuery,
  SELF_LANE,
  SELF_LANE_CONCURRENCY,
  type JobCounts,
  type JobProgress,
  type LaneProgress,
  type UniorderJobActivities,
  type UniorderJobInput,
} from './contract.ts';

/**
 * One item is one rate or one creation: a label purchase waits at most LABEL_CARRIER_TIMEOUT_MS on its carrier, so a
 * minute bounds it. The item heartbeats while it runs, so a killed worker's item runs again within 15 seconds, and
 * finds its label order by its key.
 */
const { runJobItem } = proxyActivities<UniorderJobActivities>({
  startToCloseTimeout: '60 seconds',
  heartbeatTimeout: '15 seconds',
  retry: { initialInterval: '2 seconds', maximumAttempts: 3 },
});

const { finishJob, startQueuedJobs } = proxyActivities<UniorderJobActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * A job of up to 500 items (docs/uniorder.md, "Jobs of 500"): each lane (a carrier, `self`, `rate`) runs its items
 * with at most 4 activities in flight (self 8), the lanes side by side, then the job ends once.
 */
export async function uniorderJob(input: UniorderJobInput): Promise<JobCounts> {
  const lanes: Record<string, LaneProgress> = {};
  for (const lane of Object.keys(input.lanes)) lanes[lane] = { done: 0, failed: 0, running: 0 };
  const progress: JobProgress = { total: input.total, done: 0, failed: input.failed, running: 0, lanes };
  setHandler(progressQuery, () => progress);

  const runLane = async (lane: string, indexes: readonly number[]) => {
    const counts = lanes[lane]!;
    let next = 0;
    const runner = async () => {
      while (next < indexes.length) {
        const index = indexes[next++]!;
        counts.running += 1;
        progress.running += 1;
        let ok = false;
        try {
          ok = (await runJobItem(input.job_id, index)).ok;
        } catch {
          // Its attempts spent (a worker killed three times): finishJob reports it failed.
        }
        counts.running -= 1;
        progress.running -= 1;
        if (ok) {
          counts.done += 1;
          progress.done += 1;
        } else {
          counts.failed += 1;
          progress.failed += 1;
        }
      }
    };
    const width = Math.min(lane === SELF_LANE ? SELF_LANE_CONCURRENCY : LANE_CONCURRENCY, indexes.length);
    await Promise.all(Array.from({ length: width }, runner));
  };

  await Promise.all(Object.entries(input.lanes).map(([lane, indexes]) => runLane(lane, indexes)));
  return finishJob(input.job_id);
}

/** Run every minute by the schedule `uniorder-job-sweep`: starts each job still queued a minute after it was stored. */
export async function uniorderJobSweep(): Promise<number> {
  return startQueuedJobs({ olderThanSeconds: 60, limit: 200 });
}
