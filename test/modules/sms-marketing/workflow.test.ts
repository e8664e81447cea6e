/**
 * The SMS campaign workflow with its activities mocked: batches over the audience in number order across
 * continue-as-new runs, each number handled once; the send time waited for; pause holding across a run's end;
 * cancel answering the final counts, and every step refused after it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  cancelUpdate,
  countsQuery,
  pauseUpdate,
  resumeUpdate,
  SMS_CAMPAIGN_WORKFLOW,
  type SmsCampaignActivities,
  type SmsCampaignInput,
} from '../../../src/modules/sms-marketing/contract.ts';
import type { smsCampaignWorkflow } from '../../../src/modules/sms-marketing/workflows.ts';
import { withMockedWorker, type MockedWorker } from '../../helpers/mockedWorker.ts';
import { waitFor } from '../../helpers/wait.ts';

/** The campaign's read model: its audience, the numbers handled in order, and the state writes. */
function readModel(size: number) {
  const audience = Array.from({ length: size }, (_, i) => `+42060100${String(i).padStart(4, '0')}`);
  const handled: string[] = [];
  const states: string[] = [];
  const activities: SmsCampaignActivities = {
    async sendCampaignBatch({ after, limit }) {
      const next = audience.filter((p) => p > after && !handled.includes(p)).slice(0, limit);
      handled.push(...next);
      return {
        handled: next.length,
        after: next.at(-1) ?? after,
        counts: { total: size, sent: handled.length, failed: 0, skipped_opted_out: 0 },
      };
    },
    async setCampaignState({ state }) {
      states.push(state);
    },
  };
  return { audience, handled, states, activities };
}

/** An hour of quiet that does not hold now (UTC): it starts in two hours. */
function notNow() {
  const h = (new Date().getUTCHours() + 2) % 24;
  return { start: h * 60, end: ((h + 1) % 24) * 60 };
}

let campaigns = 0;
async function start(w: MockedWorker, over: Partial<SmsCampaignInput>) {
  const input: SmsCampaignInput = {
    campaignId: ++campaigns,
    businessId: 1,
    total: 0,
    timezone: 'UTC',
    perMinute: 6000,
    quietHours: notNow(),
    sendAt: null,
    timerScale: 1,
    ...over,
  };
  return w.client.workflow.start<typeof smsCampaignWorkflow>(SMS_CAMPAIGN_WORKFLOW, {
    workflowId: `sms-campaign-test-${Date.now()}-${input.campaignId}`,
    taskQueue: w.taskQueue,
    args: [input],
  });
}

describe('SMS campaign workflow (mocked activities)', () => {
  test(
    'sends to the whole audience in number order over several runs, each number once',
    { timeout: 60_000 },
    async () => {
      const model = readModel(45);
      await withMockedWorker(model.activities, async (w) => {
        // 6000 a minute: batches of 20; a continue-as-new after every batch.
        const handle = await start(w, { total: 45, batchesPerRun: 1 });
        const final = await handle.result();
        assert.deepEqual(final, { total: 45, sent: 45, failed: 0, skipped_opted_out: 0, pending: 0, state: 'done' });
        assert.deepEqual(model.handled, model.audience);
        assert.deepEqual(model.states, ['done']);
        const last = await w.client.workflow.getHandle(handle.workflowId).describe();
        assert.notEqual(last.runId, handle.firstExecutionRunId, 'it continued as new');
      });
    },
  );

  test(
    'a pause holds across the end of a run; resume finishes; cancel is refused once ended',
    { timeout: 60_000 },
    async () => {
      const model = readModel(30);
      await withMockedWorker(model.activities, async (w) => {
        // One a second, a run per batch.
        const handle = await start(w, { total: 30, perMinute: 60, batchesPerRun: 1 });
        await waitFor(async () => model.handled.length >= 2);
        const paused = await handle.executeUpdate(pauseUpdate);
        assert.equal(paused.state, 'paused');
        const at = model.handled.length;
        assert.equal(paused.sent, at, 'nothing in flight once the pause answered');
        assert.deepEqual(model.states, ['paused']);
        // The paused run has ended and the new one is paused too: nothing more is sent.
        await waitFor(async () => (await handle.query(countsQuery)).state === 'paused');
        assert.equal(model.handled.length, at);
        const resumed = await handle.executeUpdate(resumeUpdate);
        assert.notEqual(resumed.state, 'paused');
        const cancelled = await handle.executeUpdate(cancelUpdate);
        assert.equal(cancelled.state, 'cancelled');
        assert.ok(cancelled.pending > 0);
        assert.deepEqual(model.states, ['paused', 'running', 'cancelled']);
        for (const update of [pauseUpdate, resumeUpdate, cancelUpdate])
          await assert.rejects(handle.executeUpdate(update));
      });
    },
  );

  test('waits for the send time, then sends', { timeout: 60_000 }, async () => {
    const model = readModel(2);
    await withMockedWorker(model.activities, async (w) => {
      const handle = await start(w, { total: 2, sendAt: new Date(Date.now() + 1_500).toISOString() });
      assert.equal((await handle.query(countsQuery)).state, 'scheduled');
      assert.equal(model.handled.length, 0);
      assert.equal((await handle.result()).sent, 2);
    });
  });
});
