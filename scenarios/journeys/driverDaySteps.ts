/**
 * Steps of the driver's day (docs/routes.md): the business's lifecycle, tracking and proof-of-delivery webhooks on
 * the receiver, a driver made ready for the day (and put back afterwards), orders with coordinates and windows, a
 * route build waited for, the driver app's reports, offers and photo uploads.
 */
import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { ScenarioError, type Credentials } from '../api.ts';
import type { World } from '../world.ts';

/** Where the day starts: the demo drivers' depot in Prague. */
export const DEPOT = { lat: 50.0755, lng: 14.4378 };

/** A point `eastKm` east and `northKm` north of the depot. */
export const near = (eastKm: number, northKm = 0) => ({
  lat: +(DEPOT.lat + northKm / 111).toFixed(6),
  lng: +(DEPOT.lng + eastKm / (111 * Math.cos((DEPOT.lat * Math.PI) / 180))).toFixed(6),
});

/** Today in the business's timezone (the accounts', UTC when they name none): the day routes are planned for. */
export function today(w: World): string {
  const zone = { timeZone: w.accounts.timezone ?? 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' } as const;
  const parts = new Intl.DateTimeFormat('en-US', zone).formatToParts(new Date());
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

const LIFECYCLE_FIELDS = [
  'order_lifecycle_webhook_url',
  'order_status_change_webhook_url',
  'tracking_event_webhook_url',
  'pod_files_webhook_url',
] as const;

/**
 * Points the business's lifecycle, status, tracking and pod webhooks at the receiver under a secret of the run,
 * every lifecycle event switched on; puts the URLs and the event list back when the world closes.
 */
export async function dayWebhooks(w: World): Promise<void> {
  const admin = await w.token('admin');
  const before = (await w.api.call('GET', '/v1/webhook-settings', { token: admin })).body.settings;
  const key = `scn_${randomBytes(24).toString('base64url')}`;
  const url = w.receiver.endpoint('business', 'tenant', key);
  await w.api.call('PUT', '/v1/webhook-settings', {
    token: admin,
    body: {
      webhook_sign_secret: key,
      order_lifecycle_events: null,
      ...Object.fromEntries(LIFECYCLE_FIELDS.map((f) => [f, url])),
    },
  });
  w.defer(() =>
    w.api.call('PUT', '/v1/webhook-settings', {
      token: admin,
      body: {
        order_lifecycle_events: before.order_lifecycle_events ?? null,
        ...Object.fromEntries(LIFECYCLE_FIELDS.map((f) => [f, before[f] ?? null])),
      },
    }),
  );
}

export interface DayDriver {
  id: number;
  name: string;
  token: string;
}

/**
 * Signs the driver in and readies it for the day: the whole day as its shift, no breaks or cap, the depot, the
 * skills, on duty at `at`. Its record and duty are put back when the world closes.
 */
export async function readyDriver(
  w: World,
  who: Credentials,
  opts: { skills: string[]; at: { lat: number; lng: number } },
): Promise<DayDriver> {
  const admin = await w.token('admin');
  const token = await w.api.login(who);
  const me = (await w.api.call('GET', '/v1/user/me', { token })).body;
  const before = (await w.api.call('GET', `/v1/drivers/${me.id}`, { token: admin })).body.driver;
  await w.api.call('PUT', `/v1/drivers/${me.id}`, {
    token: admin,
    body: {
      skills: [...new Set([...before.skills, ...opts.skills])],
      shift: null,
      breaks: [],
      depot: DEPOT,
      max_route_minutes: null,
    },
  });
  w.defer(() =>
    w.api.call('PUT', `/v1/drivers/${me.id}`, {
      token: admin,
      body: {
        skills: before.skills,
        shift: before.shift,
        breaks: before.breaks,
        depot: before.depot,
        max_route_minutes: before.max_route_minutes,
      },
    }),
  );
  await w.api.call('POST', '/v1/driver/duty', { token, body: { on_duty: true } });
  w.defer(async () => {
    await w.api.call('POST', '/v1/driver/duty', { token: await w.api.login(who), body: { on_duty: before.on_duty } });
  });
  await w.api.call('POST', '/v1/driver/location', { token, body: opts.at });
  w.journal.step(`${me.name} (${me.id}) on duty at ${opts.at.lat}, ${opts.at.lng}, skills [${opts.skills.join(', ')}]`);
  return { id: me.id, name: me.name, token };
}

export interface DayOrder {
  id: number;
  trackingNumber: string;
  label: string;
}

/** An order of the run for today, with coordinates and a window from now; P2P with a pickup place. */
export async function dayOrder(
  w: World,
  label: string,
  spec: {
    at: { lat: number; lng: number };
    type?: 'D' | 'P2P';
    pickupAt?: { lat: number; lng: number };
    skills?: string[];
  },
): Promise<DayOrder> {
  const address = (p: { lat: number; lng: number }, line1: string) => ({
    line1,
    city: 'Praha',
    postal_code: '11000',
    country: 'CZ',
    ...p,
  });
  const now = Date.now();
  const res = await w.api.call('POST', '/v1/client/orderCreate', {
    token: await w.token('admin'),
    body: {
      type: spec.type ?? 'D',
      scheduled_date: today(w),
      order_ref: `SCENARIO-${w.run}-${label}`,
      recipient: { name: `Ada ${label}`, email: w.recipient, address: address(spec.at, `${label} Street 1`) },
      packages: [{ weight_grams: 1200 }],
      time_window: {
        start: new Date(now - 3600_000).toISOString(),
        end: new Date(now + 6 * 3600_000).toISOString(),
      },
      service_minutes: 4,
      ...(spec.pickupAt && { pickup: { name: 'Sender', address: address(spec.pickupAt, 'Sender Yard 2') } }),
      ...(spec.skills && { required_skills: spec.skills }),
    },
  });
  if (res.body.third_party_assignment)
    throw new ScenarioError(
      `a third-party rule of the business took order ${res.body.order_id} (${res.body.third_party_assignment}); delete it and run the scenario again`,
    );
  const order = { id: res.body.order_id as number, trackingNumber: res.body.tracking_number as string, label };
  w.receiver.follow(order.trackingNumber);
  const extra = [spec.type === 'P2P' && 'P2P with a pickup place', spec.skills && `needs ${spec.skills.join(', ')}`];
  w.journal.step(
    `order ${label} ${order.id} (${order.trackingNumber})${extra
      .filter(Boolean)
      .map((e) => `, ${e}`)
      .join('')}`,
  );
  return order;
}

export interface Stop {
  id: number;
  seq: number;
  kind: 'pickup' | 'delivery' | 'break';
  status: 'pending' | 'done' | 'failed' | 'skipped';
  order_id: number | null;
}

export interface Route {
  id: number;
  driver_id: number;
  status: string;
  stops: Stop[];
}

/** Builds the drivers' routes and waits until the build is done; answers the build as read then. */
export async function buildRoutes(
  w: World,
  what: string,
  body: { order_ids: number[]; driver_ids: number[]; reoptimize: boolean },
): Promise<{ id: number; routes: { id: number; driver_id: number }[]; skipped: any[] }> {
  const admin = await w.token('admin');
  const started = await w.api.call('POST', '/v3/client/build-route', {
    token: admin,
    body: {
      date: today(w),
      order_ids: body.order_ids,
      driver_ids: body.driver_ids,
      // Balanced, so that both drivers have stops; not when re-optimising, where the finished stops would count too.
      options: { time_limit_seconds: 2, balance: !body.reoptimize, reoptimize: body.reoptimize },
    },
    expect: 202,
  });
  const id = started.body.id as number;
  w.journal.step(`${what}: build ${id} of ${body.order_ids.length} orders on ${body.driver_ids.length} drivers`);
  w.journal.workflow(started.body.workflow_id, `route build ${id}`);
  const build = await w.until(`build ${id} ended`, async () => {
    const b = (await w.api.call('GET', `/v3/client/build-route/${id}`, { token: admin })).body;
    return ['done', 'failed', 'cancelled'].includes(b.status) && b;
  });
  if (build.status !== 'done') throw new ScenarioError(`build ${id} ended ${build.status}: ${build.error ?? ''}`);
  const left = (build.skipped as { order_id?: number; code: string }[]).filter(
    (s) => s.order_id !== undefined && body.order_ids.includes(s.order_id),
  );
  if (left.length > 0)
    throw new ScenarioError(`build ${id} left out ${left.map((s) => `${s.order_id} (${s.code})`).join(', ')}`);
  w.journal.step(`build ${id} done: ${build.routes.length} route(s), ${build.summary?.distances ?? ''} distances`);
  return build;
}

/** The route with its stops in order. */
export async function routeOf(w: World, id: number): Promise<Route> {
  return (await w.api.call('GET', `/v1/routes/${id}`, { token: await w.token('admin') })).body.route;
}

/** The stops as a line: `#1 delivery 123 done, #2 break ...`. */
export const stopsLine = (r: Route) =>
  r.stops.map((s) => `#${s.seq} ${s.kind}${s.order_id ? ` ${s.order_id}` : ''} ${s.status}`).join(', ');

/** The driver app reports a step of the order; throws when the service did not apply it. */
export async function report(
  w: World,
  d: DayDriver,
  order: DayOrder,
  step: string,
  extra: { failure_reason?: string } = {},
): Promise<void> {
  const res = await w.api.call('POST', `/v1/driver/orders/${order.id}/report`, {
    token: d.token,
    body: { step, ...extra },
  });
  if (!res.body.applied) throw new ScenarioError(`${step} for order ${order.id} not applied: ${res.body.message}`);
  w.journal.step(
    `${d.name} reports ${step}${extra.failure_reason ? ` (${extra.failure_reason})` : ''} for ${order.label} ${order.id}: ${res.body.order.status}`,
  );
}

/** Waits until the order is offered to the driver; answers the offer's deadline. */
export async function offeredTo(w: World, d: DayDriver, order: DayOrder): Promise<string> {
  const offer = await w.until(`an offer of ${order.id} to ${d.name}`, async () => {
    const offers = (await w.api.call('GET', '/v1/driver/offers', { token: d.token })).body.offers as any[];
    return offers.find((o) => o.order.id === order.id);
  });
  w.journal.step(`${d.name} is offered ${order.label} ${order.id} until ${offer.deadline}`);
  return offer.deadline;
}

/** A real PNG image of `size` x `size` pixels, made here: the photo the driver takes. */
export function photoPng(size = 8): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  const rows = Buffer.concat(
    Array.from({ length: size }, (_, y) =>
      Buffer.from([0, ...Array.from({ length: size }, (_, x) => [x * 30, y * 30, 160]).flat()]),
    ),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The driver uploads a delivery photo of the order (the body is the image itself). */
export async function uploadPhoto(w: World, d: DayDriver, order: DayOrder): Promise<number> {
  const png = photoPng();
  const res = await fetch(`${w.api.base}/api/v1/driver/orders/${order.id}/pod-files?type=photo&service_type=1`, {
    method: 'POST',
    headers: { authorization: `Bearer ${d.token}`, 'content-type': 'image/png', 'accept-language': 'en' },
    body: new Uint8Array(png),
  });
  const text = await res.text();
  if (res.status !== 201) throw new ScenarioError(`the photo upload answered ${res.status}: ${text.slice(0, 300)}`);
  const file = JSON.parse(text).file;
  w.journal.step(
    `${d.name} uploads a photo of ${order.label} ${order.id} (${png.length} bytes PNG): file ${file.file_id ?? file.id}`,
  );
  return file.file_id ?? file.id;
}
