/**
 * The load generator of bench/getLoad.ts, in a thread of its own: GETs `url` `total` times with `concurrency` in flight
 * and posts back the latencies (ms) and the rate.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { load } from './load.ts';

const { url, total, concurrency } = workerData as { url: string; total: number; concurrency: number };
const run = await load(total, concurrency, async () => {
  const res = await fetch(url);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`GET ${url} ${res.status}`);
});
parentPort!.postMessage(run);
