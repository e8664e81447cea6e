/**
 * The one mapping from a workflow's refusal to the API's answer. A process refuses an update with an
 * ApplicationFailure whose type its contract names (from the validator or the handler); a process that has ended or
 * never existed answers as `PROCESS_GONE`. Each operation lists the refusals it answers and the error each becomes;
 * anything else is not a refusal and is thrown on, to be answered as a server error.
 */
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { AppError } from '../errors.ts';

/** The refusal of a process that has ended or never existed. */
export const PROCESS_GONE = 'ProcessGone';
/** Any other refusal an update failed with: a failure type the table does not name, or none. */
export const ANY_REFUSAL = '*';

export type Refusals = Record<string, () => AppError | Promise<AppError>>;

/** The refusal type of an error a workflow update or its handle threw, or null when it is not a refusal. */
export function refusalOf(err: unknown): string | null {
  if (err instanceof WorkflowNotFoundError) return PROCESS_GONE;
  if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure)
    return err.cause.type ?? ANY_REFUSAL;
  return null;
}

/** Sends an update (or any call on a process) and answers its refusals as the table says. */
export async function refusedAs<T>(send: Promise<T>, refusals: Refusals): Promise<T> {
  try {
    return await send;
  } catch (err) {
    const refusal = refusalOf(err);
    const answer =
      refusal === null
        ? undefined
        : (refusals[refusal] ?? (refusal === PROCESS_GONE ? undefined : refusals[ANY_REFUSAL]));
    if (!answer) throw err;
    throw await answer();
  }
}
