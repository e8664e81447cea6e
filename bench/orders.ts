/**
 * Section 12: order intake and the audit trail (docs/orders.md).
 * - bulk_create_orders of 100 rows against the same 100 orders sent one client_order_create at a time, `SINGLES_IN_FLIGHT`
 *   in flight, in alternating rounds: milliseconds per 100 orders.
 * - An async batch of `BENCH_BATCH_ROWS` rows (5,000 by default), from the POST to the batch reading done, in rows per
 *   second, against one multi-row INSERT of the same rows into delivery_order through `pg` in the same run (the floor
 *   of any intake: no packages, history, trail, events or process).
 * - The audit trail read (POST /v1/tracking/operationevents of one order) at `READ_CONCURRENCY` in flight with a million
 *   operation events in the table, against a bare Koa endpoint running the same statements through `pg`.
 */
import pg from 'pg';
import { POOL_MAX, type Em } from '../src/platform/db/orm.ts';
import { load, type LoadRun } from './load.ts';
import { READ_CONCURRENCY, merged } from './reads.ts';
import { bareKoaSql, captureSql, type Statement } from './sqlBaseline.ts';

const BULK_ROWS = 100;
const SINGLES_IN_FLIGHT = 8;
const ROUNDS = 5;
export const BATCH_ROWS = Number(process.env.BENCH_BATCH_ROWS ?? 5000);
export const TRAIL_ROWS = 1_000_000;
const TRAIL_ORDERS = 200;
const TRAIL_ROUNDS = 3;

export interface OrdersBenchRun {
  bulkMs: number[];
  singlesMs: number[];
  batchRowsPerSecond: number;
  insertRowsPerSecond: number;
  trail: { ours: LoadRun; sql: LoadRun; statements: number; eventsPerOrder: number };
}

const row = (i: number, tag: string) => ({
  type: 'D',
  scheduled_date: '2026-12-01',
  order_ref: `${tag}-${i}`,
  recipient: {
    name: `Recipient ${i}`,
    phone: '+420 601 000 000',
    address: { line1: `Street ${i}`, city: 'Praha', postal_code: '11000', country: 'CZ', lat: 50.08, lng: 14.43 },
  },
});

interface Answer {
  succeeded?: number;
  asyncId?: string;
  results?: { order_id: number }[];
}

async function post(url: string, headers: Record<string, string>, body: unknown): Promise<Answer> {
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const answer = (await res.json()) as Answer;
  if (!res.ok) throw new Error(`POST ${url} ${res.status} ${JSON.stringify(answer).slice(0, 300)}`);
  return answer;
}

/** The same 100 orders through bulk_create_orders and through 100 single creates, in alternating rounds. */
async function bulkAgainstSingles(appUrl: string, headers: Record<string, string>) {
  const bulkMs: number[] = [];
  const singlesMs: number[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    const rows = Array.from({ length: BULK_ROWS }, (_, i) => row(i, `bulk-${round}`));
    let t = performance.now();
    const bulk = await post(`${appUrl}/api/v1/client/batchOrderCreate`, headers, { orders: rows });
    if (bulk.succeeded !== BULK_ROWS) throw new Error(`bulk created ${bulk.succeeded}`);
    const bulkTook = performance.now() - t;
    t = performance.now();
    await load(BULK_ROWS, SINGLES_IN_FLIGHT, async (i) => {
      await post(`${appUrl}/api/v1/client/orderCreate`, headers, row(i, `single-${round}`));
    });
    const singlesTook = performance.now() - t;
    // Round 0 warms both paths up.
    if (round > 0) {
      bulkMs.push(bulkTook);
      singlesMs.push(singlesTook);
    }
  }
  return { bulkMs, singlesMs };
}

/** One async batch from the POST until it reads done, and one multi-row INSERT of the same rows. */
async function batchAgainstInsert(
  appUrl: string,
  headers: Record<string, string>,
  databaseUrl: string,
  businessId: number,
) {
  const rows = Array.from({ length: BATCH_ROWS }, (_, i) => row(i, 'async'));
  const started = performance.now();
  const queued = await post(`${appUrl}/api/v1/client/batchOrderCreateAsync`, headers, { orders: rows });
  for (;;) {
    const res = await fetch(`${appUrl}/api/v1/client/async/${queued.asyncId!}?per_page=1`, { headers });
    const batch = (await res.json()) as { status: string; succeeded: number };
    if (batch.status === 'done') {
      if (batch.succeeded !== BATCH_ROWS) throw new Error(`the batch created ${batch.succeeded} of ${BATCH_ROWS}`);
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const batchSeconds = (performance.now() - started) / 1000;

  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const values = rows.map((r, i) => ({ ...r, tracking_number: `BENCH${Date.now()}X${i}` }));
    const t = performance.now();
    await client.query(
      `insert into delivery_order (business_id, type, order_ref, tracking_number, status_id, scheduled_date, recipient, self_delivery)
       select $1, r.type, r.order_ref, r.tracking_number, 1, r.scheduled_date::date, r.recipient, true
       from jsonb_to_recordset($2::jsonb) as r(type text, order_ref text, tracking_number text, scheduled_date text, recipient jsonb)`,
      [businessId, JSON.stringify(values)],
    );
    const insertSeconds = (performance.now() - t) / 1000;
    return { batchRowsPerSecond: BATCH_ROWS / batchSeconds, insertRowsPerSecond: BATCH_ROWS / insertSeconds };
  } finally {
    await client.end();
  }
}

/**
 * Fills the trail to a million rows: `TRAIL_ORDERS` real orders, each given as many events as a busy order has, and the
 * rest spread over order ids that belong to no order, so that the read must find its order's rows among all of them.
 */
async function fillTrail(em: Em, businessId: number, orderIds: number[]): Promise<number> {
  const eventsPerOrder = 40;
  await em.execute(
    `insert into order_operation_event (order_id, business_id, operation_type, before_status, after_status, source, details, occurred_at)
     select o.id, ?, 3012, null, null, 'api', jsonb_build_object('note', 'bench ' || g), now() - (g || ' minutes')::interval
     from unnest(?::int[]) as o(id), generate_series(1, ?) as g`,
    [businessId, `{${orderIds.join(',')}}`, eventsPerOrder],
  );
  const [count] = await em.execute<{ n: number }[]>('select count(*)::int as n from order_operation_event');
  await em.execute(
    `insert into order_operation_event (order_id, business_id, operation_type, source, details, occurred_at)
     select 100000000 + g / 10, ?, 6002, 'carrier', '{}', now() - (g || ' seconds')::interval
     from generate_series(1, ?) as g`,
    [businessId, Math.max(0, TRAIL_ROWS - count!.n)],
  );
  await em.execute('analyze order_operation_event');
  return eventsPerOrder;
}

/** The trail read of one order at a time, against the same statements through pg, in alternating rounds. */
async function trailRead(
  appUrl: string,
  headers: Record<string, string>,
  databaseUrl: string,
  em: Em,
  businessId: number,
  orderIds: number[],
  gets: number,
) {
  const eventsPerOrder = await fillTrail(em, businessId, orderIds);
  const url = `${appUrl}/api/v1/tracking/operationevents`;
  const read = async (i: number) => {
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ order_ids: [orderIds[i % orderIds.length]] }),
    });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`POST ${url} ${res.status}`);
  };
  const keep = (text: string) => /order_operation_event|webhook_delivery|delivery_order|order_package/.test(text);
  const statementsOf: Statement[][] = [];
  for (let i = 0; i < orderIds.length; i++) statementsOf.push(await captureSql(() => read(i), keep));
  const sql = bareKoaSql(databaseUrl, POOL_MAX, (path) => statementsOf[Number(path.split('=')[1])]!);
  const baseline = async (i: number) => {
    const res = await fetch(`${sql.url}/trail?i=${i % orderIds.length}`);
    await res.arrayBuffer();
  };
  try {
    await load(500, READ_CONCURRENCY, read);
    await load(500, READ_CONCURRENCY, baseline);
    const ours: LoadRun[] = [];
    const base: LoadRun[] = [];
    for (let round = 0; round < TRAIL_ROUNDS; round++) {
      ours.push(await load(Math.ceil(gets / TRAIL_ROUNDS), READ_CONCURRENCY, read));
      base.push(await load(Math.ceil(gets / TRAIL_ROUNDS), READ_CONCURRENCY, baseline));
    }
    return { ours: merged(ours), sql: merged(base), statements: statementsOf[0]!.length, eventsPerOrder };
  } finally {
    await sql.close();
  }
}

export async function ordersBench(opts: {
  appUrl: string;
  headers: Record<string, string>;
  databaseUrl: string;
  em: Em;
  businessId: number;
  gets: number;
}): Promise<OrdersBenchRun> {
  const { appUrl, headers, databaseUrl, em, businessId } = opts;
  const { bulkMs, singlesMs } = await bulkAgainstSingles(appUrl, headers);
  const batch = await batchAgainstInsert(appUrl, headers, databaseUrl, businessId);
  const trailOrders = await post(`${appUrl}/api/v1/client/batchOrderCreate`, headers, {
    orders: Array.from({ length: 100 }, (_, i) => row(i, 'trail-a')),
  });
  const more = await post(`${appUrl}/api/v1/client/batchOrderCreate`, headers, {
    orders: Array.from({ length: TRAIL_ORDERS - 100 }, (_, i) => row(i, 'trail-b')),
  });
  const orderIds = [...trailOrders.results!, ...more.results!].map((r) => r.order_id);
  const trail = await trailRead(appUrl, headers, databaseUrl, em, businessId, orderIds, opts.gets);
  return { bulkMs, singlesMs, ...batch, trail };
}
