/**
 * The load generator of bench/getLoad.ts, in a thread of its own: GETs `url` `total` times with `concurrency` in flight
 * and posts back the latencies (ms) and the rate.
 */
import { parentPort, workerData } from 'node:worker_threads';

const { url, total, concurrency } = workerData as { url: string; total: number; concurrency: number };
const latencies: number[] = [];
let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < total) {
      next++;
      const t = performance.now();
      const res = await fetch(url);
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`GET ${url} ${res.status}`);
      latencies.push(performance.now() - t);
    }
  }),
);
parentPort!.postMessage({ latencies, perSecond: total / ((performance.now() - started) / 1000) });
