import http from 'node:http';
import Koa from 'koa';

export interface LoadRun {
  /** Per call, ms. */
  latencies: number[];
  perSecond: number;
}

/** Runs `task` `total` times with `concurrency` in flight; returns per-call latencies (ms) and calls per second. */
export async function load(total: number, concurrency: number, task: (i: number) => Promise<void>): Promise<LoadRun> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        await task(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { latencies, perSecond: total / ((performance.now() - started) / 1000) };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export const median = (values: number[]) => percentile(values, 50);

export const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));

const keepAlive = new http.Agent({ keepAlive: true });

/**
 * The webhook baselines' POST: node's http client over one keep-alive agent, the transport the engine uses
 * (src/webhooks/outbound.ts), so that a ratio measures the engine's own work and not a choice of client.
 * Resolves with the status once the answer has been read; rejects on a network error or after 3 s.
 */
export function postKeepAlive(url: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent: keepAlive,
        signal: AbortSignal.timeout(3000),
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        res.resume().on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The baseline of the read benchmarks: a bare Koa app in this process answering `body` as JSON. */
export function bareKoaJson(body: unknown): { url: string; close: () => void } {
  const app = new Koa();
  app.use((ctx) => {
    ctx.body = body;
  });
  const server = http.createServer(app.callback()).listen(0);
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => server.close() };
}
