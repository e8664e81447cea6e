/**
 * Proof of delivery files (docs/routes.md) through the real HTTP API, PostgreSQL, the local file store and a real
 * webhook receiver: the assigned driver uploads (413, 415, 422 for what is not an image; 404 for another driver or
 * business); the signed link downloads without a token and refuses an altered or expired one (403); the stop's event
 * takes the files uploaded before it (attachProofFiles) and a file uploaded after it is sent as pod.files_updated
 * added; staff replace a file, make an archived version current and remove one, each sent with the current image only.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { User } from '../../../src/modules/identity/index.ts';
import { attachProofFiles } from '../../../src/modules/pod-files/index.ts';
import { signFile } from '../../../src/modules/pod-files/signing.ts';
import { hashPassword } from '../../../src/platform/secrets.ts';
import { eventDefinition } from '../../helpers/events.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeOrder, PASSWORD } from '../../helpers/factories.ts';
import { startReceiver } from '../../helpers/receiver.ts';
import { waitFor } from '../../helpers/wait.ts';

const ajv = new Ajv({ strict: false });
formats.default(ajv);
const SECRET = 'pod-files-test-secret-0123456789';

// The smallest well-formed files of each type.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
  Buffer.from('JFIF jpeg body'),
  Buffer.from([0xff, 0xd9]),
]);
const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA4AAAAvAAAAAAcQEf0PRET/Aw==', 'base64');

interface Answer {
  status: number;
  body: any;
  headers: Headers;
  bytes: Buffer;
}

describe('proof of delivery files', () => {
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let other: Awaited<ReturnType<typeof makeBusiness>>;
  let driver: string;
  let driver2: string;
  let otherDriver: string;
  let admin: string;
  let employee: string;
  let otherAdmin: string;
  let orderId: number;

  /** A request with a raw body, or none. */
  async function call(
    method: string,
    path: string,
    opts: { token?: string; type?: string; body?: Buffer } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.type) headers['content-type'] = opts.type;
    // A signed link names the service's public base URL; the test's service listens on a port of its own.
    const url = path.startsWith(app.config.publicBaseUrl)
      ? `${app.url}${path.slice(app.config.publicBaseUrl.length)}`
      : `${app.url}/api${path}`;
    const res = await fetch(url, {
      method,
      headers,
      body: opts.body,
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const json =
      res.headers.get('content-type')?.includes('json') && bytes.length ? JSON.parse(bytes.toString()) : undefined;
    return { status: res.status, body: json, headers: res.headers, bytes };
  }

  const upload = (id: number, token: string, type: string, body: Buffer, query = 'type=photo&service_type=1') =>
    call('POST', `/v1/driver/orders/${id}/pod-files?${query}`, { token, type, body });

  /** The pod.files_updated pushes received for a file, in order. */
  const pushesOf = (fileId: number): any[] =>
    receiver.received
      .filter((r) => r.url === '/pod')
      .map((r) => JSON.parse(r.body))
      .filter((p) => p.data.file.file_id === fileId);
  /** Waits until `count` pushes for the file arrived; answers them. */
  const pushesUntil = (fileId: number, count: number) =>
    waitFor(async () => {
      const pushes = pushesOf(fileId);
      return pushes.length >= count ? pushes : null;
    });

  before(async () => {
    app = await startApp();
    receiver = await startReceiver();
    b = await makeBusiness(app.em());
    other = await makeBusiness(app.em());
    const em = app.em();
    const second = em.create(User, {
      businessId: b.business.id,
      email: `driver2-${b.tag}@test.example`,
      name: `driver2 ${b.tag}`,
      role: 'driver',
      passwordHash: await hashPassword(PASSWORD),
    });
    await em.flush();
    driver = await app.login(b.users.driver.email, PASSWORD);
    driver2 = await app.login(second.email, PASSWORD);
    otherDriver = await app.login(other.users.driver.email, PASSWORD);
    admin = await app.login(b.users.admin.email, PASSWORD);
    employee = await app.login(b.users.employee.email, PASSWORD);
    otherAdmin = await app.login(other.users.admin.email, PASSWORD);
    const put = await app.http.put(
      '/v1/webhook-settings',
      { webhook_sign_secret: SECRET, pod_files_webhook_url: `${receiver.url}/pod` },
      { token: admin },
    );
    assert.equal(put.status, 200, JSON.stringify(put.body));
    // Dispatch assigns orders to drivers; until it does, the order is given its driver here.
    orderId = (await makeOrder(app.em(), b.business.id, { driverId: b.users.driver.id })).id;
  });
  after(async () => {
    await app.running.close();
    await receiver.close();
  });

  test('the assigned driver uploads a photo; its signed link downloads it without a token', async () => {
    const res = await upload(orderId, driver, 'image/png', PNG);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const file = res.body.file;
    assert.equal(file.type, 'photo');
    assert.equal(file.service_type, 1);
    assert.equal(file.service_status, null);
    assert.equal(file.tracking_event_id, null);
    assert.equal(file.url, `/api/v1/pod-files/${file.file_id}/content`);
    assert.equal(file.versions.length, 1);
    assert.equal(file.versions[0].current, true);
    assert.equal(file.versions[0].size_bytes, PNG.length);
    assert.ok(file.full_url.startsWith(`${app.config.publicBaseUrl}${file.url}?expires=`), file.full_url);
    const got = await call('GET', file.full_url);
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('content-type'), 'image/png');
    assert.equal(got.headers.get('cache-control'), 'private');
    assert.deepEqual(got.bytes, PNG);
  });

  test('an altered or expired link answers 403, the same for both', async () => {
    const file = (await upload(orderId, driver, 'image/webp', WEBP)).body.file;
    const link = new URL(file.full_url);
    const signature = link.searchParams.get('signature')!;
    const altered = new URL(link);
    altered.searchParams.set('signature', `${signature[0] === 'a' ? 'b' : 'a'}${signature.slice(1)}`);
    const later = new URL(link);
    later.searchParams.set('expires', String(Number(link.searchParams.get('expires')) + 3600));
    const past = Math.floor(Date.now() / 1000) - 60;
    const expired = new URL(link);
    expired.searchParams.set('expires', String(past));
    expired.searchParams.set('signature', signFile(file.file_id, file.versions[0].version_id, past));
    for (const url of [altered, later, expired]) {
      const res = await call('GET', url.toString());
      assert.equal(res.status, 403, url.toString());
      assert.equal(res.body.code, 'POD_FILE_LINK_INVALID');
    }
    assert.equal((await call('GET', link.toString())).status, 200);
  });

  test('size, type and content are checked on upload: 413, 415, 422', async () => {
    const big = await upload(orderId, driver, 'image/jpeg', Buffer.alloc(10 * 1024 * 1024 + 1, 0xff));
    assert.equal(big.status, 413);
    assert.equal(big.body.code, 'PAYLOAD_TOO_LARGE');
    const text = await upload(orderId, driver, 'text/plain', Buffer.from('hello'));
    assert.equal(text.status, 415);
    assert.equal(text.body.code, 'UNSUPPORTED_MEDIA_TYPE');
    const jpegSignature = await upload(orderId, driver, 'image/jpeg', JPEG, 'type=signature&service_type=1');
    assert.equal(jpegSignature.status, 415);
    const empty = await upload(orderId, driver, 'image/png', Buffer.alloc(0));
    assert.equal(empty.status, 422);
    assert.equal(empty.body.code, 'POD_FILE_EMPTY');
    const disguised = await upload(orderId, driver, 'image/jpeg', PNG);
    assert.equal(disguised.status, 422);
    assert.equal(disguised.body.code, 'POD_FILE_NOT_IMAGE');
    const badKind = await upload(orderId, driver, 'image/png', PNG, 'type=video&service_type=1');
    assert.equal(badKind.status, 422);
    assert.equal(badKind.body.code, 'VALIDATION_FAILED');
  });

  test("another driver's or another business's order is 404", async () => {
    assert.equal((await upload(orderId, driver2, 'image/png', PNG)).status, 404);
    assert.equal((await upload(orderId, otherDriver, 'image/png', PNG)).status, 404);
    assert.equal((await call('GET', `/v1/orders/${orderId}/pod-files`, { token: otherAdmin })).status, 404);
    const files = (await call('GET', `/v1/orders/${orderId}/pod-files`, { token: employee })).body.files;
    const fileId = files[0].file_id;
    assert.equal(
      (
        await call('PUT', `/v1/orders/${orderId}/pod-files/${fileId}`, {
          token: otherAdmin,
          type: 'image/png',
          body: PNG,
        })
      ).status,
      404,
    );
    assert.equal(
      (await call('DELETE', `/v1/orders/${orderId}/pod-files/${fileId}`, { token: otherAdmin })).status,
      404,
    );
    // A driver is no staff.
    assert.equal((await call('GET', `/v1/orders/${orderId}/pod-files`, { token: driver })).status, 403);
  });

  test("the stop's event takes the files uploaded before it; one uploaded after is sent as added", async () => {
    const pickup = (await upload(orderId, driver, 'image/png', PNG, 'type=signature&service_type=2')).body.file;
    const event = {
      businessId: b.business.id,
      orderId,
      serviceType: 1 as const,
      serviceStatus: 1 as const,
      trackingEventId: 987654,
      trackingEventStatusId: 3,
      trackingEventKey: 'delivered-1',
    };
    const attached = await app.em().transactional((tx) => attachProofFiles(tx, event, app.config));
    const listed = (await call('GET', `/v1/orders/${orderId}/pod-files`, { token: admin })).body.files;
    const deliveryIds = listed.filter((f: any) => f.service_type === 1).map((f: any) => f.file_id);
    assert.deepEqual(
      attached.map((f) => f.file_id),
      deliveryIds,
    );
    assert.ok(!attached.some((f) => f.file_id === pickup.file_id), 'the pickup file stays with its own stop');
    for (const f of attached) {
      assert.equal(f.tracking_event_id, 987654);
      assert.equal(f.tracking_event_status_id, 3);
      assert.equal(f.tracking_event_key, 'delivered-1');
      assert.equal(f.service_status, 1);
      assert.equal((await call('GET', f.full_url)).status, 200);
    }
    // Linked once: the same stop's next event takes nothing already linked.
    assert.deepEqual(await app.em().transactional((tx) => attachProofFiles(tx, event, app.config)), []);
    // Files in the event were never sent on their own.
    assert.equal(receiver.received.filter((r) => r.url === '/pod').length, 0);

    const late = (await upload(orderId, driver, 'image/jpeg', JPEG)).body.file;
    assert.equal(late.tracking_event_id, 987654);
    assert.equal(late.service_status, 1);
    const [push] = await pushesUntil(late.file_id, 1);
    assert.equal(push.event, 'pod.files_updated');
    assert.equal(push.event_id, `PFU-${late.file_id}.1`);
    assert.equal(push.data.action, 'added');
    assert.equal(push.data.order.id, orderId);
    assert.equal(push.data.file.tracking_event_key, 'delivered-1');
    assert.equal(push.data.file.service_type, 1);
    assert.ok(ajv.validate(eventDefinition('pod.files_updated')!.payload, push), JSON.stringify(ajv.errors));
  });

  test('staff replace a file, make an archived version current and remove it; each push carries the current image only', async () => {
    const before = (await call('GET', `/v1/orders/${orderId}/pod-files`, { token: admin })).body.files;
    const file = before.find((f: any) => f.tracking_event_id !== null);
    const firstVersion = file.versions[0];
    const replaced = await call('PUT', `/v1/orders/${orderId}/pod-files/${file.file_id}`, {
      token: employee,
      type: 'image/webp',
      body: WEBP,
    });
    assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
    assert.equal(replaced.body.file.versions.length, 2);
    assert.deepEqual(
      replaced.body.file.versions.map((v: any) => v.current),
      [false, true],
    );
    const pushes = await pushesUntil(file.file_id, 1);
    const updated = pushes.at(-1);
    assert.equal(updated.data.action, 'updated');
    assert.equal(updated.data.file.versions, undefined, 'archived versions are never sent');
    const current = await call('GET', updated.data.file.full_url);
    assert.equal(current.status, 200);
    assert.deepEqual(current.bytes, WEBP);
    assert.equal((await call('GET', file.full_url)).status, 403, 'the replaced image no longer opens');
    assert.ok(ajv.validate(eventDefinition('pod.files_updated')!.payload, updated), JSON.stringify(ajv.errors));

    const made = await call(
      'POST',
      `/v1/orders/${orderId}/pod-files/${file.file_id}/versions/${firstVersion.version_id}/make-current`,
      { token: admin },
    );
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.deepEqual(
      made.body.file.versions.map((v: any) => v.current),
      [true, false],
    );
    const afterMake = await pushesUntil(file.file_id, pushes.length + 1);
    const madePush = afterMake.at(-1);
    assert.equal(madePush.data.action, 'updated');
    assert.deepEqual(
      (await call('GET', madePush.data.file.full_url)).bytes,
      (await call('GET', firstVersion.full_url)).bytes,
    );

    const removed = await call('DELETE', `/v1/orders/${orderId}/pod-files/${file.file_id}`, { token: admin });
    assert.equal(removed.status, 200);
    const afterRemove = await pushesUntil(file.file_id, afterMake.length + 1);
    assert.equal(afterRemove.at(-1).data.action, 'removed');
    assert.equal((await call('GET', madePush.data.file.full_url)).status, 403);
    const left = (await call('GET', `/v1/orders/${orderId}/pod-files`, { token: admin })).body.files;
    assert.ok(!left.some((f: any) => f.file_id === file.file_id));
    assert.equal(
      (await call('DELETE', `/v1/orders/${orderId}/pod-files/${file.file_id}`, { token: admin })).status,
      404,
    );

    const [{ n }] = (await app
      .em()
      .execute<{ n: number }[]>(
        "select count(*)::int as n from order_operation_event where order_id = ? and operation_type = 4021 and details->>'file_id' = ?",
        [orderId, String(file.file_id)],
      )) as [{ n: number }];
    assert.equal(n, 4, 'upload, replace, make-current and removal are in the audit trail');
  });
});
