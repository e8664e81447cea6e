/**
 * One database-backed GET of the service against two baselines measured in the same run with the same client
 * (fetch, `READ_CONCURRENCY` in flight): a bare Koa app answering a constant body (the ceiling of any HTTP read),
 * and the fair one, a bare Koa app running the same SQL through `pg` (bench/sqlBaseline.ts). Each is warmed up,
 * then the three are timed in alternating rounds.
 */
import { POOL_MAX } from '../src/platform/db/orm.ts';
import { bareKoaJson, load, type LoadRun } from './load.ts';
import { bareKoaSql, captureSql, type Statement } from './sqlBaseline.ts';

export const READ_CONCURRENCY = 64;
const WARMUP = 500;
/** Each side is timed in this many rounds, taken in turn, so that a pause of the machine does not fall on one side only. */
const ROUNDS = 3;

export interface ReadRun {
  ours: LoadRun;
  constant: LoadRun;
  sql: LoadRun;
  /** Statements the SQL baseline sends per request. */
  statements: number;
  bodyBytes: number;
}

export interface ReadCase {
  databaseUrl: string;
  appUrl: string;
  /** Request paths, used in turn (the i-th request asks for paths[i % length]). */
  paths: string[];
  headers?: Record<string, string>;
  /** The read's own statements among those the request sends (authentication and the rate limit are the service's cost). */
  keep: (text: string) => boolean;
  gets: number;
}

const getter = (base: string, c: ReadCase) => async (i: number) => {
  const res = await fetch(`${base}${c.paths[i % c.paths.length]}`, { headers: c.headers });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`GET ${res.url} ${res.status}`);
};

/** Latencies of several runs together, and their calls per second over the time they took in all. */
export function merged(runs: LoadRun[]): LoadRun {
  const calls = runs.reduce((n, r) => n + r.latencies.length, 0);
  const seconds = runs.reduce((t, r) => t + r.latencies.length / r.perSecond, 0);
  return { latencies: runs.flatMap((r) => r.latencies), perSecond: calls / seconds };
}

/** Captures each path's statements one request at a time, then measures the service, the constant body and the SQL. */
export async function compareRead(c: ReadCase): Promise<ReadRun> {
  const statementsOf = new Map<string, Statement[]>();
  for (const path of new Set(c.paths))
    statementsOf.set(path, await captureSql(() => getter(c.appUrl, { ...c, paths: [path] })(0), c.keep));
  const sample = await (await fetch(`${c.appUrl}${c.paths[0]}`, { headers: c.headers })).text();
  const constant = bareKoaJson(JSON.parse(sample));
  const sql = bareKoaSql(c.databaseUrl, POOL_MAX, (url) => statementsOf.get(url)!);
  try {
    const bases = [c.appUrl, constant.url, sql.url];
    for (const base of bases) await load(WARMUP, READ_CONCURRENCY, getter(base, c));
    const runs: LoadRun[][] = bases.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, base] of bases.entries())
        runs[i]!.push(await load(Math.ceil(c.gets / ROUNDS), READ_CONCURRENCY, getter(base, c)));
    }
    const [ours, constantRun, sqlRun] = runs.map(merged);
    return {
      ours: ours!,
      constant: constantRun!,
      sql: sqlRun!,
      statements: statementsOf.get(c.paths[0]!)!.length,
      bodyBytes: Buffer.byteLength(sample),
    };
  } finally {
    constant.close();
    await sql.close();
  }
}
