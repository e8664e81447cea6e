/**
 * The key rotation process: re-seals every stored secret under the sealing key (the first of SECRETS_KEY), one
 * batch of rows at a time, and can be paused and resumed from the Temporal UI. One at a time: workflow id
 * `secrets-rotation`. Imported by the starter (npm run secrets:rotate) and by the workflow.
 */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import { PROCESS_QUEUE } from '../../platform/temporal/queues.ts';

export const SECRETS_ROTATION_WORKFLOW = 'secretsRotationWorkflow';
/** The task queue its workflow and activities run on. */
export const SECRETS_ROTATION_QUEUE = PROCESS_QUEUE;
export const SECRETS_ROTATION_ID = 'secrets-rotation';

/** Stops taking new batches (the batch under way finishes); `resume` goes on from the same row. */
export const pauseSignal = defineSignal('pause');
export const resumeSignal = defineSignal('resume');

/** A sealed column as the platform declares it (secretBox.ts `SealedColumn`): its purpose is needed to open it. */
export interface ColumnRef {
  table: string;
  column: string;
  purpose?: string;
}

export interface RotationProgress {
  /** The columns walked, in order, and the one under way (its index); every column done when it equals their number. */
  columns: ColumnRef[];
  column: number;
  /** The last row id done in the column under way. */
  afterId: number;
  scanned: number;
  resealed: number;
  /** Values no key of the worker opens: they stay as they are and are listed (first 100) for the operator. */
  unreadable: string[];
  /** The key the rows were re-sealed under, as the worker reported it. */
  keyId: string | null;
  paused: boolean;
}

export const progressQuery = defineQuery<RotationProgress>('progress');

export interface RotationInput {
  /** Rows per batch; 500 by default. */
  batchSize?: number;
  /** Carried over continue-as-new. */
  progress?: RotationProgress;
}

/** What one batch did. */
export interface BatchResult {
  /** The last row id looked at; null when the column has no row after `afterId`. */
  lastId: number | null;
  scanned: number;
  resealed: number;
  unreadable: string[];
  keyId: string;
}

/** The rotation's activities, as they cross into history (activities.ts implements them). */
export type SecretsActivities = {
  secretColumns(): Promise<ColumnRef[]>;
  /** Re-seals one batch of a column under this worker's sealing key. */
  resealSecrets(c: ColumnRef, afterId: number, limit: number): Promise<BatchResult>;
};
