import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  pauseSignal,
  progressQuery,
  resumeSignal,
  SECRETS_ROTATION_WORKFLOW,
  type RotationProgress,
  SECRETS_ROTATION_QUEUE,
} from '../../../src/modules/secrets/contract.ts';
import type { secretsRotationWorkflow } from '../../../src/modules/secrets/workflows.ts';
import { verifyWebhook } from '../../../src/modules/webhooks/verify.ts';
import { installSecretKeys, sealedColumns, sealedKeyId, sealingKeyId } from '../../../src/platform/secretBox.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeProvider, PASSWORD } from '../../helpers/factories.ts';
import { startReceiver } from '../../helpers/receiver.ts';
import { waitFor } from '../../helpers/wait.ts';

const SECRET = 'rotation-secret-0123456789';

/** The key id of every sealed value in every declared column, counted. */
async function keysInUse(app: TestApp): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const c of sealedColumns()) {
    const rows = await app
      .em()
      .execute<{ value: string }[]>(`select "${c.column}" as value from "${c.table}" where "${c.column}" is not null`);
    for (const r of rows) counts[sealedKeyId(r.value) ?? 'plain'] = (counts[sealedKeyId(r.value) ?? 'plain'] ?? 0) + 1;
  }
  return counts;
}

describe('key rotation', () => {
  let app: TestApp;
  let oldKey: Buffer;
  const newKey = randomBytes(32);
  const closers: (() => Promise<unknown>)[] = [];
  const rotate = async (args: Parameters<typeof secretsRotationWorkflow>[0] = {}) =>
    app.running.temporal.workflow.start<typeof secretsRotationWorkflow>(SECRETS_ROTATION_WORKFLOW, {
      workflowId: `secrets-rotation-test-${randomUUID()}`,
      taskQueue: SECRETS_ROTATION_QUEUE,
      args: [args],
    });

  before(async () => {
    app = await startApp();
    oldKey = app.config.secretsKeys[0]!;
  });
  after(async () => {
    // Later test files hold only the suite's key: every row goes back under it.
    installSecretKeys([oldKey, newKey]);
    await (await rotate()).result();
    for (const close of closers) await close();
    await app.running.close();
  });

  test('a rotation under load loses no delivery, leaves every row under the new key, and the old key can then go', async () => {
    const b = await makeBusiness(app.em());
    const admin = await app.login(b.users.admin.email, PASSWORD);
    const receiver = await startReceiver(() => 200);
    closers.push(() => receiver.close());
    assert.equal(
      (
        await app.http.put(
          '/v1/webhook-settings',
          { webhook_sign_secret: SECRET, device_order_webhook_url: receiver.url },
          { token: admin },
        )
      ).status,
      200,
    );
    const { user } = await makeProvider(app.em(), 'locker_provider');
    const provider = await app.login(user.email, PASSWORD);
    assert.equal(
      (await app.http.put('/v1/provider/webhook-settings', { url: `${receiver.url}/provider` }, { token: provider }))
        .status,
      200,
    );
    // A rotated provider secret: the previous one is stored too, sealed for the same purpose as the current one.
    assert.equal(
      (await app.http.post('/v1/provider/webhook-settings/rotate-secret', {}, { token: provider })).status,
      200,
    );
    const parcel = (
      await app.http.post(
        '/v1/device-orders',
        {
          kind: 'delivery',
          device_id: b.device.code,
          grid_code: 'A01',
          reference_number: 'R-1',
          due_at: new Date(Date.now() + 3600_000).toISOString(),
        },
        { token: admin },
      )
    ).body;
    /** A signed test event through the whole engine: the settings are read (opened) to send it, and again to deliver it. */
    const send = async () => {
      const res = await app.http.post('/v1/webhook-settings/test', { event: 'device_order.stored' }, { token: admin });
      assert.equal(res.status, 202);
      return res.body.event_id as string;
    };
    const events = [await send()];

    // Every process now holds the new key first and the old one after it.
    installSecretKeys([newKey, oldKey]);
    let sending = true;
    const load = (async () => {
      while (sending) events.push(await send());
    })();
    let done: RotationProgress;
    try {
      done = await (await rotate({ batchSize: 3 })).result();
    } finally {
      sending = false;
      await load;
    }
    assert.ok(events.length > 3, `events sent during the rotation: ${events.length}`);
    assert.equal(done.keyId, sealingKeyId());
    assert.deepEqual(done.unreadable, []);
    assert.ok(done.resealed >= 2, `re-sealed ${done.resealed}: at least this test's settings and provider secret`);
    assert.deepEqual(Object.keys(await keysInUse(app)), [sealingKeyId()], 'every stored secret is under the new key');

    const copies = (id: string) => receiver.received.filter((r) => r.body.includes(id));
    await waitFor(async () => events.every((id) => copies(id).length > 0), 30_000);
    for (const id of events)
      assert.ok(
        copies(id).every(
          (r) => verifyWebhook({ sender: 'tenant', headers: r.headers, rawBody: r.body, secret: SECRET }).valid,
        ),
        `${id} verifies`,
      );
    const collected = await app.http.post(
      `/v1/device-orders/${parcel.device_order.id}/collect`,
      { pickup_code: parcel.pickup_code },
      { token: admin },
    );
    assert.equal(collected.status, 200, 'a code stored under the old key opens while that key is held');

    installSecretKeys([newKey]);
    const later = await send();
    const copy = await waitFor(async () => copies(later)[0], 20_000);
    assert.ok(
      verifyWebhook({ sender: 'tenant', headers: copy.headers, rawBody: copy.body, secret: SECRET }).valid,
      'signs without the old key',
    );
    assert.equal((await app.http.post('/v1/provider/webhook-settings/test', {}, { token: provider })).status, 202);
    installSecretKeys([newKey, oldKey]);
  });

  test('a paused rotation takes no batch until resumed, then finishes', async () => {
    const handle = await app.running.temporal.workflow.signalWithStart<typeof secretsRotationWorkflow, []>(
      SECRETS_ROTATION_WORKFLOW,
      {
        workflowId: `secrets-rotation-test-${randomUUID()}`,
        taskQueue: SECRETS_ROTATION_QUEUE,
        args: [{ batchSize: 2 }],
        signal: pauseSignal,
        signalArgs: [],
      },
    );
    const paused = await waitFor(async () => {
      const p = await handle.query(progressQuery).catch(() => null);
      return p?.paused && p;
    });
    await new Promise((r) => setTimeout(r, 1_000));
    const still = await handle.query(progressQuery);
    assert.equal(still.scanned, 0);
    assert.equal(paused.column, 0);
    await handle.signal(resumeSignal);
    const done = await handle.result();
    assert.equal(done.paused, false);
    assert.equal(done.column, done.columns.length);
    assert.ok(done.scanned > 0);
  });
});
