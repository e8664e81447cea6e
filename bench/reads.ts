/**
 * One database-backed GET of the service against two baselines measured in the same run with the same client
 * (fetch, `READ_CONCURRENCY` in flight): a bare Koa app answering a constant body (the ceiling of any HTTP read),
 * and the fair one, a bare Koa app running the same SQL through `pg` (bench/sqlBaseline.ts).
 */
import { POOL_MAX } from '../src/platform/db/orm.ts';
import { bareKoaJson, load, type LoadRun } from './load.ts';
import { bareKoaSql, captureSql, type Statement } from './sqlBaseline.ts';

export const READ_CONCURRENCY = 64;
const WARMUP = 500;

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

/** Captures each path's statements one request at a time, then measures the service, the constant body and the SQL. */
export async function compareRead(c: ReadCase): Promise<ReadRun> {
  const statementsOf = new Map<string, Statement[]>();
  for (const path of new Set(c.paths)) statementsOf.set(path, await captureSql(() => getter(c.appUrl, { ...c, paths: [path] })(0), c.keep));
  const sample = await (await fetch(`${c.appUrl}${c.paths[0]}`, { headers: c.headers })).text();
  const constant = bareKoaJson(JSON.parse(sample));
  const sql = bareKoaSql(c.databaseUrl, POOL_MAX, (url) => statementsOf.get(url)!);
  try {
    const measure = async (base: string) => {
      await load(WARMUP, READ_CONCURRENCY, getter(base, c));
      return load(c.gets, READ_CONCURRENCY, getter(base, c));
    };
    return {
      ours: await measure(c.appUrl), constant: await measure(constant.url), sql: await measure(sql.url),
      statements: statementsOf.get(c.paths[0]!)!.length, bodyBytes: Buffer.byteLength(sample),
    };
  } finally {
    constant.close();
    await sql.close();
  }
}
