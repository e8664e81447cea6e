/** The device order workflow with its activities mocked: timer, updates, refusals, its own exceptions, the door watch. */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import {
  collectUpdate,
  DEVICE_ORDER_MISSING,
  DEVICE_ORDER_WORKFLOW,
  deviceOrderWorkflowId,
  doorReportSignal,
  INVALID_TRANSITION,
  openExceptionUpdate,
  removeUpdate,
  resolveExceptionUpdate,
  statusQuery,
  type DeviceOrderActivities,
  type DeviceOrderInput,
  type DeviceOrderSnapshot,
  type ExceptionSnapshot,
  type TransitionInput,
} from '../../../src/modules/device-orders/contract.ts';
import type { ExceptionType, ExceptionView } from '../../../src/modules/device-orders/exceptions.ts';
import { outcomeOf } from '../../../src/modules/device-orders/domain.ts';
import type { deviceOrderWorkflow } from '../../../src/modules/device-orders/workflows.ts';
import { Worker } from '@temporalio/worker';
import { withMockedWorker, type MockedWorker } from '../../helpers/mockedWorker.ts';
import { waitFor } from '../../helpers/wait.ts';

type Transition = (input: TransitionInput) => Promise<DeviceOrderSnapshot>;

/**
 * A read model that accepts every transition and records it; `override` scripts a different answer. Exceptions
 * are kept by type; `exceptionCalls` records what the process raised and settled.
 */
function readModel(override?: (input: TransitionInput) => Promise<DeviceOrderSnapshot | undefined>) {
  const calls: TransitionInput[] = [];
  const exceptionCalls: string[] = [];
  const open = new Set<ExceptionType>();
  const applyDeviceOrderTransition: Transition = async (input) => {
    calls.push(input);
    return (
      (await override?.(input)) ?? ({ id: input.id, status: outcomeOf(input.action).status } as DeviceOrderSnapshot)
    );
  };
  const snapshot = (type: ExceptionType, status: ExceptionView['status']): ExceptionSnapshot => ({
    device_order: { id: 1, status: 'stored' },
    exception: { id: 1, type, status },
  });
  const activities: DeviceOrderActivities = {
    applyDeviceOrderTransition,
    async openDeviceOrderException(input) {
      open.add(input.type);
      exceptionCalls.push(`open ${input.type}`);
      return snapshot(input.type, 'open');
    },
    async resolveDeviceOrderException(input) {
      const type = [...open][0]!;
      open.delete(type);
      exceptionCalls.push(`resolve ${type} ${input.resolutionAction}`);
      return snapshot(type, input.status);
    },
    async raiseDeviceOrderException(input) {
      exceptionCalls.push(`raise ${input.type}`);
      const fresh = !open.has(input.type);
      open.add(input.type);
      return fresh;
    },
    async settleDeviceOrderException(input) {
      exceptionCalls.push(`settle ${input.type} ${input.resolutionAction}`);
      return open.delete(input.type);
    },
    async openDeviceOrderExceptionTypes() {
      return [...open];
    },
    async notifyDeviceOrderRecipient() {
      exceptionCalls.push('notify');
      return 'sent';
    },
    async abandonDeviceOrderNotice() {
      exceptionCalls.push('abandon notice');
    },
  };
  return { calls, exceptionCalls, open, activities };
}

function start(
  w: MockedWorker,
  dueInMs: number,
  door: Partial<Omit<DeviceOrderInput, 'id' | 'businessId' | 'dueAt'>> = { doorWatchMs: 0 },
  options: { workflowTaskTimeout?: string } = {},
) {
  const id = randomInt(1, 2 ** 31 - 1);
  const input: DeviceOrderInput = { id, businessId: 1, dueAt: new Date(Date.now() + dueInMs).toISOString(), ...door };
  return w.client.workflow.start<typeof deviceOrderWorkflow>(DEVICE_ORDER_WORKFLOW, {
    workflowId: deviceOrderWorkflowId(id),
    taskQueue: w.taskQueue,
    args: [input],
    ...options,
  });
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
    assert.deepEqual(
      model.calls.map((c) => [c.action, c.actorId]),
      [
        ['overdue', undefined],
        ['collect', 7],
      ],
    );
  });

  test('collected before due_at: the timer never fires', async () => {
    const model = readModel();
    await withMockedWorker(model.activities, async (w) => {
      const handle = await start(w, 3_600_000);
      await handle.executeUpdate(removeUpdate, { args: [{ removalReason: 'handover', actorId: 3 }] });
      assert.equal(await handle.result(), 'removed');
    });
    assert.deepEqual(
      model.calls.map((c) => [c.action, c.removalReason]),
      [['remove', 'handover']],
    );
  });

  test('an update while a transition is applied is refused as InvalidTransition; the running one completes', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const model = readModel(async (input) => {
      if (input.action === 'collect') await held;
      return undefined;
    });
    await withMockedWorker(model.activities, async (w) => {
      // The running transition is a local activity: the update comes in with the task's heartbeat, at 80 % of the
      // task timeout (8 s of the default 10 s), so the test's task timeout is short.
      const handle = await start(w, 3_600_000, undefined, { workflowTaskTimeout: '2s' });
      const collecting = handle.executeUpdate(collectUpdate, { args: [{ actorId: 1 }] });
      await waitFor(async () => model.calls.length === 1);
      try {
        await assert.rejects(
          handle.executeUpdate(removeUpdate, { args: [{ removalReason: 'anomaly', actorId: 1 }] }),
          refusedWith(INVALID_TRANSITION),
        );
      } finally {
        release();
      }
      assert.equal((await collecting).status, 'collected');
      assert.equal(await handle.result(), 'collected');
    });
    assert.deepEqual(
      model.calls.map((c) => c.action),
      ['collect'],
    );
  });

  test('the read model refusing a transition reaches the caller as InvalidTransition, and the order stays open', async () => {
    const model = readModel(async (input) => {
      if (input.action === 'collect')
        throw ApplicationFailure.create({ type: INVALID_TRANSITION, message: 'refused', nonRetryable: true });
      return undefined;
    });
    await withMockedWorker(model.activities, async (w) => {
      const handle = await start(w, 3_600_000);
      await assert.rejects(
        handle.executeUpdate(collectUpdate, { args: [{ actorId: 1 }] }),
        refusedWith(INVALID_TRANSITION),
      );
      assert.equal(await handle.query(statusQuery), 'stored');
      await handle.executeUpdate(removeUpdate, { args: [{ removalReason: 'recovery', actorId: 1 }] });
      assert.equal(await handle.result(), 'removed');
    });
  });

  test('a store rolled back after the start: the overdue timer finds no row and the workflow ends quietly', async () => {
    const model = readModel(async () => {
      throw ApplicationFailure.create({ type: DEVICE_ORDER_MISSING, message: 'no row', nonRetryable: true });
    });
    await withMockedWorker(model.activities, async (w) => {
      const handle = await start(w, 200);
      assert.equal(await handle.result(), 'stored');
    });
    assert.deepEqual(
      model.calls.map((c) => c.action),
      ['overdue'],
    );
  });

  test('a store that owes its recipient a notice sends it once, beside the process, which ends only after it', async () => {
    const model = readModel();
    let release!: () => void;
    const mailed = new Promise<void>((resolve) => (release = resolve));
    const activities: DeviceOrderActivities = {
      ...model.activities,
      async notifyDeviceOrderRecipient(input) {
        model.exceptionCalls.push(`notify ${input.id}`);
        await mailed;
        return 'sent';
      },
    };
    await withMockedWorker(activities, async (w) => {
      const handle = await start(w, 3_600_000, { doorWatchMs: 0, notifyRecipient: true, notifyRetryScale: 0.001 });
      await waitFor(async () => model.exceptionCalls.length > 0);
      assert.equal((await handle.executeUpdate(collectUpdate, { args: [{ actorId: 1 }] })).status, 'collected');
      const ended = await Promise.race([handle.result(), new Promise((r) => setTimeout(() => r('waiting'), 300))]);
      assert.equal(ended, 'waiting', 'the process waits for its notice');
      release();
      assert.equal(await handle.result(), 'collected');
      assert.deepEqual(model.exceptionCalls, [`notify ${handle.workflowId.slice('device-order-'.length)}`]);
    });
  });

  test('a notice whose attempts have run out is recorded as given up, and the process ends', async () => {
    const model = readModel();
    const activities: DeviceOrderActivities = {
      ...model.activities,
      async notifyDeviceOrderRecipient() {
        // Stands for the last of NOTICE_ATTEMPTS refusals, without waiting through the others.
        throw ApplicationFailure.create({ message: 'connect ECONNREFUSED', nonRetryable: true });
      },
      async abandonDeviceOrderNotice(input) {
        model.exceptionCalls.push(`abandon ${input.error}`);
      },
    };
    await withMockedWorker(activities, async (w) => {
      const handle = await start(w, 3_600_000, { doorWatchMs: 0, notifyRecipient: true, notifyRetryScale: 0.001 });
      await handle.executeUpdate(removeUpdate, { args: [{ removalReason: 'handover', actorId: 1 }] });
      assert.equal(await handle.result(), 'removed');
    });
    assert.deepEqual(model.exceptionCalls, ['abandon connect ECONNREFUSED']);
  });

  test('overdue raises its exception; the collect settles it', async () => {
    const model = readModel();
    await withMockedWorker(model.activities, async (w) => {
      const handle = await start(w, 300);
      await waitFor(async () => model.open.has('overdue'));
      await handle.executeUpdate(collectUpdate, { args: [{ actorId: 7 }] });
      assert.equal(await handle.result(), 'collected');
    });
    assert.deepEqual(model.exceptionCalls, ['raise overdue', 'settle overdue collected']);
  });

  test('a door open past the limit after the pickup raises door_left_open, its closing resolves it', async () => {
    const model = readModel();
    await withMockedWorker(model.activities, async (w) => {
      const handle = await start(w, 3_600_000, { doorWatchMs: 60_000, doorOpenLimitMs: 200 });
      await handle.executeUpdate(collectUpdate, { args: [{ actorId: 1 }] });
      await handle.signal(doorReportSignal, { state: 'opened' });
      await waitFor(async () => model.open.has('door_left_open'));
      await handle.signal(doorReportSignal, { state: 'closed' });
      assert.equal(await handle.result(), 'collected');
    });
    assert.deepEqual(model.exceptionCalls, ['raise door_left_open', 'settle door_left_open door_closed']);
  });

  test('a door closed within the limit raises nothing; no door report within the watch ends the process', async () => {
    const model = readModel();
    await withMockedWorker(model.activities, async (w) => {
      const quick = await start(w, 3_600_000, { doorWatchMs: 60_000, doorOpenLimitMs: 60_000 });
      await quick.signal(doorReportSignal, { state: 'opened' });
      await quick.executeUpdate(collectUpdate, { args: [{ actorId: 1 }] });
      await quick.signal(doorReportSignal, { state: 'closed' });
      assert.equal(await quick.result(), 'collected');
      const silent = await start(w, 3_600_000, { doorWatchMs: 200, doorOpenLimitMs: 60_000 });
      await silent.executeUpdate(removeUpdate, { args: [{ removalReason: 'handover', actorId: 1 }] });
      assert.equal(await silent.result(), 'removed');
    });
    assert.deepEqual(model.exceptionCalls, []);
  });

  test('the process stays open while an exception is open, also one opened outside it, and ends once all are closed', async () => {
    const model = readModel();
    await withMockedWorker(model.activities, async (w) => {
      const handle = await start(w, 3_600_000);
      await handle.executeUpdate(openExceptionUpdate, { args: [{ type: 'item_damaged', actorId: 1 }] });
      model.open.add('pickup_code_locked');
      await handle.executeUpdate(collectUpdate, { args: [{ actorId: 1 }] });
      await handle.executeUpdate(resolveExceptionUpdate, {
        args: [{ exceptionId: 1, status: 'resolved', resolutionAction: 'parcel_replaced', actorId: 1 }],
      });
      assert.equal((await handle.describe()).status.name, 'RUNNING', 'pickup_code_locked is still open');
      await handle.executeUpdate(resolveExceptionUpdate, {
        args: [{ exceptionId: 2, status: 'dismissed', resolutionAction: 'no_action_needed', actorId: 1 }],
      });
      assert.equal(await handle.result(), 'collected');
    });
    assert.deepEqual(model.exceptionCalls, [
      'open item_damaged',
      'resolve item_damaged parcel_replaced',
      'resolve pickup_code_locked no_action_needed',
    ]);
  });

  // Two local activities running at once resolve in separate activations when they finish apart, and in one when
  // replayed; what each wakes (a search-attribute upsert, an update's answer) must not depend on that.
  for (const first of ['the staff resolve', "the door's settle"] as const) {
    test(`a staff resolve and the door closing in one workflow task, ${first} finishing first: the history replays`, async () => {
      const model = readModel();
      let releaseHeld!: () => void;
      const held = new Promise<void>((resolve) => (releaseHeld = resolve));
      let holding = false;
      const pause = (slow: boolean) => new Promise((resolve) => setTimeout(resolve, slow ? 300 : 0));
      const activities: DeviceOrderActivities = {
        ...model.activities,
        async resolveDeviceOrderException(input) {
          const type: ExceptionType = input.exceptionId === 1 ? 'other' : 'item_damaged';
          holding ||= input.exceptionId === 1;
          // The first holds its workflow task while the signal and the second update queue up behind it.
          await (input.exceptionId === 1 ? held : pause(first !== 'the staff resolve'));
          model.open.delete(type);
          model.exceptionCalls.push(`resolve ${type}`);
          return {
            device_order: { id: 1, status: 'collected' },
            exception: { id: input.exceptionId, type, status: 'resolved' },
          };
        },
        async settleDeviceOrderException(input) {
          await pause(first === 'the staff resolve');
          return model.activities.settleDeviceOrderException(input);
        },
      };
      const history = await withMockedWorker(activities, async (w) => {
        const handle = await start(w, 3_600_000, { doorWatchMs: 60_000, doorOpenLimitMs: 100 });
        for (const type of ['other', 'item_damaged'] as const)
          await handle.executeUpdate(openExceptionUpdate, { args: [{ type, actorId: 1 }] });
        await handle.executeUpdate(collectUpdate, { args: [{ actorId: 1 }] });
        await handle.signal(doorReportSignal, { state: 'opened' });
        await waitFor(async () => model.open.has('door_left_open'));
        const resolve = (exceptionId: number) =>
          handle.executeUpdate(resolveExceptionUpdate, {
            args: [{ exceptionId, status: 'resolved', resolutionAction: 'parcel_replaced', actorId: 1 }],
          });
        const holder = resolve(1);
        await waitFor(async () => holding);
        const second = resolve(2);
        await handle.signal(doorReportSignal, { state: 'closed' });
        releaseHeld();
        await Promise.all([holder, second]);
        assert.equal(await handle.result(), 'collected');
        return handle.fetchHistory();
      });
      await Worker.runReplayHistory({ workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE_PATH! } }, history);
    });
  }
});
