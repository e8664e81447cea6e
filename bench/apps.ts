/**
 * Section 11: the standalone app bootstrap (GET /v1/apps/{app}/clients/{client}/bootstrap, public, rate limited,
 * served from the read cache) against a bare Koa endpoint that answers the same body, with the same client and
 * `READ_CONCURRENCY` in flight from a load generator in a thread of its own (bench/getLoad.ts), timed in alternating
 * rounds after a warm-up. The aim is 0.7 of the bare endpoint's
 * throughput or better: what is left is the service's own cost (routing, the rate limit, the runner's checks,
 * validation, the error and language middleware), since the body comes from the cache.
 */
import { getLoad } from './getLoad.ts';
import { bareKoaJson, type LoadRun } from './load.ts';
import { merged, READ_CONCURRENCY } from './reads.ts';

const WARMUP = 500;
const ROUNDS = 3;
export const BOOTSTRAP_PATH = '/api/v1/apps/demo-customer/clients/DEMO/bootstrap?platform=ios&app_version=1.3.2';

export async function appsBench(
  appUrl: string,
  gets: number,
): Promise<{ ours: LoadRun; constant: LoadRun; bodyBytes: number }> {
  const sample = await (await fetch(`${appUrl}${BOOTSTRAP_PATH}`)).text();
  const constant = bareKoaJson(JSON.parse(sample));
  try {
    const urls = [appUrl, constant.url].map((base) => `${base}${BOOTSTRAP_PATH}`);
    for (const url of urls) await getLoad(url, WARMUP, READ_CONCURRENCY);
    const runs: LoadRun[][] = urls.map(() => []);
    for (let round = 0; round < ROUNDS; round++)
      for (const [i, url] of urls.entries())
        runs[i]!.push(await getLoad(url, Math.ceil(gets / ROUNDS), READ_CONCURRENCY));
    const [ours, constantRun] = runs.map(merged);
    return { ours: ours!, constant: constantRun!, bodyBytes: Buffer.byteLength(sample) };
  } finally {
    constant.close();
  }
}
