// Two guarantees of the webhook engine, proven with real parts (PostgreSQL, Temporal dev server, an HTTP
// receiver, the worker as its own OS process):
// - a worker killed (SIGKILL, no shutdown hook runs) while an attempt is in flight loses nothing: the
//   delivery is finished by the next worker, every copy signed and carrying the same ids;
// - a Temporal server restarted while a retry workflow sleeps keeps that workflow, which then delivers.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startTemporalDevServer, type DevServer } from '../../src/launchers/temporalServer.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { verifyWebhook } from '../../src/modules/webhooks/verify.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { freePort } from '../../src/launchers/startup.ts';
import type { Received } from '../helpers/receiver.ts';
import { retryWorkflowOf } from '../helpers/retryWorkflow.ts';
import { tenantWithReceiver } from '../helpers/webhookTenant.ts';
import { waitFor } from '../helpers/wait.ts';
import { spawnRole, stopChild } from '../helpers/roles.ts';

const SECRET = 'restart-secret-0123456789';

interface DeliveryRow {
  id: number;
  delivery_key: string;
  status: string;
  attempts: number;
  retry_workflow_id: string | null;
  leased: boolean;
}

async function deliveryOf(app: TestApp, eventId: string): Promise<DeliveryRow | undefined> {
  const [row] = await app.em().execute<DeliveryRow[]>(
    `select id, delivery_key, status, attempts, retry_workflow_id, coalesce(locked_until > now(), false) as leased
     from webhook_delivery where event_id = ?`,
    [eventId],
  );
  return row;
}

/** Duplicates are allowed (at least once), but each copy must be signed and carry the delivery's ids. */
function assertSameSignedCopies(received: Received[], delivery: DeliveryRow, eventId: string): void {
  for (const r of received) {
    assert.deepEqual(verifyWebhook({ sender: 'tenant', secret: SECRET, headers: r.headers, rawBody: r.body }), {
      valid: true,
    });
    assert.equal(r.headers['x-webhook-event-id'], delivery.delivery_key, 'X-Webhook-Event-Id is fixed per delivery');
    assert.equal(JSON.parse(r.body).event_id, eventId);
  }
}

/** Waits until the delivery is finished, either way: a dead letter fails the test at once with its state. */
async function finished(app: TestApp, eventId: string, timeoutMs: number): Promise<DeliveryRow> {
  const d = await waitFor(
    async () => {
      const row = await deliveryOf(app, eventId);
      return (row?.status === 'delivered' || row?.status === 'dead') && row;
    },
    timeoutMs,
    250,
  );
  assert.equal(d.status, 'delivered', `delivery ended ${d.status} after ${d.attempts} attempts`);
  return d;
}

async function workflowResult(app: TestApp, deliveryId: number): Promise<unknown> {
  return (await retryWorkflowOf(app, deliveryId)).result();
}

/** `npm run worker` (Temporal worker and outbox relay) as a child process, so that the test can SIGKILL it. */
const spawnWorker = async (children: Set<ChildProcess>): Promise<ChildProcess> =>
  (await spawnRole('worker', { WEBHOOK_RETRY_SCALE: '0.001', WEBHOOK_LEASE_MARGIN_SEC: '5' }, children)).child;

describe('webhook delivery survives a worker killed mid-attempt', () => {
  let app: TestApp;
  const children = new Set<ChildProcess>();
  // The API only: the worker and the relay run in child processes that the tests kill.
  before(async () => {
    app = await startApp({}, { worker: false });
  });
  after(async () => {
    for (const child of children) await stopChild(child, 'SIGKILL');
    await app.running.close();
  });

  // Would fail if the relay published the event before its first attempt was written (the killed relay's event
  // would never be claimed again and would be lost with the process), or if the delivery key were drawn anew on
  // each claim instead of derived from the event (the two copies would carry different ids).
  test(
    "killed during the relay's first attempt: the claim is released and the next relay sends the event again under the same key",
    { timeout: 180_000 },
    async () => {
      const tenant = await tenantWithReceiver(app, (n) => (n === 0 ? 'hang' : 200), SECRET);
      const first = await spawnWorker(children);
      try {
        const { eventId } = await tenant.store();
        await waitFor(async () => tenant.receiver.received.length >= 1);
        await stopChild(first, 'SIGKILL');

        // The scenario as intended: attempt 1 was in flight, so nothing was written and the event is still unpublished.
        assert.equal(await deliveryOf(app, eventId), undefined);
        const [event] = await app
          .em()
          .execute<{ published: boolean }[]>(
            'select published_at is not null as published from outbox_event where event_id = ?',
            [eventId],
          );
        assert.equal(event?.published, false);

        const second = await spawnWorker(children);
        try {
          const delivered = await finished(app, eventId, 60_000);
          assert.ok(tenant.receiver.received.length >= 2, 'the hung attempt, then at least one answered 200');
          assertSameSignedCopies(tenant.receiver.received, delivered, eventId);
          assert.deepEqual(
            [delivered.attempts, delivered.retry_workflow_id],
            [1, null],
            'the second relay made the first attempt written',
          );
        } finally {
          await stopChild(second, 'SIGTERM');
        }
      } finally {
        await tenant.receiver.close();
      }
    },
  );

  // Would fail if the activity had no heartbeat timeout (it would wait for the dead worker for its 2 minutes),
  // if the attempt's lease never expired (the workflow would find it leased until the delivery is dead-lettered),
  // or if a retry were built with new ids.
  test(
    'killed during a retry made by the workflow: the activity misses its heartbeat and the next worker delivers',
    { timeout: 180_000 },
    async () => {
      const tenant = await tenantWithReceiver(app, (n) => (n === 0 ? 500 : n === 1 ? 'hang' : 200), SECRET);
      const first = await spawnWorker(children);
      try {
        const { eventId } = await tenant.store();
        await waitFor(async () => tenant.receiver.received.length >= 2);
        await stopChild(first, 'SIGKILL');

        // Attempt 2 came from the workflow's activity and was in flight: leased, not recorded.
        const inFlight = (await deliveryOf(app, eventId))!;
        assert.deepEqual(
          [inFlight.status, inFlight.attempts, !!inFlight.retry_workflow_id, inFlight.leased],
          ['retrying', 2, true, true],
        );

        const second = await spawnWorker(children);
        try {
          // The heartbeat times out after 15 s; the new worker attempts the delivery once its lease (3 s + a 5 s margin here) has ended.
          const delivered = await finished(app, eventId, 120_000);
          assert.ok(
            tenant.receiver.received.length >= 3,
            'a refused attempt, the hung one, then at least one answered 200',
          );
          assertSameSignedCopies(tenant.receiver.received, delivered, eventId);
          assert.deepEqual(await workflowResult(app, delivered.id), { delivered: 1, dead: 0 });
        } finally {
          await stopChild(second, 'SIGTERM');
        }
      } finally {
        await tenant.receiver.close();
      }
    },
  );
});

describe('webhook delivery survives a Temporal server restart', () => {
  const log = createLogger('silent');
  let dir: string;
  let port: number;
  let server: DevServer;
  let app: TestApp;
  // A server of its own, persisted in SQLite: the suite's shared server is in memory and must not restart.
  const startServer = () =>
    startTemporalDevServer(
      {
        port,
        uiPort: 0,
        namespace: process.env.TEMPORAL_NAMESPACE ?? 'default',
        headless: true,
        dbFile: path.join(dir, 'temporal.db'),
      },
      log,
    );

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tms-temporal-restart-'));
    port = await freePort();
    server = await startServer();
    // Scale 0.01: waits of 0.1 s, 1 s, 10 s, 100 s; the 10 s one is the sleep the restart happens in.
    app = await startApp({ TEMPORAL_ADDRESS: server.address, WEBHOOK_RETRY_SCALE: '0.01' });
  });
  after(async () => {
    await app?.running.close();
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // Would fail if the dev server kept its state in memory (no dbFile): the sleeping workflow would vanish
  // with it, and since the delivery is marked as driven, the sweep would never adopt it.
  test(
    'a retry workflow sleeping through the restart wakes up and delivers with the same ids',
    { timeout: 180_000 },
    async () => {
      const tenant = await tenantWithReceiver(app, () => 500, SECRET);
      try {
        const { eventId } = await tenant.store();
        const { id } = await waitFor(async () => {
          const d = await deliveryOf(app, eventId);
          return d?.retry_workflow_id ? d : undefined;
        });
        const handle = await retryWorkflowOf(app, id);
        const completed = (events: { activityTaskCompletedEventAttributes?: unknown }[]) =>
          events.filter((e) => e.activityTaskCompletedEventAttributes).length;
        const attemptsRecorded = async () => completed((await handle.fetchHistory()).events ?? []);
        // Attempt 1 (relay) and attempts 2 and 3 (workflow) refused; the workflow is now in its 10 s timer.
        await waitFor(async () => {
          const events = (await handle.fetchHistory()).events ?? [];
          return completed(events) === 2 && !!events.at(-1)?.timerStartedEventAttributes;
        }, 30_000);
        const sentBeforeRestart = tenant.receiver.received.length;

        await server.stop();
        tenant.receiver.behave(() => 200);
        server = await startServer();

        const delivered = await finished(app, eventId, 90_000);
        assert.deepEqual(await handle.result(), { delivered: 1, dead: 0 });
        assert.ok(
          (await attemptsRecorded()) > 2,
          'the history from before the restart is still there, followed by the delivering attempt',
        );
        assert.ok(tenant.receiver.received.length > sentBeforeRestart, 'the delivering attempt came after the restart');
        assertSameSignedCopies(tenant.receiver.received, delivered, eventId);
      } finally {
        await tenant.receiver.close();
      }
    },
  );
});
