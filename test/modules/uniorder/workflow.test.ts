/**
 * The uniorder job workflow with its activities mocked (docs/uniorder.md, "Jobs of 500"): lanes run side by side with
 * at most 4 items in flight per carrier lane and 8 in the self lane; an item whose attempts are spent is counted
 * failed and the job still ends once.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  progressQuery,
  UNIORDER_JOB_WORKFLOW,
  type UniorderJobActivities,
} from '../../../src/modules/uniorder/contract.ts';
import type { uniorderJob } from '../../../src/modules/uniorder/workflows.ts';
import { withMockedWorker } from '../../helpers/mockedWorker.ts';

const CAPS: Record<string, number> = { sandbox_swift: 4, sandbox_parcel: 4, self: 8 };
const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

describe('uniorder job workflow (mocked activities)', () => {
  test('at most 4 in flight per carrier lane, 8 for self, lanes side by side; a lost item is failed', async () => {
    const lanes = { sandbox_swift: range(0, 20), sandbox_parcel: range(20, 20), self: range(40, 30) };
    const laneOf = (index: number) => Object.entries(lanes).find(([, ix]) => ix.includes(index))![0];
    const inFlight: Record<string, number> = {};
    const most: Record<string, number> = {};
    let mostOverall = 0;
    const ran: number[] = [];
    let finished = 0;
    const activities: UniorderJobActivities = {
      async runJobItem(_jobId, index) {
        const lane = laneOf(index);
        inFlight[lane] = (inFlight[lane] ?? 0) + 1;
        most[lane] = Math.max(most[lane] ?? 0, inFlight[lane]);
        mostOverall = Math.max(
          mostOverall,
          Object.values(inFlight).reduce((a, b) => a + b, 0),
        );
        // Hold each item until its lane is full (or a lane's last few items wait out 300 ms), so the most in flight
        // is the lane's cap however slowly a loaded machine's worker picks up tasks.
        const until = Date.now() + 300;
        while (inFlight[lane] < CAPS[lane]! && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
        inFlight[lane] -= 1;
        ran.push(index);
        if (index === 5) throw new Error('lost');
        return { index, ok: index !== 45 };
      },
      async finishJob() {
        finished += 1;
        return { total: 71, succeeded: 67, failed: 4 };
      },
      async startQueuedJobs() {
        return 0;
      },
    };
    await withMockedWorker(activities, async (w) => {
      const handle = await w.client.workflow.start<typeof uniorderJob>(UNIORDER_JOB_WORKFLOW, {
        workflowId: `uniorder-job-test-${randomUUID()}`,
        taskQueue: w.taskQueue,
        args: [{ job_id: randomUUID(), business_id: 1, kind: 'create', total: 71, failed: 1, lanes }],
        retry: { maximumAttempts: 1 },
      });
      assert.deepEqual(await handle.result(), { total: 71, succeeded: 67, failed: 4 });
      const progress = await handle.query(progressQuery);
      assert.deepEqual(progress, {
        total: 71,
        done: 68,
        failed: 3,
        running: 0,
        lanes: {
          sandbox_swift: { done: 19, failed: 1, running: 0 },
          sandbox_parcel: { done: 20, failed: 0, running: 0 },
          self: { done: 29, failed: 1, running: 0 },
        },
      });
    });
    assert.deepEqual(most, CAPS);
    assert.ok(mostOverall > 8, 'the lanes ran side by side');
    // Item 5 was tried three times (the activity's retry policy), every other item once.
    assert.equal(ran.filter((i) => i === 5).length, 3);
    assert.equal(ran.length, 70 + 2);
    assert.equal(finished, 1);
  });
});
