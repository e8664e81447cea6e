import { condition, continueAsNew, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import {
  pauseSignal,
  progressQuery,
  resumeSignal,
  type RotationInput,
  type RotationProgress,
  type SecretsActivities,
} from './contract.ts';

const { secretColumns, resealSecrets } = proxyActivities<SecretsActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumInterval: '1 minute' },
});

/**
 * Walks every sealed column in id order, one batch per activity, and re-seals what is not under the worker's
 * sealing key. Pausing takes effect between batches; the position survives worker restarts and continue-as-new.
 */
export async function secretsRotationWorkflow(input: RotationInput = {}): Promise<RotationProgress> {
  const batchSize = input.batchSize ?? 500;
  const progress: RotationProgress = input.progress ?? {
    columns: await secretColumns(),
    column: 0,
    afterId: 0,
    scanned: 0,
    resealed: 0,
    unreadable: [],
    keyId: null,
    paused: false,
  };
  setHandler(pauseSignal, () => {
    progress.paused = true;
  });
  setHandler(resumeSignal, () => {
    progress.paused = false;
  });
  setHandler(progressQuery, () => progress);
  while (progress.column < progress.columns.length) {
    await condition(() => !progress.paused);
    const batch = await resealSecrets(progress.columns[progress.column]!, progress.afterId, batchSize);
    progress.scanned += batch.scanned;
    progress.resealed += batch.resealed;
    progress.unreadable = [...progress.unreadable, ...batch.unreadable].slice(0, 100);
    progress.keyId = batch.keyId;
    if (batch.lastId === null) {
      progress.column += 1;
      progress.afterId = 0;
    } else {
      progress.afterId = batch.lastId;
    }
    if (workflowInfo().continueAsNewSuggested)
      return continueAsNew<typeof secretsRotationWorkflow>({ batchSize, progress });
  }
  return progress;
}
