/**
 * The partner locker delivery workflow with its activities mocked: the code expiry, the deposit settled by a call,
 * by remote doors closing or after the deposit timeout, the pickup and its expiry, refused updates, and changes run
 * one at a time.
 */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import {
  confirmUpdate,
  correctionUpdate,
  doorSignal,
  LOCKER_CORRECTION_CLOSED,
  LOCKER_DELIVERY_WORKFLOW,
  LOCKER_INVALID_TRANSITION,
  lockerDeliveryWorkflowId,
  lockerStatusQuery,
  openUpdate,
  pickupOpenUpdate,
  type LockerDeliveryActivities,
  type LockerDeliveryInput,
  type LockerDeliverySnapshot,
  type LockerTransitionInput,
  type NoticeInput,
} from '../../../src/modules/locker-deliveries/contract.ts';
import { TRANSITIONS, type LockerDeliveryStatus } from '../../../src/modules/locker-deliveries/domain.ts';
import type { lockerDeliveryWorkflow } from '../../../src/modules/locker-deliveries/workflows.ts';
import { withMockedWorker, type MockedWorker } from '../../helpers/mockedWorker.ts';
import { waitFor } from '../../helpers/wait.ts';

const DOORS = [3, 4];

/**
 * A read model that applies what the domain's transitions allow, as the repo does, and records each call; a
 * confirmed deposit expires `pickupMs` later. `inFlight` tracks transitions that overlap (there must be none).
 */
function readModel(pickupMs = 60_000) {
  let status: LockerDeliveryStatus = 'awaiting_deposit';
  let pickupExpiresAt: string | null = null;
  const calls: LockerTransitionInput[] = [];
  const notices: NoticeInput[] = [];
  let inFlight = 0;
  let overlapped = false;
  const snapshot = (id: number): LockerDeliverySnapshot => ({
    id,
    status,
    parcels: DOORS.map((n) => ({ compartment_number: n })),
    pickup_expires_at: pickupExpiresAt,
  });
  const activities: LockerDeliveryActivities = {
    async applyLockerTransition(input) {
      calls.push(input);
      inFlight += 1;
      overlapped ||= inFlight > 1;
      await new Promise((r) => setTimeout(r, 50));
      inFlight -= 1;
      const t = TRANSITIONS[input.action];
      if (!(t.from as readonly LockerDeliveryStatus[]).includes(status))
        throw ApplicationFailure.create({ type: LOCKER_INVALID_TRANSITION, nonRetryable: true });
      status = t.to;
      if (input.action === 'confirm') pickupExpiresAt = new Date(Date.now() + pickupMs).toISOString();
      return snapshot(input.id);
    },
    async rotateCode(input) {
      return { view: snapshot(input.id), recipientNotified: false };
    },
    async notifyRecipient(input) {
      notices.push(input);
      return 'sent';
    },
    async simulateDoorReports() {},
    async abandonRecipientNotice() {},
  };
  return { calls, notices, activities, overlapped: () => overlapped };
}

function start(w: MockedWorker, overrides: Partial<LockerDeliveryInput> = {}) {
  const input: LockerDeliveryInput = {
    id: randomInt(1, 2 ** 31),
    deliveryCodeExpiresAt: new Date(Date.now() + 60_000).toISOString(),
    openMode: 'screen_code',
    depositTimeoutMs: 60_000,
    correctionWindowMs: 60_000,
    notifyRetryScale: 0.001,
    codeRotationMs: 0,
    simulatedDoorsMs: null,
    ...overrides,
  };
  return w.client.workflow.start<typeof lockerDeliveryWorkflow>(LOCKER_DELIVERY_WORKFLOW, {
    workflowId: `${lockerDeliveryWorkflowId(input.id)}-${randomInt(1, 2 ** 31)}`,
    taskQueue: w.taskQueue,
    args: [input],
  });
}

async function refusal(update: Promise<unknown>): Promise<string | undefined> {
  const err = await update.then(
    () => assert.fail('the update was accepted'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof WorkflowUpdateFailedError, String(err));
  return (err.cause as ApplicationFailure).type ?? undefined;
}

const closeDoors = async (handle: Awaited<ReturnType<typeof start>>) => {
  for (const n of DOORS) await handle.signal(doorSignal, { compartmentNumber: n, state: 'closed' });
};

describe('locker delivery workflow (mocked activities)', () => {
  test('an unused delivery code expires: expired, with one transition', async () => {
    const m = readModel();
    await withMockedWorker(m.activities, async (w) => {
      const handle = await start(w, { deliveryCodeExpiresAt: new Date(Date.now() + 300).toISOString() });
      assert.equal(await handle.result(), 'expired');
    });
    assert.deepEqual(
      m.calls.map((c) => c.action),
      ['expire_delivery_code'],
    );
  });

  test('opened, confirmed by the courier, collected: the recipient is told once and the pickup completes when the doors close', async () => {
    const m = readModel();
    await withMockedWorker(m.activities, async (w) => {
      const handle = await start(w);
      const opened = await handle.executeUpdate(openUpdate, { args: [{ via: 'screen_code' }] });
      assert.equal(opened.status, 'depositing');
      assert.deepEqual(
        opened.parcels.map((p) => p.compartment_number),
        DOORS,
      );
      const confirmed = await handle.executeUpdate(confirmUpdate, { args: [{ by: 'courier_terminal' }] });
      assert.equal(confirmed.status, 'delivered');
      assert.equal(await handle.query(lockerStatusQuery), 'delivered');
      await handle.executeUpdate(pickupOpenUpdate);
      await closeDoors(handle);
      assert.equal(await handle.result(), 'picked_up');
    });
    assert.deepEqual(
      m.calls.map((c) => c.action),
      ['open', 'confirm', 'pickup'],
    );
    assert.equal(m.calls[1]!.confirmedBy, 'courier_terminal');
    assert.ok(m.calls[2]!.pickupOpenedAt, 'the pickup carries when the code opened the doors');
    assert.deepEqual(
      m.notices.map((n) => n.template),
      ['locker_pickup_code'],
    );
  });

  test('a remote opening settles by itself once every door reports closed (door_close)', async () => {
    const m = readModel();
    await withMockedWorker(m.activities, async (w) => {
      const handle = await start(w, { openMode: 'remote_open' });
      await handle.executeUpdate(openUpdate, { args: [{ via: 'remote_open' }] });
      await closeDoors(handle);
      await waitFor(async () => (await handle.query(lockerStatusQuery)) === 'delivered');
    });
    assert.equal(m.calls.at(-1)!.confirmedBy, 'door_close');
  });

  test('a screen opening settles only after the deposit timeout, once the doors are closed (timeout_door_closed)', async () => {
    const m = readModel();
    await withMockedWorker(m.activities, async (w) => {
      const handle = await start(w, { depositTimeoutMs: 400 });
      await handle.executeUpdate(openUpdate, { args: [{ via: 'screen_code' }] });
      await closeDoors(handle);
      await waitFor(async () => (await handle.query(lockerStatusQuery)) === 'delivered');
    });
    assert.equal(m.calls.at(-1)!.confirmedBy, 'timeout_door_closed');
  });

  test('an uncollected deposit expires at the time the confirming transition answered', async () => {
    const m = readModel(300);
    await withMockedWorker(m.activities, async (w) => {
      const handle = await start(w);
      await handle.executeUpdate(openUpdate, { args: [{ via: 'screen_code' }] });
      await handle.executeUpdate(confirmUpdate, { args: [{ by: 'partner_api' }] });
      assert.equal(await handle.result(), 'expired');
    });
    assert.deepEqual(
      m.calls.map((c) => c.action),
      ['open', 'confirm', 'expire_deposit'],
    );
  });

  test('refused updates: confirm before any opening, a correction once its window closed; the process goes on', async () => {
    const m = readModel();
    await withMockedWorker(m.activities, async (w) => {
      const handle = await start(w, { correctionWindowMs: 1 });
      assert.equal(
        await refusal(handle.executeUpdate(confirmUpdate, { args: [{ by: 'partner_api' }] })),
        LOCKER_INVALID_TRANSITION,
      );
      await handle.executeUpdate(openUpdate, { args: [{ via: 'screen_code' }] });
      await handle.executeUpdate(confirmUpdate, { args: [{ by: 'partner_api' }] });
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(
        await refusal(handle.executeUpdate(correctionUpdate, { args: [{ compartmentNumbers: [3] }] })),
        LOCKER_CORRECTION_CLOSED,
      );
      assert.equal(await handle.query(lockerStatusQuery), 'delivered');
    });
    assert.deepEqual(
      m.calls.map((c) => c.action),
      ['open', 'confirm'],
    );
  });

  test('updates sent at once run one after another, each from the state the one before left', async () => {
    const m = readModel();
    await withMockedWorker(m.activities, async (w) => {
      const handle = await start(w);
      const answers = await Promise.allSettled([
        handle.executeUpdate(openUpdate, { args: [{ via: 'screen_code' }] }),
        handle.executeUpdate(openUpdate, { args: [{ via: 'screen_code' }] }),
        handle.executeUpdate(confirmUpdate, { args: [{ by: 'courier_terminal' }] }),
      ]);
      // The confirm may be admitted before any opening (refused) or after (applied); both openings apply.
      assert.deepEqual(
        answers.slice(0, 2).map((a) => a.status),
        ['fulfilled', 'fulfilled'],
      );
      assert.ok(!m.overlapped(), 'no two transitions ran at once');
    });
  });
});
