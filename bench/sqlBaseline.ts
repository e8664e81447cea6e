/**
 * The fair baseline of the read benchmarks: a bare Koa endpoint that sends PostgreSQL the very statements an
 * operation sent for the same request, through its own `pg` pool of the app's size, and answers their rows as JSON.
 * What the ratio leaves to the service is everything between the socket and those statements: routing,
 * authentication, the rate limit, validation, the ORM and presenting the rows.
 */
import http from 'node:http';
import Koa from 'koa';
import pg from 'pg';

export interface Statement {
  text: string;
  values: unknown[];
}

type Query = (...args: unknown[]) => unknown;

/**
 * The statements `task` sends through any `pg` client of this process that `keep` accepts, in order. The outbox
 * relay and the worker query in the background, so `keep` names the tables of the read being measured.
 */
export async function captureSql(task: () => Promise<unknown>, keep: (text: string) => boolean): Promise<Statement[]> {
  const proto = pg.Client.prototype as unknown as { query: Query };
  const original = proto.query;
  const seen: Statement[] = [];
  proto.query = function capture(this: unknown, ...args: unknown[]) {
    const [first, second] = args;
    const statement =
      typeof first === 'string'
        ? { text: first, values: Array.isArray(second) ? second : [] }
        : { text: String((first as { text?: string }).text), values: (first as { values?: unknown[] }).values ?? [] };
    if (keep(statement.text)) seen.push(statement);
    return original.apply(this, args);
  };
  try {
    await task();
  } finally {
    proto.query = original;
  }
  if (seen.length === 0) throw new Error('captureSql: the task sent no statement that keep accepts');
  return seen;
}

/** A bare Koa app in this process that runs `statementsFor(url)` (path and query) one after another and answers their rows. */
export function bareKoaSql(
  databaseUrl: string,
  poolMax: number,
  statementsFor: (url: string) => Statement[],
): { url: string; close: () => Promise<void> } {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolMax });
  const app = new Koa();
  app.use(async (ctx) => {
    const results: unknown[][] = [];
    for (const s of statementsFor(ctx.url)) results.push((await pool.query(s.text, s.values)).rows);
    ctx.body = results;
  });
  const server = http.createServer(app.callback()).listen(0);
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: async () => {
      server.close();
      await pool.end();
    },
  };
}
