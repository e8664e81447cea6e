import type { WorkflowHandle } from '@temporalio/client';
import type { Em } from '../db/orm.ts';
import type { Logger } from '../logger.ts';

/**
 * Writes the rows a process drives while the process starts, and commits them only once it has started: if the
 * start fails nothing is written; if `write` fails (a refused insert, or an error it throws for bad input), the
 * process just started is ended; if the commit fails, the process finds no row when it first acts and ends by
 * itself. Holding the transaction across the start costs a connection for a few milliseconds; it buys "no row
 * without a process, no process that acts on a row that was never written".
 */
export async function writeOnceStarted<T>(
  em: Em,
  started: Promise<WorkflowHandle>,
  write: (tx: Em) => Promise<T>,
  log: Logger,
  what: string,
): Promise<T> {
  // Awaited below on every path; this only keeps a start that fails first from counting as unhandled.
  started.catch(() => undefined);
  let written = false;
  try {
    return await em.transactional(async (tx) => {
      const value = await write(tx);
      written = true;
      await started;
      return value;
    });
  } catch (err) {
    const handle = written ? null : await started.catch(() => null);
    if (handle)
      await handle
        .terminate(`${what} not written`)
        .catch((e: unknown) =>
          log.warn({ err: e, workflowId: handle.workflowId }, `could not end the process of a ${what} not written`),
        );
    throw err;
  }
}
