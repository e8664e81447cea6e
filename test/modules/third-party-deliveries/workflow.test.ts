/** The third-party delivery workflow with its activities mocked: steps, refusals, the handover deadline, progress, reassignment. */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import { WithStartWorkflowOperation, WorkflowUpdateFailedError, WorkflowUpdateStage } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { PROVIDER_ID } from '../../../src/modules/locker-deliveries/contract.ts';
import {
  ASSIGNMENT_INVALID_STEP,
  cancelUpdate,
  handoverUpdate,
  progressSignal,
  THIRD_PARTY_STATUS,
  THIRD_PARTY_WORKFLOW,
  thirdPartySearchAttributes,
  thirdPartyWorkflowId,
  type StepInput,
  type StepResult,
  type ThirdPartyActivities,
  type ThirdPartyInput,
} from '../../../src/modules/third-party-deliveries/contract.ts';
import { assignmentNumber, type AssignmentStatus } from '../../../src/modules/third-party-deliveries/domain.ts';
import type { thirdPartyDeliveryWorkflow } from '../../../src/modules/third-party-deliveries/workflows.ts';
import { withMockedWorker, type MockedWorker } from '../../helpers/mockedWorker.ts';
import { waitFor } from '../../helpers/wait.ts';

const HOUR = 3_600_000;

const answer = (id: number, status: AssignmentStatus, nextInput: ThirdPartyInput | null = null): StepResult => ({
  answer: {
    assignment: { number: assignmentNumber(id), status },
    next: nextInput && { number: assignmentNumber(nextInput.id), status: 'assigned' },
  },
  nextInput,
});

/**
 * A read model whose steps answer what `script` says; it notes how many steps ran at once, and `progress` lists
 * the answers of the package assessments in turn (the last one repeating).
 */
function readModel(script: (step: StepInput) => Promise<StepResult>, progress: AssignmentStatus[] = ['assigned']) {
  const steps: StepInput[] = [];
  const assessed: number[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const activities: ThirdPartyActivities = {
    async applyAssignmentStep(step) {
      steps.push(step);
      mostAtOnce = Math.max(mostAtOnce, ++running);
      try {
        return await script(step);
      } finally {
        running--;
      }
    },
    async assessAssignmentProgress({ id }) {
      assessed.push(id);
      return progress[Math.min(assessed.length, progress.length) - 1]!;
    },
  };
  return { steps, assessed, activities, mostAtOnce: () => mostAtOnce };
}

function inputFor(deadlineInMs: number, providerId = 3): ThirdPartyInput {
  return {
    id: randomInt(1, 2 ** 31 - 1),
    businessId: 1,
    orderId: randomInt(1, 2 ** 31 - 1),
    providerId,
    handoverDeadline: new Date(Date.now() + deadlineInMs).toISOString(),
  };
}

const options = (w: MockedWorker, input: ThirdPartyInput) => ({
  workflowId: thirdPartyWorkflowId(input.id),
  taskQueue: w.taskQueue,
  args: [input] as [ThirdPartyInput],
  typedSearchAttributes: thirdPartySearchAttributes(input),
});

const start = (w: MockedWorker, input: ThirdPartyInput) =>
  w.client.workflow.start<typeof thirdPartyDeliveryWorkflow>(THIRD_PARTY_WORKFLOW, options(w, input));

const refusedWith = (type: string) => (err: unknown) =>
  err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure && err.cause.type === type;

describe('third-party delivery workflow (mocked activities)', () => {
  test('handover and cancel updates apply their steps one at a time and answer what the read model answered', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const input = inputFor(HOUR);
    const scannedAt = new Date().toISOString();
    const model = readModel(
      async (step) => {
        if (step.step === 'cancel') return answer(step.id, 'cancelled');
        if (step.packageNumber === 'P1') await held;
        return answer(step.id, step.packageNumber === 'P1' ? 'assigned' : 'handed_over');
      },
      ['handed_over'],
    );
    await withMockedWorker(model.activities, async (w) => {
      // A held local activity heartbeats its workflow task at 80% of this timeout; only then can the server hand
      // the workflow the second update, so a short one keeps the test quick.
      const handle = await w.client.workflow.start<typeof thirdPartyDeliveryWorkflow>(THIRD_PARTY_WORKFLOW, {
        ...options(w, input),
        workflowTaskTimeout: '2 seconds',
      });
      const first = handle.executeUpdate(handoverUpdate, { args: [{ packageNumber: 'P1', scannedAt, actorId: 7 }] });
      await waitFor(async () => model.steps.length === 1);
      // Accepted while the first step is held: it must wait for it.
      const second = await handle.startUpdate(handoverUpdate, {
        args: [{ packageNumber: 'P2', scannedAt, actorId: 7 }],
        waitForStage: WorkflowUpdateStage.ACCEPTED,
      });
      release();
      assert.deepEqual(await first, answer(input.id, 'assigned').answer);
      assert.deepEqual(await second.result(), answer(input.id, 'handed_over').answer);
      assert.equal((await handle.describe()).typedSearchAttributes.get(THIRD_PARTY_STATUS), 'handed_over');

      const cancelled = await handle.executeUpdate(cancelUpdate, { args: [{ reason: 'cancelled', actorId: 8 }] });
      assert.deepEqual(cancelled, answer(input.id, 'cancelled').answer);
      assert.equal(await handle.result(), 'cancelled');
    });
    assert.equal(model.mostAtOnce(), 1);
    assert.deepEqual(model.steps, [
      { id: input.id, step: 'handover', packageNumber: 'P1', scannedAt, actorId: 7 },
      { id: input.id, step: 'handover', packageNumber: 'P2', scannedAt, actorId: 7 },
      { id: input.id, step: 'cancel', reason: 'cancelled', actorId: 8 },
    ]);
  });

  test('a step the read model refuses fails the update as AssignmentInvalidStep, untried again, and the assignment goes on', async () => {
    const input = inputFor(HOUR);
    const model = readModel(async (step) => {
      if (step.step === 'cancel' && step.reason === 'reassigned')
        throw ApplicationFailure.create({ type: ASSIGNMENT_INVALID_STEP, message: 'refused', nonRetryable: true });
      return answer(step.id, 'cancelled');
    });
    await withMockedWorker(model.activities, async (w) => {
      const handle = await start(w, input);
      const to = { providerId: 4, handoverDeadline: new Date(Date.now() + HOUR).toISOString() };
      await assert.rejects(
        handle.executeUpdate(cancelUpdate, { args: [{ reason: 'reassigned', actorId: 1, to }] }),
        refusedWith(ASSIGNMENT_INVALID_STEP),
      );
      assert.equal((await handle.describe()).status.name, 'RUNNING');
      await handle.executeUpdate(cancelUpdate, { args: [{ reason: 'cancelled', actorId: 1 }] });
      assert.equal(await handle.result(), 'cancelled');
    });
    assert.deepEqual(
      model.steps.map((s) => s.step === 'cancel' && s.reason),
      ['reassigned', 'cancelled'],
    );
  });

  test('at the handover deadline an assignment with packages left falls back to self delivery', async () => {
    const input = inputFor(300);
    const model = readModel(async (step) => answer(step.id, step.step === 'cancel' ? 'cancelled' : 'assigned'));
    await withMockedWorker(model.activities, async (w) => {
      // The partial handover goes with the start, so it is in before the deadline however slow the machine.
      const startWorkflowOperation = new WithStartWorkflowOperation<typeof thirdPartyDeliveryWorkflow>(
        THIRD_PARTY_WORKFLOW,
        { ...options(w, input), workflowIdConflictPolicy: 'FAIL' },
      );
      await w.client.workflow.executeUpdateWithStart(handoverUpdate, {
        args: [{ packageNumber: 'P1', scannedAt: new Date().toISOString(), actorId: 7 }],
        startWorkflowOperation,
      });
      assert.equal(await (await startWorkflowOperation.workflowHandle()).result(), 'cancelled');
    });
    assert.deepEqual(
      model.steps.map((s) => (s.step === 'cancel' ? [s.step, s.reason, s.actorId] : [s.step])),
      [['handover'], ['cancel', 'fallback_to_self_delivery', null]],
    );
  });

  test('after the last handover the packages are looked at, and progress signals move it to partial_delivered, then delivered', async () => {
    const input = inputFor(HOUR);
    // The read model changes nothing before the handover; the workflow asks it on every signal regardless.
    const model = readModel(
      async (step) => answer(step.id, 'handed_over'),
      ['assigned', 'handed_over', 'partial_delivered', 'delivered'],
    );
    await withMockedWorker(model.activities, async (w) => {
      const handle = await start(w, input);
      const status = async () => (await handle.describe()).typedSearchAttributes.get(THIRD_PARTY_STATUS);
      await handle.signal(progressSignal);
      await waitFor(async () => model.assessed.length === 1);
      assert.equal(await status(), 'assigned');

      await handle.executeUpdate(handoverUpdate, {
        args: [{ packageNumber: 'P1', scannedAt: new Date().toISOString(), actorId: 7 }],
      });
      await waitFor(async () => model.assessed.length === 2);

      await handle.signal(progressSignal);
      await waitFor(async () => (await status()) === 'partial_delivered');
      assert.equal((await handle.describe()).status.name, 'RUNNING');
      await handle.signal(progressSignal);
      assert.equal(await handle.result(), 'delivered');
    });
    assert.deepEqual(model.assessed, [input.id, input.id, input.id, input.id]);
    assert.equal(model.steps.length, 1);
  });

  test("a reassignment starts the next assignment's workflow, which runs on its own", async () => {
    const input = inputFor(HOUR);
    const next = inputFor(HOUR, 4);
    const model = readModel(async (step) =>
      step.step === 'cancel' && step.reason === 'reassigned'
        ? answer(step.id, 'cancelled', next)
        : answer(step.id, 'cancelled'),
    );
    await withMockedWorker(model.activities, async (w) => {
      const handle = await start(w, input);
      const to = { providerId: next.providerId, handoverDeadline: next.handoverDeadline };
      const reassigned = await handle.executeUpdate(cancelUpdate, { args: [{ reason: 'reassigned', actorId: 1, to }] });
      assert.deepEqual(reassigned, answer(input.id, 'cancelled', next).answer);
      assert.equal(await handle.result(), 'cancelled');

      const child = w.client.workflow.getHandle<typeof thirdPartyDeliveryWorkflow>(thirdPartyWorkflowId(next.id));
      const described = await child.describe();
      assert.equal(described.type, THIRD_PARTY_WORKFLOW);
      assert.equal(described.status.name, 'RUNNING', 'abandoned, it outlives the assignment it replaced');
      assert.equal(described.typedSearchAttributes.get(PROVIDER_ID), next.providerId);
      await child.executeUpdate(cancelUpdate, { args: [{ reason: 'cancelled', actorId: 2 }] });
      assert.equal(await child.result(), 'cancelled');
    });
    assert.deepEqual(
      model.steps.map((s) => [s.id, s.step === 'cancel' && s.reason, s.step === 'cancel' && s.to]),
      [
        [input.id, 'reassigned', { providerId: next.providerId, handoverDeadline: next.handoverDeadline }],
        [next.id, 'cancelled', undefined],
      ],
    );
  });
});
