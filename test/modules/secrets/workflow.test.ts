/** The secrets rotation workflow with its activities mocked: the walk over columns and batches, pause and resume. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  pauseSignal,
  progressQuery,
  resumeSignal,
  SECRETS_ROTATION_WORKFLOW,
  type BatchResult,
  type ColumnRef,
  type SecretsActivities,
} from '../../../src/modules/secrets/contract.ts';
import type { secretsRotationWorkflow } from '../../../src/modules/secrets/workflows.ts';
import { withMockedWorker, type MockedWorker } from '../../helpers/mockedWorker.ts';
import { waitFor } from '../../helpers/wait.ts';

const column = (name: string): ColumnRef => ({ table: 'secret_table', column: name, purpose: name });

/**
 * Sealed columns holding the given row ids. Like the real activity, a batch answers the last id it looked at and
 * null once the column has no row after `afterId`; even ids count as re-sealed, the rest as already under the key.
 * `hold` keeps the named batch running until released.
 */
function store(rows: Record<string, number[]>, hold?: { column: string; afterId: number; until: Promise<void> }) {
  const calls: string[] = [];
  const activities: SecretsActivities = {
    async secretColumns() {
      return Object.keys(rows).map(column);
    },
    async resealSecrets(c, afterId, limit): Promise<BatchResult> {
      calls.push(`${c.column}>${afterId}`);
      if (hold && hold.column === c.column && hold.afterId === afterId) await hold.until;
      const batch = rows[c.column]!.filter((id) => id > afterId).slice(0, limit);
      return {
        lastId: batch.at(-1) ?? null,
        scanned: batch.length,
        resealed: batch.filter((id) => id % 2 === 0).length,
        unreadable: [],
        keyId: 'k2',
      };
    },
  };
  return { calls, activities };
}

function start(w: MockedWorker, batchSize: number) {
  return w.client.workflow.start<typeof secretsRotationWorkflow>(SECRETS_ROTATION_WORKFLOW, {
    workflowId: `secrets-rotation-test-${randomUUID()}`,
    taskQueue: w.taskQueue,
    args: [{ batchSize }],
  });
}

describe('secrets rotation workflow (mocked activities)', () => {
  test('each column is re-sealed batch by batch until a batch finds no row after the last one, then the next column', async () => {
    const db = store({ a: [1, 2, 3, 4, 5], b: [], c: [7, 8] });
    await withMockedWorker(db.activities, async (w) => {
      const handle = await start(w, 2);
      const result = await handle.result();
      assert.deepEqual(
        { column: result.column, scanned: result.scanned, resealed: result.resealed, keyId: result.keyId },
        { column: 3, scanned: 7, resealed: 3, keyId: 'k2' },
      );
      assert.equal((await handle.query(progressQuery)).column, 3, 'the query answers every column done');
    });
    // A short batch is not the end of a column: only a batch that finds nothing is.
    assert.deepEqual(db.calls, ['a>0', 'a>2', 'a>4', 'a>5', 'b>0', 'c>0', 'c>8']);
  });

  test('pause stops taking batches after the one under way; resume goes on from the same row', async () => {
    let release!: () => void;
    const until = new Promise<void>((r) => {
      release = r;
    });
    const db = store({ a: [1, 2, 3], b: [1, 2, 3] }, { column: 'b', afterId: 0, until });
    await withMockedWorker(db.activities, async (w) => {
      const handle = await start(w, 2);
      await waitFor(async () => db.calls.includes('b>0'));
      const underWay = await handle.query(progressQuery);
      assert.deepEqual(
        [underWay.column, underWay.afterId, underWay.paused],
        [1, 0, false],
        'column a is done, b under way',
      );
      try {
        await handle.signal(pauseSignal);
        await waitFor(async () => (await handle.query(progressQuery)).paused);
      } finally {
        release();
      }
      // The held batch is counted while paused; the workflow task that counted it scheduled no next batch.
      const paused = await waitFor(async () => {
        const p = await handle.query(progressQuery);
        return p.afterId === 2 && p;
      });
      assert.equal(paused.paused, true);
      assert.deepEqual((await handle.describe()).raw.pendingActivities ?? [], [], 'no batch scheduled while paused');
      const callsWhilePaused = db.calls.length;
      assert.equal(db.calls.at(-1), 'b>0');
      await handle.signal(resumeSignal);
      const result = await handle.result();
      assert.equal(result.paused, false);
      assert.equal(result.column, 2);
      assert.equal(result.scanned, 6);
      assert.deepEqual(db.calls.slice(callsWhilePaused), ['b>2', 'b>3'], 'resumed from the row after the held batch');
    });
  });
});
