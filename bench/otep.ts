/**
 * OTEP ingest and timeline reads (section 6 of `npm run bench`).
 *
 * Timeline, measured first: GET /api/v1/otep/trackings/<tn> (public, no token) of 100 orders with 10 carrier
 * events each (11 in the timeline with the order's creation), 64 in flight, against a bare Koa app in this
 * process serving the same body and one running the same SQL through pg (bench/reads.ts).
 *
 * Ingest: a delivery provider's key POSTs documents of 500 native OTEP events (distinct ids, 5 for each of 100
 * orders it carries) to /api/v1/otep/ingest, one document at a time, after a warm-up; the figure is accepted
 * events per second over HTTP. Every 4 documents move on to 100 fresh orders, so no order carries more than 20
 * events (a long parcel journey) and the figure does not depend on the run's length; the first document of
 * each 100 moves their status (the last 3 leave it as it is). Measured twice: first while the tenant has no
 * webhook receiver (its tracking.event is written nowhere), then, on as many other documents, after it got a
 * webhook settings row without URLs (each accepted event is also an outbox row, which the relay claims, plans
 * nothing for and publishes).
 * Baselines, same run: for the first, the same rows under other keys written into tracking_event with one
 * multi-row INSERT per 500 through the app's ORM pool (em.execute), one statement at a time; for the second, the
 * second run's rows under other keys the same way, with a second INSERT of 500 tracking.event outbox rows (payloads
 * of the same shape) in the same transaction, which the relay claims and publishes as it does the service's.
 */
import { createHash } from 'node:crypto';
import type { Em } from '../src/platform/db/orm.ts';
import { orderSummaryOf } from '../src/modules/orders/index.ts';
import { isoInOffset } from '../src/modules/tracking/time.ts';
import { OTEP_VERSION } from '../src/modules/tracking/vocabulary.ts';
import { keepEvents, makeBusiness, makeOrder, makeProvider, PASSWORD } from '../test/helpers/factories.ts';
import { load } from './load.ts';
import { compareRead, type ReadRun } from './reads.ts';

export const EVENTS_PER_BATCH = 500;
const ORDERS = 100;
const DOCUMENTS_PER_ORDER = 4;
const WARMUP_BATCHES = 5;
const TIMELINE_ORDERS = 100;
const TIMELINE_EVENTS = 10;
/** Hub scans: received and departed, both in phases after pickup, so no transition warning. */
const SCANS = [
  ['otep:core:received_at_facility', 'inbound'],
  ['otep:core:departed_facility', 'transit'],
] as const;
const CITIES = [
  ['Lyon', 'FR'],
  ['Milano', 'IT'],
  ['Köln', 'DE'],
  ['Gent', 'BE'],
  ['Porto', 'PT'],
] as const;
const OFFSET_MIN = 120;

export interface OtepRun {
  events: number;
  /** Accepted events per second over HTTP without a receiver and with one, and rows per second of the multi-row INSERT. */
  ingestPerSecond: number;
  ingestReceivedPerSecond: number;
  insertPerSecond: number;
  /** Rows per second of the INSERT with an outbox row per event in the same transaction (the run with a receiver's baseline). */
  insertWithOutboxPerSecond: number;
  /** Last document answered to the last tracking.event outbox row published by the relay. */
  outboxDrainMs: number;
  timeline: ReadRun;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function otepBench(
  read: { appUrl: string; databaseUrl: string; gets: number },
  em: Em,
  batches: number,
): Promise<OtepRun> {
  const { appUrl } = read;
  const b = await makeBusiness(em);
  const carrier = await makeProvider(em, 'delivery_provider');
  const carried = async (count: number) => {
    const made: Awaited<ReturnType<typeof makeOrder>>[] = [];
    await load(count, 8, async (i) => {
      made[i] = await makeOrder(em.fork(), b.business.id, {
        carrierProviderId: carrier.business.id,
        selfDelivery: false,
      });
    });
    return made;
  };
  const orders = await carried(Math.ceil((WARMUP_BATCHES + 2 * batches) / DOCUMENTS_PER_ORDER) * ORDERS);
  const timelineOrders = await carried(TIMELINE_ORDERS);
  // Created before any event they will carry, so each timeline reads in order.
  await em.execute("update order_status_change set occurred_at = now() - interval '3 days' where order_id in (?)", [
    [...orders, ...timelineOrders].map((o) => o.id),
  ]);

  const json = { 'content-type': 'application/json' };
  const login = await fetch(`${appUrl}/api/v1/user/login`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email: carrier.user.email, password: PASSWORD }),
  });
  const token = ((await login.json()) as { access_token: string }).access_token;
  const created = await fetch(`${appUrl}/api/v1/otep/credentials`, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: 'bench' }),
  });
  if (created.status !== 201) throw new Error(`otep credential ${created.status} ${await created.text()}`);
  const key = ((await created.json()) as { credential: { secret: string } }).credential.secret;

  // Event k of the run: 10 ms after event k - 1, starting two days ago.
  const start = Date.now() - 2 * 86_400_000;
  let k = 0;
  const eventsOf = (prefix: string, subjects: readonly string[], perSubject: number) =>
    Array.from({ length: subjects.length * perSubject }, (_, j) => {
      const [status_code] = SCANS[Math.floor(j / subjects.length) % 2]!;
      const [city, country] = CITIES[j % CITIES.length]!;
      return {
        id: `${prefix}-${j}`,
        subject: subjects[j % subjects.length]!,
        occurred_at: isoInOffset(new Date(start + 10 * k++), OFFSET_MIN),
        status_code,
        otep_version: OTEP_VERSION,
        location: { city, country },
      };
    });
  const perOrder = EVENTS_PER_BATCH / ORDERS;
  const subjectsOf = (document: number) => {
    const first = Math.floor(document / DOCUMENTS_PER_ORDER) * ORDERS;
    return orders.slice(first, first + ORDERS).map((o) => o.trackingNumber);
  };
  const ingest = async (events: unknown[]) => {
    const res = await fetch(`${appUrl}/api/v1/otep/ingest`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${key}` },
      body: JSON.stringify({ events }),
    });
    const answer = (await res.json()) as { accepted: number };
    if (res.status !== 200 || answer.accepted !== events.length)
      throw new Error(`otep ingest ${res.status} ${JSON.stringify(answer).slice(0, 500)}`);
  };
  const outboxPending = async () =>
    Number(
      (
        await em.execute<{ n: string }[]>(
          "select count(*) as n from outbox_event where published_at is null and event_type = 'tracking.event' and business_id = ?",
          [b.business.id],
        )
      )[0]!.n,
    );
  const drain = async () => {
    while ((await outboxPending()) > 0) await sleep(50);
  };

  // 1. timeline GET against both baselines (bench/reads.ts), before ingest leaves the database busy
  const timelineTns = timelineOrders.map((o) => o.trackingNumber);
  const perDocument = EVENTS_PER_BATCH / TIMELINE_EVENTS;
  for (let first = 0; first < TIMELINE_ORDERS; first += perDocument)
    await ingest(eventsOf(`timeline-${first}`, timelineTns.slice(first, first + perDocument), TIMELINE_EVENTS));
  await drain();
  const timeline = await compareRead({
    ...read,
    paths: timelineTns.map((tn) => `/api/v1/otep/trackings/${tn}`),
    keep: (sql) => sql.includes('tracking_event'),
  });

  // 2. ingest over HTTP; documents are built before the clock starts
  const warmups = Array.from({ length: WARMUP_BATCHES }, (_, n) => eventsOf(`warm-${n}`, subjectsOf(n), perOrder));
  const documents = Array.from({ length: batches }, (_, n) =>
    eventsOf(`bench-${n}`, subjectsOf(WARMUP_BATCHES + n), perOrder),
  );
  const received = Array.from({ length: batches }, (_, n) =>
    eventsOf(`received-${n}`, subjectsOf(WARMUP_BATCHES + batches + n), perOrder),
  );
  await load(WARMUP_BATCHES, 1, (n) => ingest(warmups[n]!));
  const ours = await load(batches, 1, (n) => ingest(documents[n]!));
  await keepEvents(em, b.business.id);
  const withReceiver = await load(batches, 1, (n) => ingest(received[n]!));
  const ingestedAt = performance.now();
  await drain();
  const outboxDrainMs = performance.now() - ingestedAt;

  // Baseline: the rows ingest wrote for the same events, under other keys, one INSERT per document
  const orderOf = new Map(orders.map((o) => [o.trackingNumber, o]));
  const packageOf = new Map(
    (
      await em.execute<{ package_number: string; id: number }[]>(
        'select package_number, id from order_package where order_id in (?)',
        [orders.map((o) => o.id)],
      )
    ).map((p) => [p.package_number, p.id]),
  );
  const phaseOf = new Map<string, string>(SCANS);
  const columns =
    'order_id, package_id, business_id, event_key, provider_id, status_code, phase, occurred_at, occurred_offset_min, location, otep_version, content_hash';
  const statement = `insert into tracking_event (${columns}) values ${Array.from({ length: EVENTS_PER_BATCH }, () => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`;
  const rowsOf = (events: ReturnType<typeof eventsOf>) =>
    events.flatMap((e) => {
      const location = JSON.stringify(e.location);
      return [
        orderOf.get(e.subject)!.id,
        packageOf.get(e.subject)!,
        b.business.id,
        `base-${e.id}`,
        carrier.business.id,
        e.status_code,
        phaseOf.get(e.status_code)!,
        e.occurred_at,
        OFFSET_MIN,
        location,
        e.otep_version,
        createHash('sha256').update(JSON.stringify(e)).digest('hex'),
      ];
    });
  const warmRows = warmups.map(rowsOf);
  const rows = documents.map(rowsOf);
  await load(WARMUP_BATCHES, 1, async (n) => {
    await em.execute(statement, warmRows[n]!);
  });
  const bare = await load(batches, 1, async (n) => {
    await em.execute(statement, rows[n]!);
  });

  // Baseline of the run with a receiver: the same tracking rows and, in the same transaction, a tracking.event
  // outbox row for each with a payload of the same shape, which the relay claims and publishes as it does ours.
  const outboxStatement = `insert into outbox_event (business_id, event_id, event_type, reference_type, reference_id, payload, family, carrier_held)
    values ${Array.from({ length: EVENTS_PER_BATCH }, () => "(?, ?, 'tracking.event', 'order', ?, ?::jsonb, 'local_delivery', true)").join(', ')}`;
  const outboxRowsOf = (events: ReturnType<typeof eventsOf>) =>
    events.flatMap((e, j) => {
      const order = orderOf.get(e.subject)!;
      const eventId = `PAIR-${e.id}`;
      return [
        b.business.id,
        eventId,
        String(order.id),
        JSON.stringify({
          event_id: eventId,
          event: 'tracking.event',
          business_id: b.business.id,
          occurred_at: new Date().toISOString(),
          data: {
            order: orderSummaryOf(order),
            tracking_event: {
              id: j,
              status_id: order.statusId,
              key: e.status_code,
              description: '',
              occurred_at: e.occurred_at,
              phase: 3,
              incident_reason: null,
              location: e.location,
            },
          },
        }),
      ];
    });
  const pairs = received.map((d) => [rowsOf(d), outboxRowsOf(d)] as const);
  const paired = await load(batches, 1, (n) =>
    em.transactional(async (tx) => {
      await tx.execute(statement, pairs[n]![0]);
      await tx.execute(outboxStatement, pairs[n]![1]);
    }),
  );
  await drain();

  return {
    events: batches * EVENTS_PER_BATCH,
    ingestPerSecond: ours.perSecond * EVENTS_PER_BATCH,
    ingestReceivedPerSecond: withReceiver.perSecond * EVENTS_PER_BATCH,
    insertPerSecond: bare.perSecond * EVENTS_PER_BATCH,
    insertWithOutboxPerSecond: paired.perSecond * EVENTS_PER_BATCH,
    outboxDrainMs,
    timeline,
  };
}
