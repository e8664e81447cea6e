/**
 * A business for dispatch tests: its lifecycle, status and tracking webhooks go to a real receiver, every payload is
 * checked against its declared schema, and drivers are made with a driver record (active, on duty, skills).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { User } from '../../../src/modules/identity/index.ts';
import { hashPassword } from '../../../src/platform/secrets.ts';
import type { TestApp } from '../../helpers/app.ts';
import { eventDefinition } from '../../helpers/events.ts';
import { makeBusiness, makeOrder, PASSWORD } from '../../helpers/factories.ts';
import { startReceiver } from '../../helpers/receiver.ts';
import { waitFor } from '../../helpers/wait.ts';

const ajv = new Ajv({ strict: false });
formats.default(ajv);
const SECRET = 'dispatch-test-secret-0123456789abcdef';

export interface Driver {
  id: number;
  token: string;
}

export async function dispatchWorld(app: TestApp, opts: { lifecycleEvents?: string } = {}) {
  const b = await makeBusiness(app.em());
  const admin = await app.login(b.users.admin.email, PASSWORD);
  const receiver = await startReceiver();
  const put = await app.http.put(
    '/v1/webhook-settings',
    {
      webhook_sign_secret: SECRET,
      order_lifecycle_webhook_url: `${receiver.url}/lifecycle`,
      order_status_change_webhook_url: `${receiver.url}/status`,
      tracking_event_webhook_url: `${receiver.url}/tracking`,
      ...(opts.lifecycleEvents ? { order_lifecycle_events: opts.lifecycleEvents } : {}),
    },
    { token: admin },
  );
  assert.equal(put.status, 200, JSON.stringify(put.body));

  /** A driver account of the business with its driver record. */
  async function driver(
    over: { status?: string; onDuty?: boolean; skills?: string[]; position?: { lat: number; lng: number } } = {},
  ): Promise<Driver> {
    const em = app.em();
    const tag = randomUUID().slice(0, 8);
    const user = em.create(User, {
      businessId: b.business.id,
      email: `driver-d-${tag}@test.example`,
      name: `Driver ${tag}`,
      role: 'driver',
      passwordHash: await hashPassword(PASSWORD),
    });
    await em.flush();
    await em.execute(
      `insert into driver_profile (user_id, business_id, status, on_duty, skills) values (?, ?, 'active', ?, ?::text[])
       on conflict (user_id) do update set on_duty = excluded.on_duty, skills = excluded.skills`,
      [user.id, b.business.id, over.onDuty ?? true, `{${(over.skills ?? []).join(',')}}`],
    );
    const token = await app.login(user.email, PASSWORD);
    if (over.status) await em.execute('update driver_profile set status = ? where user_id = ?', [over.status, user.id]);
    if (over.position) {
      const res = await app.http.post('/v1/driver/location', over.position, { token });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    return { id: user.id, token };
  }

  /** A D order (or P2P with a pickup place) with coordinates, on 2026-12-01. */
  async function order(
    over: { type?: 'D' | 'P' | 'P2P'; at?: { lat: number; lng: number }; skills?: string[]; statusId?: number } = {},
  ) {
    const o = await makeOrder(app.em(), b.business.id, { statusId: over.statusId });
    const at = over.at ?? { lat: 48.8566, lng: 2.3522 };
    const address = { line1: '1 Main St', city: 'Paris', postal_code: '75001', country: 'FR', ...at };
    await app.em().execute(
      `update delivery_order set type = ?, recipient = jsonb_set(recipient, '{address}', ?::jsonb), required_skills = ?::text[],
         pickup = case when ? = 'P2P' then ?::jsonb else null end where id = ?`,
      [
        over.type ?? 'D',
        JSON.stringify(address),
        `{${(over.skills ?? []).join(',')}}`,
        over.type ?? 'D',
        JSON.stringify({ name: 'Sender', address: { ...address, line1: '9 Depot Rd', lat: at.lat + 0.01 } }),
        o.id,
      ],
    );
    return o;
  }

  /** Every event `name` about the order received at `path`, each checked against its declared schema. */
  const eventsAt = (path: string, name: string, orderId: number): any[] => {
    const found = receiver.received
      .filter((r) => r.url === path)
      .map((r) => JSON.parse(r.body))
      .filter((e) => e.event === name && e.data?.order?.id === orderId);
    const validate = ajv.compile(eventDefinition(name)!.payload);
    for (const e of found) assert.ok(validate(e), `${name} matches its schema: ${ajv.errorsText(validate.errors)}`);
    return found;
  };
  /** The first such event, once it arrives. */
  const eventAt = (path: string, name: string, orderId: number, match: (e: any) => boolean = () => true) =>
    waitFor(async () => eventsAt(path, name, orderId).find(match));
  /** The lifecycle events about the order in the order they arrived (deduplicated on event_id). */
  const lifecycle = (orderId: number): { event: string; event_id: string; data: any }[] => {
    const seen = new Set<string>();
    return receiver.received
      .filter((r) => r.url === '/lifecycle')
      .map((r) => JSON.parse(r.body))
      .filter((e) => e.data?.order?.id === orderId && !seen.has(e.event_id) && seen.add(e.event_id));
  };
  const trail = (orderId: number) =>
    app
      .em()
      .execute<{ operation_type: number; before_status: number | null; after_status: number | null; details: any }[]>(
        'select operation_type, before_status, after_status, details from order_operation_event where order_id = ? order by id',
        [orderId],
      );
  const orderRow = async (id: number) =>
    (
      await app
        .em()
        .execute<{ status_id: number; driver_id: number | null; route_id: number | null }[]>(
          'select status_id, driver_id, route_id from delivery_order where id = ?',
          [id],
        )
    )[0]!;

  return { b, admin, receiver, driver, order, eventsAt, eventAt, lifecycle, trail, orderRow };
}

export type DispatchWorld = Awaited<ReturnType<typeof dispatchWorld>>;
