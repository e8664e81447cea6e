import { Worker } from 'node:worker_threads';
import type { LoadRun } from './load.ts';

/**
 * GETs `url` `total` times with `concurrency` in flight from a worker thread: the client's parsing and event loop are
 * not the server's, as with a load generator of its own (wrk, autocannon), so that a server that does more per request
 * is not also charged for its client's share of one event loop.
 */
export function getLoad(url: string, total: number, concurrency: number): Promise<LoadRun> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./getLoadWorker.ts', import.meta.url), {
      workerData: { url, total, concurrency },
    });
    worker.once('message', (run: LoadRun) => resolve(run));
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`the load generator exited with ${code}`)));
  });
}
