/**
 * Section 8 of `npm run bench`: partner locker deliveries.
 * - create-to-doors_opened: a remote-open delivery created and opened over HTTP, until its signed doors_opened
 *   webhook reaches the provider's receiver; against the webhook engine's own first attempt in the same run (an
 *   event of the same provider committed to the outbox, until it reaches the same receiver), at the same pace;
 * - expiry lateness: `count` deliveries whose delivery codes expire spread over one minute, each expiry's
 *   ended_at minus its delivery_code_expires_at; against a bare setTimeout's lateness in this process.
 */
import http from 'node:http';
import type { Em } from '../src/platform/db/orm.ts';
import { insertOutboxEvent } from '../src/platform/db/outbox.ts';
import { grantLockerPartner } from '../src/modules/locker-deliveries/index.ts';
import { addCompartments, makeBusiness, makeProvider, PASSWORD } from '../test/helpers/factories.ts';

/** The delivery code lifetime the bench's LOCKER_TIMER_SCALE makes of one hour. */
export const LOCKER_BENCH_TTL_SECONDS = 30;

export interface LockerBenchRun {
  openLatency: number[];
  engineLatency: number[];
  expiryLateness: number[];
  timerLate: number;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function lockerBench(
  appUrl: string,
  em: Em,
  opts: { opened: number; expiring: number },
): Promise<LockerBenchRun> {
  const b = await makeBusiness(em);
  await addCompartments(
    em,
    b.device.id,
    Array.from({ length: opts.opened + opts.expiring }, (_, i) => `PL${i}`),
  );
  const provider = await makeProvider(em, 'locker_provider');
  await grantLockerPartner(em, b.business.id, provider.business.id);
  await em.execute('insert into locker_settings (business_id, delivery_code_ttl_hours) values (?, 1)', [b.business.id]);

  // The provider's receiver: when each event (by event_id) arrived.
  const arrivals = new Map<string, number>();
  const opened = new Map<string, number>();
  const receiver = http
    .createServer((req, res) => {
      let body = '';
      req
        .on('data', (c: Buffer) => {
          body += c.toString();
        })
        .on('end', () => {
          const at = performance.now();
          const e = JSON.parse(body) as { event_id: string; event: string; data: { delivery_id: string } };
          arrivals.set(e.event_id, at);
          if (e.event === 'partner_locker.delivery.doors_opened') opened.set(e.data.delivery_id, at);
          res.end();
        });
    })
    .listen(0, '127.0.0.1');
  await new Promise((r) => receiver.once('listening', r));
  const login = await fetch(`${appUrl}/api/v1/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: provider.user.email, password: PASSWORD }),
  });
  const headers = {
    authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}`,
    'content-type': 'application/json',
  };
  const put = await fetch(`${appUrl}/api/v1/provider/webhook-settings`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ url: `http://127.0.0.1:${(receiver.address() as { port: number }).port}/locker` }),
  });
  if (put.status !== 200) throw new Error(`provider settings ${put.status}`);
  const create = async (openMode: string, i: number): Promise<number> => {
    const res = await fetch(`${appUrl}/api/v1/partner-locker/deliveries`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        device_id: b.device.code,
        parcels: [{ reference: `B-${i}`, size: 'M' }],
        recipient: { name: 'Bench' },
        open_mode: openMode,
      }),
    });
    if (res.status !== 201) throw new Error(`create ${res.status} ${await res.text()}`);
    return ((await res.json()) as { delivery: { id: number } }).delivery.id;
  };

  // create -> open -> doors_opened received, one delivery every 50 ms
  const started = new Map<string, number>();
  const runs: Promise<void>[] = [];
  for (let i = 0; i < opts.opened; i++) {
    runs.push(
      (async () => {
        const t = performance.now();
        const id = await create('remote_open', i);
        started.set(String(id), t);
        const res = await fetch(`${appUrl}/api/v1/partner-locker/deliveries/${id}/open`, { method: 'POST', headers });
        if (res.status !== 200) throw new Error(`open ${res.status}`);
      })(),
    );
    await pause(50);
  }
  await Promise.all(runs);
  while (opened.size < opts.opened) await pause(20);
  const openLatency = [...started].map(([id, t]) => opened.get(id)! - t);

  // The engine alone at the same pace: an event of this provider committed, until it arrives.
  const committed = new Map<string, number>();
  for (let i = 0; i < opts.opened; i++) {
    const eventId = `PLE-BENCH-${i}`;
    await insertOutboxEvent(em, {
      businessId: b.business.id,
      providerId: provider.business.id,
      eventId,
      eventType: 'partner_locker.delivery.cancelled',
      referenceType: 'locker_delivery',
      referenceId: '0',
      payload: {
        event_id: eventId,
        event: 'partner_locker.delivery.cancelled',
        livemode: true,
        occurred_at: new Date().toISOString(),
        data: { delivery_id: `bench-${i}`, cancelled_at: new Date().toISOString(), reason: null },
      },
    });
    committed.set(eventId, performance.now());
    await pause(50);
  }
  while ([...committed.keys()].some((id) => !arrivals.has(id))) await pause(20);
  const engineLatency = [...committed].map(([id, t]) => arrivals.get(id)! - t);

  // Expiries spread over one minute: one screen-code delivery every 60 s / count, each code expiring 30 s later.
  const ids: number[] = [];
  const creating: Promise<void>[] = [];
  const gap = 60_000 / opts.expiring;
  const t0 = performance.now();
  for (let i = 0; i < opts.expiring; i++) {
    creating.push(
      create('screen_code', opts.opened + i).then((id) => {
        ids.push(id);
      }),
    );
    const wait = t0 + (i + 1) * gap - performance.now();
    if (wait > 0) await pause(wait);
  }
  await Promise.all(creating);
  for (;;) {
    const [row] = await em.execute<{ n: number }[]>(
      `select count(*)::int as n from locker_delivery where id in (${ids.join(',')}) and status = 'expired'`,
    );
    if (row!.n === ids.length) break;
    await pause(500);
  }
  const expiryLateness = (
    await em.execute<{ ms: number }[]>(
      `select extract(epoch from (ended_at - delivery_code_expires_at)) * 1000 as ms from locker_delivery where id in (${ids.join(',')})`,
    )
  ).map((r) => Number(r.ms));
  const timerLate = await new Promise<number>((resolve) => {
    const at = Date.now() + 50;
    setTimeout(() => resolve(Date.now() - at), 50);
  });
  receiver.close();
  return { openLatency, engineLatency, expiryLateness, timerLate };
}
