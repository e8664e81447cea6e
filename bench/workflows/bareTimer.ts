/**
 * The baseline of overdue lateness in `npm run bench:scale`: a workflow that only sleeps until its due time and
 * completes. Its answer is how late it woke: the workflow clock is the start of the task the fired timer brought,
 * so it holds the server's timer and the dispatch of that task to a worker, and nothing of the service.
 */
import { sleep } from '@temporalio/workflow';

export async function bareTimerWorkflow(dueAt: number): Promise<number> {
  await sleep(Math.max(1, dueAt - Date.now()));
  return Date.now() - dueAt;
}
