/**
 * The uniorder job process (docs/uniorder.md, "Jobs of 500"), imported by the API (to start it), by the sweep and by
 * the workflow. Workflow id `uniorder-job-<job id>`; the uniorder_job row and its uniorder_job_item rows are the read
 * model its activities write: results live in the rows, never in history.
 */
import { defineQuery } from '@temporalio/workflow';
import { PROCESS_QUEUE } from '../../platform/temporal/queues.ts';

export const UNIORDER_JOB_WORKFLOW = 'uniorderJob';
export const UNIORDER_JOB_QUEUE = PROCESS_QUEUE;
export const uniorderJobWorkflowId = (jobId: string): string => `uniorder-job-${jobId}`;

/** Starts the process of a job left queued (its API call died between storing the job and starting it), every minute. */
export const UNIORDER_JOB_SWEEP_WORKFLOW = 'uniorderJobSweep';
export const UNIORDER_JOB_SWEEP_SCHEDULE = 'uniorder-job-sweep';

/** Items one job takes: 500 make about 1,600 history events, so a job never continues as new. */
export const JOB_LIMIT = 500;

/** Activities in flight per lane: a carrier's lane and the rate lane take 4, the self delivery lane 8. */
export const LANE_CONCURRENCY = 4;
export const SELF_LANE_CONCURRENCY = 8;
export const SELF_LANE = 'self';
export const RATE_LANE = 'rate';

export type JobKind = 'rate' | 'create';
export type JobStatus = 'queued' | 'running' | 'done';
export type JobItemStatus = 'pending' | 'done' | 'failed';

export interface UniorderJobInput {
  job_id: string;
  business_id: number;
  kind: JobKind;
  /** Items of the job, stored already failed (invalid when stored): counted, never run. */
  failed: number;
  total: number;
  /** The pending items' indexes by lane: a carrier code, `self` or `rate`. */
  lanes: Record<string, number[]>;
}

export interface LaneProgress {
  done: number;
  failed: number;
  running: number;
}

export interface JobProgress extends LaneProgress {
  total: number;
  lanes: Record<string, LaneProgress>;
}

/** The workflow's own counters of its items. */
export const progressQuery = defineQuery<JobProgress>('progress');

/** The job's counts as its row holds them. */
export interface JobCounts {
  total: number;
  succeeded: number;
  failed: number;
}

/** The job's activities, as they cross into history (activities.ts implements them). */
export type UniorderJobActivities = {
  /**
   * Runs one item as the job's creator: an item already done or failed answers at once; otherwise its rate or its
   * creation runs and its status, result and the job's counts are written in one transaction. A create item buys
   * with its idempotency key (`uj-<job id>-<index>` unless it has its own), so a retry after a killed worker finds
   * its label order and buys nothing twice. Answers only whether the item succeeded.
   */
  runJobItem(jobId: string, index: number): Promise<{ index: number; ok: boolean }>;
  /** Marks the job done with its final counts, once (an item never run is failed then); a retry writes nothing more. */
  finishJob(jobId: string): Promise<JobCounts>;
  /** Starts the process of every job still queued `olderThanSeconds` after it was stored; answers how many. */
  startQueuedJobs(input: { olderThanSeconds: number; limit: number }): Promise<number>;
};
