/**
 * The task queue of the parcel processes, and of every process that needs no queue of its own. A module's contract
 * names the queue its workflows and activities run on; heavy or foreign work (webhook deliveries) names its own, so
 * that a worker deployment can serve it apart (WORKER_QUEUES, docs/architecture.md). Imported by workflow code.
 */
export const PROCESS_QUEUE = 'tms';
