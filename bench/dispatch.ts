/**
 * Section 14 of `npm run bench`: dispatch (docs/routes.md, "Dispatch and the driver's day").
 * - offer -> order.assigned: `POST /v1/dispatch/auto-assign` for `offers` orders, one every 50 ms, each placed at one
 *   of DRIVERS on-duty drivers (so that offers spread over their routes); from the POST until the lifecycle receiver
 *   has that order's order.assigned (source auto_assign); against the webhook engine's own first attempt in the same
 *   run (an order.assigned of the same business committed to the outbox, until it reaches the same receiver), at the
 *   same pace.
 * - lifecycle events per second: reports / 4 orders assigned by hand to the same drivers' routes; their drivers
 *   report pickup_started, picked_up, on_the_way, completed (each order's steps in turn, REPORTS_IN_FLIGHT orders in
 *   flight), counted from the first report until the receiver has every lifecycle event; against as many bare
 *   signals, at the same concurrency, to as many running workflows as there are routes (auto-assign processes of the
 *   first figure, still waiting for their drivers' answers; no handler, no write).
 */
import http from 'node:http';
import type { Client } from '@temporalio/client';
import type { Em } from '../src/platform/db/orm.ts';
import { insertOutboxEvent } from '../src/platform/db/outbox.ts';
import { hashPassword } from '../src/platform/secrets.ts';
import { User } from '../src/modules/identity/index.ts';
import { autoAssignWorkflowId } from '../src/modules/dispatch/contract.ts';
import { makeBusiness, makeOrder, PASSWORD } from '../test/helpers/factories.ts';
import { load, type LoadRun } from './load.ts';

export const DISPATCH_OFFERS = Number(process.env.BENCH_DISPATCH_OFFERS ?? 200);
export const DISPATCH_REPORTS = Number(process.env.BENCH_DISPATCH_REPORTS ?? 500);
export const DISPATCH_DRIVERS = 16;
export const REPORTS_IN_FLIGHT = 8;
const STEPS = ['pickup_started', 'picked_up', 'on_the_way', 'completed'] as const;
const PACE_MS = 50;

export interface DispatchRun {
  offerLatency: number[];
  engineLatency: number[];
  /** Lifecycle events received per second, from the first report to the last event's arrival. */
  eventsPerSecond: number;
  /** Reports answered per second, and each report's answer time (ms). */
  reportsPerSecond: number;
  reportMs: number[];
  signals: LoadRun;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function dispatchBench(
  appUrl: string,
  em: Em,
  temporal: Client,
  login: (email: string) => Promise<string>,
): Promise<DispatchRun> {
  const b = await makeBusiness(em);
  const admin = await login(b.users.admin.email);
  const call = async (path: string, token: string, body: unknown, expected: number) => {
    const res = await fetch(`${appUrl}/api/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== expected) throw new Error(`${path} answered ${res.status}: ${text}`);
    return JSON.parse(text) as { applied?: boolean };
  };

  // The lifecycle receiver: when each event (by event_id) arrived, each order's auto-assign order.assigned, and each
  // order's report steps (`<order id>.<step>`, the first arrival).
  const arrivals = new Map<string, number>();
  const assigned = new Map<number, number>();
  const stepped = new Map<string, number>();
  const receiver = http
    .createServer((req, res) => {
      let body = '';
      req
        .on('data', (c: Buffer) => {
          body += c.toString();
        })
        .on('end', () => {
          const at = performance.now();
          const e = JSON.parse(body) as {
            event_id: string;
            event: string;
            data: { order: { id: number }; source?: string };
          };
          arrivals.set(e.event_id, at);
          if (e.event === 'order.assigned' && e.data.source === 'auto_assign') assigned.set(e.data.order.id, at);
          const step = `${e.data.order.id}.${e.event.slice('order.'.length)}`;
          if (!stepped.has(step)) stepped.set(step, at);
          res.end();
        });
    })
    .listen(0, '127.0.0.1');
  await new Promise((r) => receiver.once('listening', r));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/lifecycle`;
  const settings = await fetch(`${appUrl}/api/v1/webhook-settings`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      webhook_sign_secret: 'bench-dispatch-secret-0123456789',
      order_lifecycle_webhook_url: hookUrl,
    }),
  });
  if (settings.status !== 200) throw new Error(`webhook settings ${settings.status}`);

  // Drivers (active, on duty) spread 0.05 degrees apart, each with its position.
  const place = (i: number) => ({ lat: 48.8 + (i % DISPATCH_DRIVERS) * 0.05, lng: 2.35 });
  const passwordHash = await hashPassword(PASSWORD);
  const drivers: { id: number; token: string }[] = [];
  for (let i = 0; i < DISPATCH_DRIVERS; i++) {
    const user = em.create(User, {
      businessId: b.business.id,
      email: `bench-driver-${i}-${b.business.id}@bench.example`,
      name: `Bench driver ${i}`,
      role: 'driver',
      passwordHash,
    });
    await em.flush();
    await em.execute(
      "insert into driver_profile (user_id, business_id, status, on_duty) values (?, ?, 'active', true) on conflict (user_id) do update set on_duty = true",
      [user.id, b.business.id],
    );
    const token = await login(user.email);
    await call('/driver/location', token, place(i), 200);
    drivers.push({ id: user.id, token });
  }
  /** D orders at driver i's place, waiting for dispatch. */
  const orders = async (count: number) => {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const o = await makeOrder(em, b.business.id);
      await em.execute(
        "update delivery_order set recipient = jsonb_set(recipient, '{address}', recipient->'address' || ?::jsonb) where id = ?",
        [JSON.stringify(place(i)), o.id],
      );
      ids.push(o.id);
    }
    return ids;
  };

  // offer -> order.assigned received, one auto-assign every 50 ms; the offers stay open (an hour to answer).
  const offered = await orders(DISPATCH_OFFERS);
  const started = new Map<number, number>();
  const posts: Promise<unknown>[] = [];
  for (const id of offered) {
    started.set(id, performance.now());
    posts.push(call('/dispatch/auto-assign', admin, { order_id: id, offer_timeout_seconds: 3600 }, 202));
    await pause(PACE_MS);
  }
  await Promise.all(posts);
  while (assigned.size < offered.length) await pause(20);
  const offerLatency = offered.map((id) => assigned.get(id)! - started.get(id)!);

  // The engine alone at the same pace: an order.assigned of this business committed, until it arrives.
  const committed = new Map<string, number>();
  for (let i = 0; i < offered.length; i++) {
    const eventId = `OLC-BENCH-${i}.assigned`;
    await insertOutboxEvent(em, {
      businessId: b.business.id,
      eventId,
      eventType: 'order.assigned',
      referenceType: 'order',
      referenceId: String(offered[i]),
      payload: {
        event_id: eventId,
        event: 'order.assigned',
        business_id: b.business.id,
        occurred_at: new Date().toISOString(),
        data: { order: { id: offered[i] }, driver_id: drivers[0]!.id, source: 'manual' },
      },
    });
    committed.set(eventId, performance.now());
    await pause(PACE_MS);
  }
  while ([...committed.keys()].some((id) => !arrivals.has(id))) await pause(20);
  const engineLatency = [...committed].map(([id, t]) => arrivals.get(id)! - t);

  // Reports: orders put on the drivers' routes by hand (outside the clock), then each driven through its steps.
  const reported = await orders(Math.ceil(DISPATCH_REPORTS / STEPS.length));
  const driverOf = (i: number) => drivers[i % DISPATCH_DRIVERS]!;
  for (let i = 0; i < reported.length; i++)
    await call('/dispatch/assign', admin, { order_id: reported[i], driver_id: driverOf(i).id }, 200);
  const t0 = performance.now();
  const reportMs: number[] = [];
  const reports = await load(reported.length, REPORTS_IN_FLIGHT, async (i) => {
    for (const step of STEPS) {
      const t = performance.now();
      const answer = await call(`/driver/orders/${reported[i]}/report`, driverOf(i).token, { step }, 200);
      if (!answer.applied) throw new Error(`report ${step} not applied: ${JSON.stringify(answer)}`);
      reportMs.push(performance.now() - t);
    }
  });
  const want = reported.flatMap((id) => STEPS.map((step) => `${id}.${step}`));
  while (want.some((k) => !stepped.has(k))) await pause(20);
  const eventsPerSecond = want.length / ((Math.max(...want.map((k) => stepped.get(k)!)) - t0) / 1000);

  // Bare signals: as many as the reports, at the same concurrency, to as many running workflows as routes.
  const targets = offered.slice(0, DISPATCH_DRIVERS).map((id) => temporal.workflow.getHandle(autoAssignWorkflowId(id)));
  const signals = await load(want.length, REPORTS_IN_FLIGHT, (i) => targets[i % targets.length]!.signal('benchPing'));
  receiver.close();
  return {
    offerLatency,
    engineLatency,
    eventsPerSecond,
    reportsPerSecond: reports.perSecond * STEPS.length,
    reportMs,
    signals,
  };
}
