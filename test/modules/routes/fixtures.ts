/** Drivers and plannable orders for the route build tests, written straight to the database. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { User } from '../../../src/modules/identity/index.ts';
import { executeBound, type Em } from '../../../src/platform/db/orm.ts';
import { hashPassword } from '../../../src/platform/secrets.ts';
import type { Http, TestApp } from '../../helpers/app.ts';
import { makeOrder, PASSWORD } from '../../helpers/factories.ts';
import { waitFor } from '../../helpers/wait.ts';

/** Paris: the depot and the orders lie around it. */
export const DEPOT = { lat: 48.8566, lng: 2.3522 };

export interface DriverSpec {
  userId?: number;
  status?: 'active' | 'suspended';
  parcels?: number | null;
  weightKg?: number | null;
  skills?: string[];
  shift?: [string, string] | null;
  breaks?: { start: string; end: string; minutes: number }[];
  position?: { lat: number; lng: number } | null;
}

let hash: string | undefined;

/** A driver account (or `userId`'s) with its driver record; answers its user id. */
export async function makeDriver(em: Em, businessId: number, spec: DriverSpec = {}): Promise<number> {
  let userId = spec.userId;
  if (userId === undefined) {
    hash ??= await hashPassword(PASSWORD);
    const tag = randomUUID().slice(0, 8);
    const user = em.create(User, {
      businessId,
      email: `driver-${tag}@test.example`,
      name: `Driver ${tag}`,
      role: 'driver',
      passwordHash: hash,
    });
    await em.flush();
    userId = user.id;
  }
  await executeBound(
    em,
    `insert into driver_profile (user_id, business_id, status, capacity_weight_kg, capacity_parcels, skills,
       shift_start, shift_end, breaks, depot_lat, depot_lng)
     values ($1, $2, $3, $4, $5, $6::text[], $7, $8, $9::jsonb, $10, $11)`,
    [
      userId,
      businessId,
      spec.status ?? 'active',
      spec.weightKg ?? null,
      spec.parcels ?? null,
      spec.skills ?? [],
      spec.shift === null ? null : (spec.shift?.[0] ?? '06:00'),
      spec.shift === null ? null : (spec.shift?.[1] ?? '20:00'),
      JSON.stringify(spec.breaks ?? []),
      DEPOT.lat,
      DEPOT.lng,
    ],
  );
  if (spec.position)
    await em.execute(
      `insert into driver_location (driver_id, business_id, lat, lng, recorded_at) values (?, ?, ?, ?, now())
       on conflict (driver_id) do update set lat = excluded.lat, lng = excluded.lng, recorded_at = now()`,
      [userId, businessId, spec.position.lat, spec.position.lng],
    );
  return userId;
}

export interface OrderSpec {
  type?: 'D' | 'P' | 'P2P';
  at?: { lat: number; lng: number } | null;
  pickup?: { lat: number; lng: number } | null | 'no_coordinates';
  window?: [string, string];
  skills?: string[];
  serviceMinutes?: number;
  /** Packages: weight in grams each. */
  packages?: number[];
  statusId?: number;
  selfDelivery?: boolean;
}

/** A plannable order near the depot (`at`, or a point ~1 km east per `n`); answers its id. */
export async function makePlanOrder(em: Em, businessId: number, spec: OrderSpec = {}): Promise<number> {
  const order = await makeOrder(em, businessId, {
    statusId: spec.statusId,
    selfDelivery: spec.selfDelivery ?? true,
  });
  const address = (p: { lat: number; lng: number } | null) => ({
    line1: '1 Rue de Test',
    city: 'Paris',
    postal_code: '75001',
    country: 'FR',
    ...(p ? { lat: p.lat, lng: p.lng } : {}),
  });
  const at = spec.at === undefined ? DEPOT : spec.at;
  const pickup =
    spec.pickup === undefined || spec.pickup === null
      ? null
      : { name: 'Sender', address: address(spec.pickup === 'no_coordinates' ? null : spec.pickup) };
  await executeBound(
    em,
    `update delivery_order set type = $1, recipient = $2::jsonb, pickup = $3::jsonb, required_skills = $4::text[],
       service_minutes = $5, time_window_start = $6, time_window_end = $7 where id = $8`,
    [
      spec.type ?? 'D',
      JSON.stringify({ name: 'Ada', address: address(at) }),
      pickup ? JSON.stringify(pickup) : null,
      spec.skills ?? [],
      spec.serviceMinutes ?? null,
      spec.window?.[0] ?? null,
      spec.window?.[1] ?? null,
      order.id,
    ],
  );
  // The order's own package (makeOrder's) gives way to those asked for.
  if (spec.packages) await em.execute('delete from order_package where order_id = ?', [order.id]);
  for (const [i, grams] of (spec.packages ?? []).entries())
    await em.execute(
      `insert into order_package (order_id, business_id, position, package_number, weight_grams, length_mm, width_mm, height_mm)
       values (?, ?, ?, ?, ?, 300, 200, 100)`,
      [order.id, businessId, i + 1, `PKG-${randomUUID().slice(0, 12)}`, grams],
    );
  return order.id;
}

/** A point `km` east and `northKm` north of the depot. */
export const near = (km: number, northKm = 0) => ({
  lat: DEPOT.lat + northKm / 111,
  lng: DEPOT.lng + km / (111 * Math.cos((DEPOT.lat * Math.PI) / 180)),
});

/** Waits until the build has ended; answers its read. */
export async function buildEnded(http: Http, token: string, id: number, timeoutMs = 60_000) {
  return waitFor(
    async () => {
      const res = await http.get(`/v3/client/build-route/${id}`, { token });
      if (res.status !== 200) throw new Error(`build ${id}: ${res.status} ${JSON.stringify(res.body)}`);
      return ['done', 'failed', 'cancelled'].includes(res.body.status) ? res.body : null;
    },
    timeoutMs,
    200,
  );
}

/**
 * A cancelled build wrote nothing: it ends cancelled with no route, none of its orders is on a route, and a second
 * cancel is BUILD_FINISHED.
 */
export async function assertCancelledWroteNothing(app: TestApp, token: string, id: number, orders: readonly number[]) {
  const ended = await buildEnded(app.http, token, id);
  assert.equal(ended.status, 'cancelled', JSON.stringify(ended.summary));
  assert.deepEqual(ended.routes, []);
  const [{ n }] = (await app
    .em()
    .execute<{ n: number }[]>(
      `select count(*)::int as n from delivery_order where id in (${orders.join(',')}) and route_id is not null`,
    )) as [{ n: number }];
  assert.equal(n, 0);
  const late = await app.http.post(`/v3/client/build-route/${id}/cancel`, {}, { token });
  assert.equal(late.status, 409);
  assert.equal(late.body.code, 'BUILD_FINISHED');
}

/** Orders on a grid around the depot, each with one parcel, written in one statement. */
export async function manyOrders(em: Em, businessId: number, date: string, n: number): Promise<number[]> {
  const rows = await em.execute<{ id: number }[]>(
    `insert into delivery_order (business_id, type, order_ref, tracking_number, status_id, scheduled_date, recipient, self_delivery)
     select ?, 'D', 'BULK-' || md5(random()::text), 'TB' || substr(md5(random()::text), 1, 20), 1, ?::date,
       jsonb_build_object('name', 'Bulk', 'address', jsonb_build_object('line1', 'x', 'city', 'Paris', 'postal_code', '75001',
         'country', 'FR', 'lat', ? + ((g % 40) - 20) * 0.004, 'lng', ? + ((g / 40) - 12) * 0.006)), true
     from generate_series(1, ?) g returning id`,
    [businessId, date, DEPOT.lat, DEPOT.lng, n],
  );
  return rows.map((r) => r.id);
}

/** The route solver's child processes (solve.py) whose parent is `pid`, read from /proc. */
export function solverChildrenOf(pid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((child) => {
      try {
        const cmd = fs.readFileSync(`/proc/${child}/cmdline`, 'utf8');
        const ppid = Number(/^PPid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${child}/status`, 'utf8'))?.[1]);
        return cmd.includes('solve.py') && ppid === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}
