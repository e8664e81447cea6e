/**
 * The route board's process with its activities mocked: a claim that comes while the board's open activity runs (its
 * rows may already read `open`) waits for the phase and is judged then, not refused as BOARD_NOT_OPEN.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  boardChangeUpdate,
  boardStatusQuery,
  ROUTE_BOARD_WORKFLOW,
  type BoardSnapshot,
  type RouteBoardActivities,
} from '../../../src/modules/route-board/contract.ts';
import type { routeBoardWorkflow } from '../../../src/modules/route-board/workflows.ts';
import { withMockedWorker } from '../../helpers/mockedWorker.ts';

const snap = (status: BoardSnapshot['status'], claimId: number | null = null): BoardSnapshot => ({
  boardId: 1,
  status,
  claimId,
  settleReady: false,
});

describe('route board workflow (mocked activities)', () => {
  test('a claim sent while the board is opening is applied once it is open', async () => {
    let letOpen!: () => void;
    const opening = new Promise<void>((r) => (letOpen = r));
    let openStarted!: () => void;
    const started = new Promise<void>((r) => (openStarted = r));
    const applied: string[] = [];
    const activities: RouteBoardActivities = {
      async openBoard() {
        openStarted();
        await opening;
        return snap('open');
      },
      async closeBoard() {
        return snap('closed');
      },
      async settleBoard() {
        return snap('settled');
      },
      async applyBoardChange({ change }) {
        applied.push(change.kind);
        return change.kind === 'cancel' ? snap('cancelled') : snap('open', 7);
      },
    };
    await withMockedWorker(activities, async (w) => {
      const hours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();
      const handle = await w.client.workflow.start<typeof routeBoardWorkflow>(ROUTE_BOARD_WORKFLOW, {
        workflowId: `route-board-test-${randomUUID()}`,
        taskQueue: w.taskQueue,
        args: [{ boardId: 1, businessId: 1, opensAt: hours(-1), closesAt: hours(1), settlesAt: hours(2) }],
      });
      await started;
      const claim = handle.executeUpdate(boardChangeUpdate, {
        args: [{ kind: 'claim', contractorId: 3, seatId: 5 }],
      });
      // The update is accepted while the open activity runs; nothing is applied before it ends.
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(applied, []);
      letOpen();
      assert.deepEqual(await claim, snap('open', 7));
      assert.equal((await handle.query(boardStatusQuery)).status, 'open');
      await handle.executeUpdate(boardChangeUpdate, { args: [{ kind: 'cancel', actorId: 2, reason: null }] });
      assert.equal(await handle.result(), 'cancelled');
      assert.deepEqual(applied, ['claim', 'cancel']);
    });
  });
});
