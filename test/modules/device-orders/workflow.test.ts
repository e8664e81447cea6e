/** The device order workflow with its transition activity mocked: timer, updates, refusals. */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import type { DeviceOrderActivities, TransitionInput } from '../../../src/modules/device-orders/activities.ts';
import {
  collectUpdate, DEVICE_ORDER_MISSING, DEVICE_ORDER_WORKFLOW, deviceOrderWorkflowId, INVALID_TRANSITION, removeUpdate, statusQuery,
  type DeviceOrderInput, type DeviceOrderSnapshot,
} from '../../../src/modules/device-orders/contract.ts';
import { outcomeOf } from '../../../src/modules/device-orders/domain.ts';
import type { deviceOrderWorkflow } from '../../../src/modules/device-orders/workflows.ts';
import { withMockedWorker, type MockedWorker } from '../../helpers/mockedWorker.ts';
import { waitFor } from '../../helpers/wait.ts';

type Transition = (input: TransitionInput) => Promise<DeviceOrderSnapshot>;

/** A read model that accepts every transition and records it; `override` scripts a different answer. */
function readModel(override?: (input: TransitionInput) => Promise<DeviceOrderSnapshot | undefined>) {
  const calls: TransitionInput[] = [];
  const applyDeviceOrderTransition: Transition = async (input) => {
    calls.push(input);
    return (await override?.(input)) ?? ({ id: input.id, status: outcomeOf(input.action).status } as DeviceOrderSnapshot);
  };
  const activities: DeviceOrderActivities = { applyDeviceOrderTransition };
  return { calls, activities };
}

function start(w: MockedWorker, dueInMs: number) {
  const id = randomInt(1, 2 ** 31 - 1);
  const input: DeviceOrderInput = { id, businessId: 1, dueAt: new Date(Date.now() + dueInMs).toISOString() };
  return w.client.workflow.start<typeof deviceOrderWorkflow>(DEVICE_ORDER_WORKFLOW, { workflowId: deviceOrderWorkflowId(id), taskQueue: w.taskQueue, args: [input] });
}

const refusedWith = (type: string) => (err: unknown) =>
  err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure && err.cause.type === type;

describe('device order workflow (mocked activities)', () => {
  test('at due_at an uncollected order becomes overdue; collect still ends it', async () => {
    const model = readModel();
    await withMockedWorker(model.activities, async (w) => {
      const handle = await start(w, 300);
      await waitFor(async () => (await handle.query(statusQuery)) === 'overdue');
      const snapshot = await handle.executeUpdate(collectUpdate, { args: [{ actorId: 7 }] });
      assert.equal(snapshot.status, 'collected');
      assert.equal(await handle.result(), 'collected');
    });
    assert.deepEqual(model.calls.map((c) => [c.action, c.actorId]), [['overdue', undefined], ['collect', 7]]);
  });

  test('collected before due_at: the timer never fires', async () => {
    const model = readModel();
    await withMockedWorker(model.activities, async (w) => {
      const handle = await start(w, 3_600_000);
      await handle.executeUpdate(removeUpdate, { args: [{ removalReason: 'handover', actorId: 3 }] });
      assert.equal(await handle.result(), 'removed');
    });
    assert.deepEqual(model.calls.map((c) => [c.action, c.removalReason]), [['remove', 'handover']]);
  });

  test('an update while a transition is applied is refused as InvalidTransition; the running one completes', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    const model = readModel(async (input) => { if (input.action === 'collect') await held; return undefined; });
    await withMockedWorker(model.activities, async (w) => {
      const handle = await start(w, 3_600_000);
      const collecting = handle.executeUpdate(collectUpdate, { args: [{ actorId: 1 }] });
      await waitFor(async () => model.calls.length === 1);
      try {
        await assert.rejects(handle.executeUpdate(removeUpdate, { args: [{ removalReason: 'anomaly', actorId: 1 }] }), refusedWith(INVALID_TRANSITION));
      } finally {
        release();
      }
      assert.equal((await collecting).status, 'collected');
      assert.equal(await handle.result(), 'collected');
    });
    assert.deepEqual(model.calls.map((c) => c.action), ['collect']);
  });

  test('the read model refusing a transition reaches the caller as InvalidTransition, and the order stays open', async () => {
    const model = readModel(async (input) => {
      if (input.action === 'collect') throw ApplicationFailure.create({ type: INVALID_TRANSITION, message: 'refused', nonRetryable: true });
      return undefined;
    });
    await withMockedWorker(model.activities, async (w) => {
      const handle = await start(w, 3_600_000);
      await assert.rejects(handle.executeUpdate(collectUpdate, { args: [{ actorId: 1 }] }), refusedWith(INVALID_TRANSITION));
      assert.equal(await handle.query(statusQuery), 'stored');
      await handle.executeUpdate(removeUpdate, { args: [{ removalReason: 'recovery', actorId: 1 }] });
      assert.equal(await handle.result(), 'removed');
    });
  });

  test('a store rolled back after the start: the overdue timer finds no row and the workflow ends quietly', async () => {
    const model = readModel(async () => { throw ApplicationFailure.create({ type: DEVICE_ORDER_MISSING, message: 'no row', nonRetryable: true }); });
    await withMockedWorker(model.activities, async (w) => {
      const handle = await start(w, 200);
      assert.equal(await handle.result(), 'stored');
    });
    assert.deepEqual(model.calls.map((c) => c.action), ['overdue']);
  });
});
