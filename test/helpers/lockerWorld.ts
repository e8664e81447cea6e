/**
 * A business with a locker (four medium compartments), a partner locker provider it grants, the provider's real
 * receiver, a device key of the locker and the tokens of both sides: what a partner delivery test moves around.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { eventDefinition } from './events.ts';
import { grantLockerPartner } from '../../src/modules/locker-deliveries/index.ts';
import { PICKUP_CODE } from '../../src/modules/locker-deliveries/repo/deliveries.ts';
import { openSecret, purposeOf } from '../../src/platform/secretBox.ts';
import { startApp, type TestApp } from './app.ts';
import { makeBusiness, makeProvider, PASSWORD } from './factories.ts';
import { startReceiver } from './receiver.ts';
import { waitFor } from './wait.ts';

export interface Delivered {
  id: number;
  code: string | undefined;
  doors: number[];
}

/** A partner locker event as the receiver got it; `data` is checked against the event's schema by `event`. */
export interface LockerEvent {
  event: string;
  event_id: string;
  data: Record<string, any>;
}

const ajv = new Ajv({ strict: false });
formats.default(ajv);

export async function lockerWorld(app: TestApp, settings: Record<string, number> = {}) {
  const receiver = await startReceiver();
  const b = await makeBusiness(app.em());
  const p = await makeProvider(app.em(), 'locker_provider');
  await grantLockerPartner(app.em(), b.business.id, p.business.id);
  const columns = Object.keys(settings);
  if (columns.length > 0) {
    await app
      .em()
      .execute(
        `insert into locker_settings (business_id, ${columns.join(', ')}) values (?${', ?'.repeat(columns.length)})`,
        [b.business.id, ...Object.values(settings)],
      );
  }
  const provider = await app.login(p.user.email, PASSWORD);
  const admin = await app.login(b.users.admin.email, PASSWORD);
  assert.equal(
    (await app.http.put('/v1/provider/webhook-settings', { url: `${receiver.url}/prod` }, { token: provider })).status,
    200,
  );
  const key: string = (
    await app.http.post(`/v1/devices/${b.device.code}/keys`, { name: 'test locker' }, { token: admin })
  ).body.key.secret;
  const events = (id: number): LockerEvent[] =>
    receiver.received.map((r) => JSON.parse(r.body) as LockerEvent).filter((e) => e.data?.delivery_id === String(id));

  return {
    b,
    provider,
    admin,
    key,
    receiver,
    async deliver(
      openMode: 'screen_code' | 'remote_open',
      parcels = [{ reference: `P-${Date.now()}`, size: 'M' }],
    ): Promise<Delivered> {
      const res = await app.http.post(
        '/v1/partner-locker/deliveries',
        {
          device_id: b.device.code,
          parcels,
          recipient: { name: 'Ada', email: 'ada@example.com' },
          open_mode: openMode,
        },
        { token: provider },
      );
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return {
        id: res.body.delivery.id,
        code: res.body.delivery_code,
        doors: res.body.delivery.parcels.map((x: { compartment_number: number }) => x.compartment_number),
      };
    },
    act: (id: number, action: string, body: unknown = {}, lang?: string) =>
      app.http.post(`/v1/partner-locker/deliveries/${id}/${action}`, body, { token: provider, lang }),
    read: async (id: number) =>
      (await app.http.get(`/v1/partner-locker/deliveries/${id}`, { token: provider })).body.delivery,
    screen: (code: string, lang?: string) =>
      app.http.post(`/v1/lockers/${b.device.code}/code`, { code }, { token: key, lang }),
    door: (compartmentNumber: number, state: 'opened' | 'closed', at = new Date()) =>
      app.http.post(
        `/v1/lockers/${b.device.code}/doors`,
        { compartment_number: compartmentNumber, state, at: at.toISOString() },
        { token: key },
      ),
    pickupCode: async (id: number) => {
      const [row] = await app
        .em()
        .execute<{ pickup_code_sealed: string }[]>('select pickup_code_sealed from locker_delivery where id = ?', [id]);
      return openSecret(purposeOf(PICKUP_CODE), row!.pickup_code_sealed);
    },
    held: async (id: number) =>
      (
        await app
          .em()
          .execute<{ n: number }[]>(
            'select count(*)::int as n from compartment_parcel p join locker_delivery_parcel lp on lp.id = p.locker_parcel_id where lp.delivery_id = ?',
            [id],
          )
      )[0]!.n,
    events,
    /** Waits for the delivery's event of this name and checks it against the event's published schema. */
    async event(id: number, name: string): Promise<LockerEvent> {
      const found = await waitFor(async () => events(id).find((e) => e.event === name));
      const validate = ajv.compile(eventDefinition(name)!.payload);
      assert.ok(validate(found), `${name} matches its schema: ${ajv.errorsText(validate.errors)}`);
      return found;
    },
  };
}

export type LockerWorld = Awaited<ReturnType<typeof lockerWorld>>;

/** Starts the service (with `env`) and a locker world (with `settings`) before the file's tests, and stops both after. */
export function lockerSuite(
  env: Record<string, string> = {},
  settings: Record<string, number> = {},
): { app: TestApp; w: LockerWorld } {
  const suite = {} as { app: TestApp; w: LockerWorld };
  before(async () => {
    suite.app = await startApp(env);
    suite.w = await lockerWorld(suite.app, settings);
  });
  after(async () => {
    await suite.app.running.close();
    await suite.w.receiver.close();
  });
  return suite;
}
