/** The app registration workflow with its activities mocked: codes, resends, closing, expiry, refused sends. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import {
  closeSignal,
  REGISTRATION_WORKFLOW,
  RESEND_TOO_SOON,
  resendUpdate,
  SMS_REFUSED,
  type RegistrationActivities,
  type RegistrationInput,
} from '../../../src/modules/apps/contract.ts';
import type { appRegistrationWorkflow } from '../../../src/modules/apps/workflows.ts';
import { withMockedWorker, type MockedWorker } from '../../helpers/mockedWorker.ts';
import { waitFor } from '../../helpers/wait.ts';

/** The registration's read model: the codes sent and the expiries, in order; `send` may fail as a provider does. */
function readModel(send: (n: number, attempt: number) => 'sent' | 'closed' | Error = () => 'sent') {
  const sent: number[] = [];
  const attempts: number[] = [];
  const expired: string[] = [];
  const activities: RegistrationActivities = {
    async sendRegistrationCode({ codeNumber }) {
      attempts.push(codeNumber);
      const outcome = send(codeNumber, attempts.filter((n) => n === codeNumber).length);
      if (outcome instanceof Error) throw outcome;
      if (outcome === 'sent') sent.push(codeNumber);
      return outcome;
    },
    async expireRegistration({ id }) {
      expired.push(id);
      return 'expired';
    },
  };
  return { sent, attempts, expired, activities };
}

async function start(w: MockedWorker, expiresInMs: number, resendAfterMs: number) {
  const input: RegistrationInput = {
    id: randomUUID(),
    expiresAt: new Date(Date.now() + expiresInMs).toISOString(),
    resendAfterMs,
  };
  const handle = await w.client.workflow.start<typeof appRegistrationWorkflow>(REGISTRATION_WORKFLOW, {
    workflowId: `app-registration-test-${input.id}`,
    taskQueue: w.taskQueue,
    args: [input],
  });
  return { id: input.id, handle };
}

const refusedWith = (type: string) => (err: unknown) =>
  err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure && err.cause.type === type;

describe('app registration workflow (mocked activities)', () => {
  test('sends code 1 at once; a resend before the wait is refused with the seconds left; closing ends it unexpired', async () => {
    const model = readModel();
    await withMockedWorker(model.activities, async (w) => {
      const { handle } = await start(w, 3_600_000, 60_000);
      await waitFor(async () => model.sent.length === 1);
      await assert.rejects(handle.executeUpdate(resendUpdate), (err: unknown) => {
        assert.ok(refusedWith(RESEND_TOO_SOON)(err));
        const seconds = Number(((err as WorkflowUpdateFailedError).cause as ApplicationFailure).details?.[0]);
        assert.ok(seconds > 0 && seconds <= 60, `${seconds} s left`);
        return true;
      });
      await handle.signal(closeSignal);
      assert.equal(await handle.result(), 'closed');
      assert.deepEqual(model.sent, [1]);
      assert.deepEqual(model.expired, []);
    });
  });

  test('a resend after the wait sends the next code and says when the one after may be asked for', async () => {
    const model = readModel();
    await withMockedWorker(model.activities, async (w) => {
      const { handle } = await start(w, 3_600_000, 1);
      await waitFor(async () => model.sent.length === 1);
      const answer = await handle.executeUpdate(resendUpdate);
      assert.equal(answer.codeNumber, 2);
      assert.ok(Date.parse(answer.resendAt) > 0);
      await waitFor(async () => model.sent.length === 2);
      assert.deepEqual(model.sent, [1, 2]);
      await handle.signal(closeSignal);
      assert.equal(await handle.result(), 'closed');
      await assert.rejects(handle.executeUpdate(resendUpdate));
    });
  });

  test('nobody verifying: the timer expires it once', async () => {
    const model = readModel();
    await withMockedWorker(model.activities, async (w) => {
      const { id, handle } = await start(w, 1_500, 1);
      await waitFor(async () => model.sent.length === 1);
      assert.equal(await handle.result(), 'expired');
      assert.deepEqual(model.expired, [id]);
      assert.deepEqual(model.sent, [1]);
    });
  });

  test('a failing send is retried; a refused one is not, and the registration still waits and expires', async () => {
    const flaky = readModel((_n, attempt) => (attempt < 3 ? new Error('provider down') : 'sent'));
    await withMockedWorker(flaky.activities, async (w) => {
      const { handle } = await start(w, 3_600_000, 60_000);
      await waitFor(async () => flaky.sent.length === 1, 20_000);
      assert.deepEqual(flaky.attempts, [1, 1, 1]);
      await handle.signal(closeSignal);
      assert.equal(await handle.result(), 'closed');
    });
    const refused = readModel(() =>
      ApplicationFailure.create({ type: SMS_REFUSED, message: 'twilio refused the message: 400', nonRetryable: true }),
    );
    await withMockedWorker(refused.activities, async (w) => {
      const { id, handle } = await start(w, 2_000, 60_000);
      assert.equal(await handle.result(), 'expired');
      assert.deepEqual(refused.attempts, [1], 'not retried');
      assert.deepEqual(refused.expired, [id]);
    });
  });
});
