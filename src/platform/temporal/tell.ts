/**
 * Telling a process what just committed (a signal after the transaction): the change stands whatever happens here.
 * A process that has ended has nothing to hear; any other failure is logged, never answered, since each process
 * re-reads its rows where a lost signal would matter. A dry run's stop at the signal is the one thing passed on: the
 * preview must say it stopped there.
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import { StopsAtWorkflow } from '../catalog/dryRun.ts';
import type { Logger } from '../logger.ts';

export async function tellAfterCommit(
  send: () => Promise<unknown>,
  log: Logger,
  about: Record<string, unknown>,
  what: string,
): Promise<void> {
  try {
    await send();
  } catch (err) {
    if (err instanceof StopsAtWorkflow) throw err;
    if (err instanceof WorkflowNotFoundError) return;
    log.warn({ err, ...about }, what);
  }
}
