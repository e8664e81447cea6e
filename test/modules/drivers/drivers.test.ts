import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { planningDrivers } from '../../../src/modules/drivers/index.ts';
import { eventDefinition } from '../../helpers/events.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, PASSWORD } from '../../helpers/factories.ts';
import { callTool } from '../../helpers/mcp.ts';
import { startReceiver } from '../../helpers/receiver.ts';
import { waitFor } from '../../helpers/wait.ts';
import { NOT_BLANK_PATTERN } from '../../../src/platform/catalog/text.ts';

const ajv = new Ajv({ strict: false });
formats.default(ajv);

/** A documentation address (RFC 5737) of its own, so each registration starts with an empty window. */
const freshAddress = () => `203.0.${randomInt(0, 256)}.${randomInt(1, 255)}`;
const from = (address: string, lang?: string) => ({ headers: { 'x-forwarded-for': address }, lang });
const email = (name: string) => `${name}-${randomUUID().slice(0, 8)}@test.example`;

const DAY = {
  capacity: { weight_kg: 750.5, volume_l: 5000, parcels: 90 },
  skills: ['refrigerated', 'two_person', 'refrigerated'],
  shift: { start: '07:00', end: '19:00' },
  breaks: [{ start: '11:00', end: '13:00', minutes: 30 }],
  depot: { lat: 50.0755, lng: 14.4378 },
  max_route_minutes: 600,
  vehicle: 'Van',
  phone: '+420 601 123 456',
};

describe('drivers', () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let other: Awaited<ReturnType<typeof makeBusiness>>;
  let admin: string;
  let employee: string;
  let otherAdmin: string;

  before(async () => {
    // The test plays the proxy: it writes the client address into X-Forwarded-For.
    app = await startApp({ RATE_LIMIT_DRIVER_REGISTER: '2/3600', TRUSTED_PROXY_HOPS: '1' });
    b = await makeBusiness(app.em());
    other = await makeBusiness(app.em());
    admin = await app.login(b.users.admin.email, PASSWORD);
    employee = await app.login(b.users.employee.email, PASSWORD);
    otherAdmin = await app.login(other.users.admin.email, PASSWORD);
  });
  after(async () => {
    await app.running.close();
  });

  const create = (body: Record<string, unknown>, token = admin) => app.http.post('/v1/drivers', body, { token });
  const register = (body: Record<string, unknown>, address = freshAddress(), lang?: string) =>
    app.http.post('/v1/driver/register', body, from(address, lang));
  const login = (mail: string, password = PASSWORD) =>
    app.http.post('/v1/user/login', { email: mail, password }, from(freshAddress()));

  test('a client admin creates a driver with its day; the staff read it, the driver signs in, planning reads it', async () => {
    const mail = email('van');
    const res = await create({ name: 'Van Driver', email: mail, password: PASSWORD, ...DAY });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const d = res.body.driver;
    assert.equal(d.status, 'active');
    assert.equal(d.on_duty, false);
    assert.deepEqual(d.capacity, DAY.capacity);
    assert.deepEqual(d.skills, ['refrigerated', 'two_person']);
    assert.deepEqual(d.shift, DAY.shift);
    assert.deepEqual(d.breaks, DAY.breaks);
    assert.deepEqual(d.depot, DAY.depot);
    assert.equal(d.max_route_minutes, 600);
    assert.equal(d.phone, '+420601123456');
    assert.equal(d.position, null);

    assert.equal((await login(mail)).status, 200);
    const driverToken = await app.login(mail, PASSWORD);
    const fix = await app.http.post('/v1/driver/location', { lat: 50.08, lng: 14.42 }, { token: driverToken });
    assert.equal(fix.status, 200, JSON.stringify(fix.body));

    const list = await app.http.get('/v1/drivers?per_page=200', { token: employee });
    assert.equal(list.status, 200, JSON.stringify(list.body));
    const listed = list.body.drivers.find((x: { id: number }) => x.id === d.id);
    assert.deepEqual(listed.position && [listed.position.lat, listed.position.lng], [50.08, 14.42]);
    // The factory's driver has no record: it reads as active, without limits.
    const plain = list.body.drivers.find((x: { id: number }) => x.id === b.users.driver.id);
    assert.equal(plain.status, 'active');
    assert.deepEqual(plain.capacity, { weight_kg: null, volume_l: null, parcels: null });

    const [planned] = await planningDrivers(app.em(), b.business.id, [d.id]);
    assert.deepEqual(planned, {
      driverId: d.id,
      name: 'Van Driver',
      status: 'active',
      onDuty: false,
      capacity: { weightKg: 750.5, volumeL: 5000, parcels: 90 },
      skills: ['refrigerated', 'two_person'],
      shift: { start: '07:00', end: '19:00' },
      breaks: DAY.breaks,
      depot: DAY.depot,
      maxRouteMinutes: 600,
      position: { lat: 50.08, lng: 14.42, recordedAt: planned!.position!.recordedAt },
    });
    assert.deepEqual(await planningDrivers(app.em(), other.business.id, [d.id]), []);

    const tool = await callTool(app.url, employee, 'get_drivers', { status: 'active' });
    assert.equal(tool.isError, false, JSON.stringify(tool.body));
    assert.ok(tool.body.drivers.some((x: { id: number }) => x.id === d.id));
    assert.ok(tool.body.drivers.every((x: { status: string }) => x.status === 'active'));

    const gql = await app.http.graphql(
      `query { drivers(on_duty: "false", per_page: 200) { total drivers { id status capacity { parcels } } } }`,
      {},
      { token: admin },
    );
    const viaGraphql = gql.body.data?.drivers.drivers.find((x: { id: number }) => x.id === d.id);
    assert.deepEqual(viaGraphql, { id: d.id, status: 'active', capacity: { parcels: 90 } }, JSON.stringify(gql.body));

    const taken = await create({ name: 'Again', email: mail, password: PASSWORD });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.code, 'EMAIL_TAKEN');
  });

  test('the demo drivers have their day from the seed', async () => {
    const [demo] = await app.em().execute<{ id: number }[]>("select id from business where code = 'DEMO'");
    const drivers = await planningDrivers(app.em(), demo!.id);
    const seeded = drivers.filter((d) => d.name.startsWith('Demo Driver'));
    assert.equal(seeded.length, 2);
    for (const d of seeded) {
      assert.equal(d.status, 'active');
      assert.deepEqual(d.shift, { start: '07:00', end: '19:00' });
      assert.ok(d.depot && d.capacity.weightKg);
    }
  });

  test('an update changes only what it sends; a break outside the kept shift is refused', async () => {
    const res = await create({ name: 'Car Driver', email: email('car'), password: PASSWORD, ...DAY });
    const id: number = res.body.driver.id;
    const put = await app.http.put(
      `/v1/drivers/${id}`,
      { capacity: { parcels: null }, skills: [], depot: null, vehicle: 'Car' },
      { token: admin },
    );
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.deepEqual(put.body.driver.capacity, { weight_kg: 750.5, volume_l: 5000, parcels: null });
    assert.deepEqual(put.body.driver.skills, []);
    assert.equal(put.body.driver.depot, null);
    assert.equal(put.body.driver.vehicle, 'Car');
    assert.deepEqual(put.body.driver.shift, DAY.shift);

    const outside = await app.http.put(
      `/v1/drivers/${id}`,
      { breaks: [{ start: '18:30', end: '19:30', minutes: 20 }] },
      { token: admin, lang: 'de' },
    );
    assert.equal(outside.status, 422, JSON.stringify(outside.body));
    assert.equal(outside.body.errors[0].field, 'breaks.0');
    assert.equal(outside.body.errors[0].message, 'Eine Pause muss innerhalb der Schicht liegen.');
    // A shift that leaves the kept break outside is refused too.
    const shorter = await app.http.put(
      `/v1/drivers/${id}`,
      { shift: { start: '12:00', end: '18:00' } },
      { token: admin },
    );
    assert.equal(shorter.status, 422);
    const read = await app.http.get(`/v1/drivers/${id}`, { token: admin });
    assert.deepEqual(read.body.driver.shift, DAY.shift);
    assert.deepEqual(read.body.driver.breaks, DAY.breaks);
  });

  test("another business sees nothing of a business's drivers; employees and drivers do not write", async () => {
    const res = await create({ name: 'Own Driver', email: email('own'), password: PASSWORD });
    const id: number = res.body.driver.id;
    assert.equal((await app.http.get(`/v1/drivers/${id}`, { token: otherAdmin })).status, 404);
    assert.equal((await app.http.put(`/v1/drivers/${id}`, { vehicle: 'X' }, { token: otherAdmin })).status, 404);
    assert.equal((await app.http.post(`/v1/drivers/${id}/suspend`, {}, { token: otherAdmin })).status, 404);
    const list = await app.http.get('/v1/drivers?per_page=200', { token: otherAdmin });
    assert.equal(list.status, 200);
    assert.ok(list.body.drivers.every((x: { id: number }) => x.id !== id && x.id !== b.users.driver.id));
    // An account of the business that is not a driver is no driver.
    assert.equal((await app.http.get(`/v1/drivers/${b.users.employee.id}`, { token: admin })).status, 404);

    assert.equal((await app.http.put(`/v1/drivers/${id}`, { vehicle: 'X' }, { token: employee })).status, 403);
    const driverToken = await app.login(b.users.driver.email, PASSWORD);
    assert.equal((await app.http.get('/v1/drivers', { token: driverToken })).status, 403);
  });

  test('bad input answers 422 and writes nothing', async () => {
    const mail = email('bad');
    const bodies: Record<string, unknown>[] = [
      { name: 'Nul\u0000Name' },
      { capacity: { weight_kg: 1e308 } },
      { capacity: { parcels: 2.5 } },
      // Under a gram or a millilitre would be stored as 0 (found by the long fuzz run: 5e-324 answered 500).
      { capacity: { weight_kg: 5e-324 } },
      { capacity: { volume_l: 0.0004 } },
      { max_route_minutes: 99999999999 },
      { skills: ['Refrigerated'] },
      { skills: Array.from({ length: 21 }, (_, i) => `s${i}`) },
      { shift: { start: '19:00', end: '07:00' } },
      { shift: { start: '24:00', end: '25:00' } },
      { shift: DAY.shift, breaks: [{ start: '06:00', end: '08:00', minutes: 30 }] },
      { breaks: [{ start: '10:00', end: '10:20', minutes: 30 }] },
      { breaks: Array.from({ length: 4 }, () => ({ start: '10:00', end: '11:00', minutes: 5 })) },
      { depot: { lat: 91, lng: 0 } },
      { phone: '12' },
      { unknown: 1 },
    ];
    for (const extra of bodies) {
      const res = await create({ name: 'Bad', email: mail, password: PASSWORD, ...extra });
      assert.equal(res.status, 422, `${JSON.stringify(extra)}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    const [row] = await app
      .em()
      .execute<{ n: number }[]>('select count(*)::int as n from app_user where email = ?', [mail]);
    assert.equal(row!.n, 0);
  });

  test('a registered driver is pending and signs in only once approved; a taken email is answered the same', async () => {
    const mail = email('self');
    const body = {
      client_code: b.business.code,
      name: 'Self Registered',
      email: mail,
      password: 'a good password',
      phone: '+420601123456',
      capacity: { weight_kg: 300 },
      skills: ['adr'],
    };
    const res = await register(body);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.status, 'pending');
    const again = await register({ ...body, password: 'another password' });
    assert.equal(again.status, 202);
    assert.deepEqual(again.body, res.body);
    const taken = await register({ ...body, email: b.users.admin.email });
    assert.deepEqual([taken.status, taken.body], [202, res.body]);
    // The admin's account is untouched.
    assert.equal((await login(b.users.admin.email)).status, 200);

    // Answered as a wrong password is, for an email nobody has.
    const wrong = await login(email('nobody'), 'a good password');
    const refused = await login(mail, 'a good password');
    assert.equal(refused.status, 401);
    assert.deepEqual(refused.body, wrong.body);

    const pending = await app.http.get('/v1/drivers?status=pending', { token: admin });
    const d = pending.body.drivers.find((x: { email: string }) => x.email === mail);
    assert.equal(d.status, 'pending');
    assert.equal(d.phone, '+420601123456');
    assert.deepEqual(d.skills, ['adr']);

    // A reason of blanks is no reason: refused, naming the field, and the published schema says so (not only blanks).
    for (const step of ['reject', 'suspend']) {
      const blank = await app.http.post(`/v1/drivers/${d.id}/${step}`, { reason: '\n ' }, { token: admin });
      assert.deepEqual([blank.status, blank.body.errors?.[0]?.field], [422, 'reason'], JSON.stringify(blank.body));
    }
    const published = (await app.http.get('/openapi.json')).body.paths['/v1/drivers/{id}/suspend'].post.requestBody
      .content['application/json'].schema.properties.reason;
    assert.equal(published.pattern, NOT_BLANK_PATTERN, JSON.stringify(published));
    const rejected = await app.http.post(`/v1/drivers/${d.id}/reject`, { reason: 'No licence yet' }, { token: admin });
    assert.equal(rejected.status, 200, JSON.stringify(rejected.body));
    assert.equal(rejected.body.driver.rejected_reason, 'No licence yet');
    assert.equal((await login(mail, 'a good password')).status, 401);
    const rejectAgain = await app.http.post(`/v1/drivers/${d.id}/reject`, { reason: 'x' }, { token: admin });
    assert.equal(rejectAgain.status, 409);
    assert.equal(rejectAgain.body.code, 'DRIVER_STATUS_CONFLICT');

    const approved = await app.http.post(`/v1/drivers/${d.id}/approve`, {}, { token: admin });
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    assert.equal(approved.body.driver.status, 'active');
    assert.equal((await login(mail, 'a good password')).status, 200);
    assert.equal((await app.http.post(`/v1/drivers/${d.id}/approve`, {}, { token: admin })).status, 409);

    const unknown = await register({ ...body, email: email('x'), client_code: 'NO-SUCH-CODE' });
    assert.deepEqual([unknown.status, unknown.body.code], [404, 'NOT_FOUND'], JSON.stringify(unknown.body));
    assert.equal(unknown.body.message, 'No business has this client code.');
  });

  test('registrations are limited per address', async () => {
    const address = freshAddress();
    const body = () => ({
      client_code: b.business.code,
      name: 'Flood',
      email: email('flood'),
      password: 'a good password',
      phone: '+420601123456',
    });
    assert.equal((await register(body(), address)).status, 202);
    assert.equal((await register(body(), address)).status, 202);
    const refused = await register(body(), address);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.code, 'RATE_LIMITED');
    assert.equal(refused.headers.get('ratelimit-policy'), '"driver_register";q=2;w=3600');
    assert.equal((await register(body(), freshAddress())).status, 202);
  });

  test('duty changes reach the lifecycle receiver once each; a suspension ends the sessions and the duty', async () => {
    const receiver = await startReceiver();
    try {
      const c = await makeBusiness(app.em());
      const cAdmin = await app.login(c.users.admin.email, PASSWORD);
      const put = await app.http.put(
        '/v1/webhook-settings',
        {
          webhook_sign_secret: 'duty-secret-0123456789',
          order_lifecycle_webhook_url: `${receiver.url}/lifecycle`,
          order_lifecycle_events: 'driver.on_duty_changed',
        },
        { token: cAdmin },
      );
      assert.equal(put.status, 200, JSON.stringify(put.body));
      const driverId = c.users.driver.id;
      const token = await app.login(c.users.driver.email, PASSWORD);
      const duty = (on: boolean) => app.http.post('/v1/driver/duty', { on_duty: on }, { token });

      const on = await duty(true);
      assert.equal(on.status, 200, JSON.stringify(on.body));
      assert.deepEqual([on.body.on_duty, on.body.changed], [true, true]);
      const same = await duty(true);
      assert.deepEqual([same.body.on_duty, same.body.changed], [true, false]);

      const events = () =>
        receiver.received.filter((r) => r.url === '/lifecycle').map((r) => JSON.parse(r.body) as any);
      const first: any = await waitFor(async () => events()[0]);
      const validate = ajv.compile(eventDefinition('driver.on_duty_changed')!.payload);
      assert.equal(validate(first), true, ajv.errorsText(validate.errors));
      assert.equal(first.event_id, `DOD-${driverId}.1`);
      assert.equal(first.business_id, c.business.id);
      assert.equal(first.data.driver_id, driverId);
      assert.equal(first.data.on_duty, true);
      assert.ok(Date.parse(first.data.changed_at) > 0);

      const suspended = await app.http.post(`/v1/drivers/${driverId}/suspend`, {}, { token: cAdmin });
      assert.equal(suspended.status, 200, JSON.stringify(suspended.body));
      assert.equal(suspended.body.driver.on_duty, false);
      assert.equal((await duty(false)).status, 401);
      assert.equal((await login(c.users.driver.email)).status, 401);

      const second = await waitFor(async () => events().find((e) => e.event_id === `DOD-${driverId}.2`));
      assert.equal(second.data.on_duty, false);
      const [row] = await app
        .em()
        .execute<{ n: number }[]>(
          "select count(*)::int as n from outbox_event where event_type = 'driver.on_duty_changed' and reference_type = 'driver' and reference_id = ?",
          [String(driverId)],
        );
      assert.equal(row!.n, 2);
      assert.ok(events().every((e) => e.data.driver_id === driverId));

      const unsuspended = await app.http.post(`/v1/drivers/${driverId}/approve`, {}, { token: cAdmin });
      assert.equal(unsuspended.body.driver.status, 'active');
      assert.equal((await login(c.users.driver.email)).status, 200);
    } finally {
      await receiver.close();
    }
  });
});
