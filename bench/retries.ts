/**
 * Retry lateness of the webhook engine with a pile of retries pending (sections 5 and 7 of `npm run bench`).
 *
 * `count` real device-order events (device order, ledger row and outbox event written in one statement, the
 * rows deviceOrderRepo writes) go through the real path: relay, fan-out, signed first attempt, retry workflow.
 * A local receiver answers 500 to the first `failures` attempts and 200 to the next (attempts are told apart by
 * X-Webhook-Event-Id, fixed per delivery). Lateness of the measured retry = receiver's time of that attempt -
 * receiver's time of the attempt before it - the planned wait (10 s before attempt 2, 100 s before attempt 3,
 * x WEBHOOK_RETRY_SCALE, 1 in the bench).
 * Section 5 commits all events at once (one failing attempt each: a burst of retries due within seconds); section
 * 7 commits them evenly over `spreadMs` with two failing attempts each, so that all of them wait for attempt 3 at
 * once with its due times spread over that span, as a real backlog does.
 * Baseline, same count, same process, same load, same schedule: when the last failing attempt arrives, a plain
 * setTimeout of the planned wait signs the same body anew and POSTs it to the same receiver.
 */
import http from 'node:http';
import type { Config } from '../src/platform/config.ts';
import type { Em } from '../src/platform/db/orm.ts';
import { presentDeviceOrder } from '../src/modules/device-orders/views.ts';
import { delayBeforeAttemptMs } from '../src/modules/webhooks/domain.ts';
import { signTenant } from '../src/modules/webhooks/signing.ts';
import { postKeepAlive } from './load.ts';
import { addCompartments, makeBusiness, PASSWORD } from '../test/helpers/factories.ts';
import { insertDevice } from '../src/modules/lockers/index.ts';

/** Doors one locker numbers at most (compartment_number is 1 to 9,999). */
const DOORS_PER_LOCKER = 9_999;

export interface RetryRun {
  delayMs: number;
  /** Per delivery, ms late against the planned wait: the engine's retry, and the setTimeout baseline. */
  lateness: number[];
  baseline: number[];
  /** Deliveries with status 'retrying' when the first retry fell due, and the most seen at once (sampled every 0.5 s). */
  pendingAtFirstDue: number;
  pendingPeak: number;
  /** First attempt of the first delivery to first attempt of the last (ms): how fast failures come in. */
  firstAttemptsSpanMs: number;
  /** Deliveries whose retry never arrived before the deadline. */
  missing: number;
  /** Baseline POSTs that failed (connection refused or reset under the load). */
  baselineFailed: number;
  /** Engine retries that got no answer in time (the receiver shares this process) and needed a third attempt. */
  engineRetriesFailed: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface RetryCase {
  count: number;
  /** Attempts that fail before the one measured. */
  failures: 1 | 2;
  /** Over how long the events are committed (0: all at once). */
  spreadMs: number;
}

export async function retryLateness(
  appUrl: string,
  config: Config,
  em: Em,
  { count, failures, spreadMs }: RetryCase,
): Promise<RetryRun> {
  const delayMs = delayBeforeAttemptMs('tenant', failures + 1, config.webhookRetryScale);
  const secret = 'bench-retry-secret-0123456789';
  const attempts = new Map<string, number[]>();
  const baseline: number[] = [];
  // The baseline's POSTs that ended, either way, and those that failed (a failed one has no lateness to report).
  let baselineSettled = 0;
  let baselineFailed = 0;
  let firstArrival: (() => void) | undefined;
  const receiver = http
    .createServer((req, res) => {
      const at = performance.now();
      const chunks: Buffer[] = [];
      req
        .on('data', (c: Buffer) => chunks.push(c))
        .on('end', () => {
          const planned = Number(req.headers['x-bench-planned']);
          if (planned) {
            baseline.push(at - planned);
            res.end();
            return;
          }
          const key = String(req.headers['x-webhook-event-id'] ?? '');
          const seen = attempts.get(key) ?? [];
          attempts.set(key, seen);
          seen.push(at);
          res.statusCode = seen.length <= failures ? 500 : 200;
          res.end();
          if (seen.length !== failures) return;
          firstArrival?.();
          const body = Buffer.concat(chunks).toString();
          const due = at + delayMs;
          setTimeout(() => {
            const headers = {
              ...signTenant({ secret, body, timestamp: Math.floor(Date.now() / 1000), eventId: `BASE-${key}` }),
              'x-bench-planned': String(due),
            };
            postKeepAlive(hookUrl, headers, body)
              .catch(() => {
                baselineFailed++;
              })
              .finally(() => {
                baselineSettled++;
              });
          }, delayMs);
        });
    })
    .listen(0, '127.0.0.1');
  await new Promise((r) => receiver.once('listening', r));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks/retries`;

  // A tenant of its own, so that the counts never mix with other sections.
  const t = await makeBusiness(em);
  // One door per event, on as many lockers as that takes (a locker numbers its doors up to 9,999).
  const deviceIds: number[] = [];
  while (deviceIds.length * DOORS_PER_LOCKER < count)
    deviceIds.push(
      (
        await insertDevice(em, {
          businessId: t.business.id,
          code: `LOCKER-${t.tag}-${deviceIds.length}`,
          name: `Retry locker ${deviceIds.length}`,
          compartments: [],
        })
      ).id,
    );
  for (const [d, deviceId] of deviceIds.entries()) {
    const first = d * DOORS_PER_LOCKER;
    const doors = Math.min(DOORS_PER_LOCKER, count - first);
    await addCompartments(
      em,
      deviceId,
      Array.from({ length: doors }, (_, i) => `R${first + i}`),
    );
  }
  const login = await fetch(`${appUrl}/api/v1/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: t.users.admin.email, password: PASSWORD }),
  });
  const token = ((await login.json()) as { access_token: string }).access_token;
  const put = await fetch(`${appUrl}/api/v1/webhook-settings`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ webhook_sign_secret: secret, device_order_webhook_url: hookUrl }),
  });
  if (!put.ok) throw new Error(`webhook settings ${put.status} ${await put.text()}`);

  const pending = async () =>
    Number(
      (
        await em.execute<{ n: string }[]>(
          "select count(*) as n from webhook_delivery where business_id = ? and status = 'retrying'",
          [t.business.id],
        )
      )[0]!.n,
    );
  let pendingPeak = 0;
  let polling = true;
  const poller = (async () => {
    for (; polling; await sleep(500)) pendingPeak = Math.max(pendingPeak, await pending());
  })();
  const firstDue = new Promise<number>((resolve) => {
    firstArrival = () => {
      firstArrival = undefined;
      setTimeout(() => resolve(pending()), delayMs);
    };
  });

  const storedAt = new Date();
  const draft = presentDeviceOrder({
    id: 0,
    kind: 'delivery',
    status: 'stored',
    next_actor: 'recipient',
    device_id: t.device.id,
    device_code: t.device.code,
    device_name: t.device.name,
    device_type: t.device.deviceType,
    grid_code: '',
    reference_number: '',
    order_id: null,
    external_order_id: null,
    due_at: new Date(storedAt.getTime() + 7 * 86_400_000),
    overdue_at: null,
    stored_at: storedAt,
    ended_at: null,
    removal_reason: null,
  });
  const envelope = JSON.stringify({
    event: 'device_order.stored',
    business_id: t.business.id,
    occurred_at: storedAt.toISOString(),
    data: { device_order: draft },
  });
  const insertEvents = (from: number, to: number) =>
    em.execute(
      `with o as (
       insert into device_order (business_id, kind, status, next_actor, device_id, grid_code, compartment_id, reference_number, due_at, stored_at, pickup_code_hash)
       select ?, 'delivery', 'stored', 'recipient', c.device_id, c.grid_code, c.id, 'RETRY-' || n, ?, ?, 'bench'
       from generate_series(?, ?) n join compartment c on c.device_id = any(?::int[]) and c.grid_code = 'R' || n
       returning id, grid_code, reference_number),
     l as (
       insert into device_order_event (device_order_id, business_id, event_type, occurred_at)
       select id, ?, 'device_order.stored', ? from o order by id returning id, device_order_id)
     insert into outbox_event (business_id, event_id, event_type, reference_type, reference_id, payload, family)
     select ?, 'DOE-' || l.id, 'device_order.stored', 'device_order', o.id::text,
       jsonb_build_object('event_id', 'DOE-' || l.id) || jsonb_set(jsonb_set(jsonb_set(?::jsonb, '{data,device_order,id}', to_jsonb(o.id)),
         '{data,device_order,grid_code}', to_jsonb(o.grid_code)), '{data,device_order,reference_number}', to_jsonb(o.reference_number)),
       'device_orders'
     from l join o on o.id = l.device_order_id order by l.id`,
      [
        t.business.id,
        draft.due_at,
        storedAt,
        from,
        to - 1,
        `{${deviceIds.join(',')}}`,
        t.business.id,
        storedAt,
        t.business.id,
        envelope,
      ],
    );
  // One commit a second over the spread (or one commit), each of its share of the events.
  const chunks = spreadMs > 0 ? Math.max(1, Math.round(spreadMs / 1000)) : 1;
  const startedAt = Date.now();
  for (let c = 0; c < chunks; c++) {
    await sleep(startedAt + (c * spreadMs) / chunks - Date.now());
    await insertEvents(Math.floor((c * count) / chunks), Math.floor(((c + 1) * count) / chunks));
  }

  const pendingAtFirstDue = await firstDue;
  const retried = () => {
    let n = 0;
    for (const a of attempts.values()) if (a.length > failures) n++;
    return n;
  };
  const deadline = Date.now() + Math.max(120_000, count * 40);
  while ((retried() < count || baselineSettled < attempts.size) && Date.now() < deadline) await sleep(250);
  polling = false;
  await poller;
  receiver.close();
  const lateness: number[] = [];
  let firstMin = Infinity;
  let firstMax = -Infinity;
  for (const seen of attempts.values()) {
    firstMin = Math.min(firstMin, seen[0]!);
    firstMax = Math.max(firstMax, seen[0]!);
    if (seen[failures] !== undefined) lateness.push(seen[failures] - seen[failures - 1]! - delayMs);
  }
  const engineRetriesFailed = Number(
    (
      await em.execute<{ n: string }[]>(
        'select count(*) as n from webhook_delivery where business_id = ? and attempts > ?',
        [t.business.id, failures + 1],
      )
    )[0]!.n,
  );
  return {
    engineRetriesFailed,
    delayMs,
    lateness,
    baseline,
    pendingAtFirstDue,
    pendingPeak: Math.max(pendingPeak, pendingAtFirstDue),
    firstAttemptsSpanMs: firstMax - firstMin,
    missing: count - lateness.length,
    baselineFailed,
  };
}
