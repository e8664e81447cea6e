/** The approval workflow with its activities mocked: approve, reject, expiry, and the refusal of a second decision. */
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import {
  APPROVAL_DECIDED,
  APPROVAL_WORKFLOW,
  approvalSearchAttributes,
  decideUpdate,
  type ApprovalActivities,
  type ApprovalInput,
  type ApprovalStatus,
} from '../../../src/modules/approvals/contract.ts';
import type { approvalWorkflow } from '../../../src/modules/approvals/workflows.ts';
import { withMockedWorker, type MockedWorker } from '../../helpers/mockedWorker.ts';
import { waitFor } from '../../helpers/wait.ts';

type WriteCall = Parameters<ApprovalActivities['runApprovedWrite']>[0];
type CloseCall = Parameters<ApprovalActivities['closeApproval']>[0];

/**
 * The approval's read model, recording every call; `hold` keeps an activity running until released, so a second
 * decision can arrive while the first is being carried out.
 */
function readModel(writeAnswer: ApprovalStatus = 'done', hold?: Promise<void>) {
  const writes: WriteCall[] = [];
  const closes: CloseCall[] = [];
  const activities: ApprovalActivities = {
    async runApprovedWrite(input) {
      writes.push(input);
      await hold;
      return writeAnswer;
    },
    async closeApproval(input) {
      closes.push(input);
      await hold;
      return input.status;
    },
  };
  return { writes, closes, activities };
}

function gate() {
  let release!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  return { held, release };
}

async function start(w: MockedWorker, expiresInMs: number) {
  const input: ApprovalInput = {
    id: randomInt(1, 2 ** 31 - 1),
    businessId: 1,
    tool: 'update_webhook_settings',
    expiresAt: new Date(Date.now() + expiresInMs).toISOString(),
  };
  // Started as the API starts it: the workflow upserts the status into attributes it was given.
  const handle = await w.client.workflow.start<typeof approvalWorkflow>(APPROVAL_WORKFLOW, {
    workflowId: `approval-test-${randomUUID()}`,
    taskQueue: w.taskQueue,
    args: [input],
    typedSearchAttributes: approvalSearchAttributes(input),
  });
  return { id: input.id, handle };
}

const refusedWith = (type: string) => (err: unknown) =>
  err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure && err.cause.type === type;

describe('approval workflow (mocked activities)', () => {
  test('approving runs the write once as the reviewer and ends with the status the write recorded', async () => {
    const model = readModel('done');
    await withMockedWorker(model.activities, async (w) => {
      const { id, handle } = await start(w, 3_600_000);
      assert.equal(
        await handle.executeUpdate(decideUpdate, { args: [{ decision: 'approve', reviewerId: 7 }] }),
        'done',
      );
      assert.equal(await handle.result(), 'done');
      assert.deepEqual(model.writes, [{ id, reviewerId: 7 }]);
    });
    assert.deepEqual(model.closes, []);
  });

  test('rejecting records rejected with its reason and runs no write', async () => {
    const model = readModel();
    await withMockedWorker(model.activities, async (w) => {
      const { id, handle } = await start(w, 3_600_000);
      const status = await handle.executeUpdate(decideUpdate, {
        args: [{ decision: 'reject', reviewerId: 3, reason: 'not this week' }],
      });
      assert.equal(status, 'rejected');
      assert.equal(await handle.result(), 'rejected');
      assert.deepEqual(model.closes, [{ id, status: 'rejected', reviewerId: 3, reason: 'not this week' }]);
    });
    assert.deepEqual(model.writes, []);
  });

  test('nobody deciding by expiresAt closes it as expired', async () => {
    const model = readModel();
    await withMockedWorker(model.activities, async (w) => {
      const { id, handle } = await start(w, 300);
      assert.equal(await handle.result(), 'expired');
      assert.deepEqual(model.closes, [{ id, status: 'expired' }]);
    });
    assert.deepEqual(model.writes, []);
  });

  test('a second decision while the first is carried out is refused as ApprovalDecided; the first one stands', async () => {
    const { held, release } = gate();
    // A write that records a failure: the workflow ends with what the write answered, not with `approved`.
    const model = readModel('failed', held);
    await withMockedWorker(model.activities, async (w) => {
      const { handle } = await start(w, 3_600_000);
      const approving = handle.executeUpdate(decideUpdate, { args: [{ decision: 'approve', reviewerId: 1 }] });
      await waitFor(async () => model.writes.length === 1);
      try {
        await assert.rejects(
          handle.executeUpdate(decideUpdate, { args: [{ decision: 'reject', reviewerId: 2, reason: 'late' }] }),
          refusedWith(APPROVAL_DECIDED),
        );
      } finally {
        release();
      }
      assert.equal(await approving, 'failed');
      assert.equal(await handle.result(), 'failed');
    });
    assert.equal(model.writes.length, 1);
    assert.deepEqual(model.closes, []);
  });

  test('a decision after the expiry fired is refused as ApprovalDecided and runs no write', async () => {
    const { held, release } = gate();
    const model = readModel('done', held);
    await withMockedWorker(model.activities, async (w) => {
      const { handle } = await start(w, 200);
      await waitFor(async () => model.closes.length === 1);
      try {
        await assert.rejects(
          handle.executeUpdate(decideUpdate, { args: [{ decision: 'approve', reviewerId: 1 }] }),
          refusedWith(APPROVAL_DECIDED),
        );
      } finally {
        release();
      }
      assert.equal(await handle.result(), 'expired');
    });
    assert.deepEqual(
      model.closes.map((c) => c.status),
      ['expired'],
    );
    assert.deepEqual(model.writes, []);
  });
});
