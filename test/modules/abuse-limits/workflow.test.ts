/** The hourly limit-rows prune workflow with its activity mocked. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  LIMIT_ROWS_PRUNE_WORKFLOW,
  type AbuseLimitActivities,
  type LimitRowsPruned,
} from '../../../src/modules/abuse-limits/contract.ts';
import type { limitRowsPruneWorkflow } from '../../../src/modules/abuse-limits/workflows.ts';
import { withMockedWorker } from '../../helpers/mockedWorker.ts';

describe('limit-rows prune workflow (mocked activity)', () => {
  test('prunes once and returns what the activity deleted, unchanged', async () => {
    let calls = 0;
    const pruned: LimitRowsPruned = { windows: 12, attempts: 5 };
    const activities: AbuseLimitActivities = {
      async pruneLimitRows() {
        calls += 1;
        return pruned;
      },
    };
    await withMockedWorker(activities, async (w) => {
      const result = await w.client.workflow.execute<typeof limitRowsPruneWorkflow>(LIMIT_ROWS_PRUNE_WORKFLOW, {
        workflowId: `limit-rows-prune-test-${randomUUID()}`,
        taskQueue: w.taskQueue,
      });
      assert.deepEqual(result, { windows: 12, attempts: 5 });
    });
    assert.equal(calls, 1);
  });
});
