/**
 * Recorded workflow histories (workflows/histories, replayed by test/workflows/replay.test.ts): a finished run's
 * history replayed against the current workflow code, and written there with RECORD_HISTORY=<file name> (or 1).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker } from '@temporalio/worker';
import { findOrBuildTemporalCli } from '../../src/launchers/temporalServer.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { workerMetrics } from '../../src/platform/telemetry/temporalMetrics.ts';
import { workflowsPath } from '../../src/platform/temporal/worker.ts';
import type { TestApp } from './app.ts';

export const historiesDir = path.resolve(import.meta.dirname, '../../workflows/histories');

/** How a history is replayed: the suite's prebuilt bundle when there is one, else the workflow sources. */
export const replayOptions = () => ({
  sinks: workerMetrics.sinks,
  ...(process.env.WORKFLOW_BUNDLE_PATH
    ? { workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE_PATH } }
    : { workflowsPath }),
});

/** Replays the run's history (the latest run, or `runId`) and, when asked, records it as `file`. */
export async function replayAndMaybeRecord(
  app: TestApp,
  workflowId: string,
  file: string,
  runId?: string,
): Promise<void> {
  const history = await app.running.temporal.workflow.getHandle(workflowId, runId).fetchHistory();
  if (process.env.RECORD_HISTORY === '1' || process.env.RECORD_HISTORY === file) {
    // The CLI writes the canonical protobuf JSON that historyFromJSON reads.
    const shown = spawnSync(
      findOrBuildTemporalCli(createLogger('silent')),
      [
        ...['workflow', 'show', '-w', workflowId, ...(runId ? ['-r', runId] : []), '--output', 'json'],
        ...['--address', app.config.temporalAddress!, '--namespace', app.config.temporalNamespace],
      ],
      { encoding: 'utf8' },
    );
    assert.equal(shown.status, 0, shown.stderr);
    fs.writeFileSync(path.join(historiesDir, file), shown.stdout);
  }
  try {
    await Worker.runReplayHistory(replayOptions(), history, workflowId);
  } catch (err) {
    // A fresh history that does not replay is a determinism bug that may not come back on the next run: keep it.
    const kept = path.join(os.tmpdir(), `replay-failure-${file}`);
    fs.writeFileSync(kept, historyToJSON(history as Parameters<typeof historyToJSON>[0]));
    throw new Error(`${(err as Error).message}\nThe history is kept in ${kept}`, { cause: err });
  }
}
